// pow, pown, powr and rootn (6.15.2) for scalar float and double.
#include "builtin_support.h"

// SLEEF's double pow overflows to infinity on results just below the largest double
// (pow(-DBL_MAX, 1) and pown(-0.5000000000000001, -1024) gave infinity; CTS
// math_brute_force pow, pown, powr). For an integer y, x^y = (x * f)^y * 2^(+-y) with f = 1/2
// (or 2 where |x| < 1): the scalings are exact and the power stays in range. Otherwise
// |x|^y = |x|^(y/2) * |x|^(y/2), two more roundings, far within pow's 16 ulp, negative for a
// negative x and an odd y (a negative x has an integer y here, or pow is NaN).
static double pow_double(double x, double y) {
  const double r = Sleef_pow_u10(x, y);
  if (!isinf(r) || !isfinite(x) || !isfinite(y) || x == 0) return r;
  if (y == floor(y) && fabs(y) < 0x1p20) {
    const bool large = fabs(x) >= 1;
    const double scaled = Sleef_pow_u10(large ? x * 0.5 : x * 2.0, y);
    if (scaled != 0 && !isinf(scaled)) return ldexp(scaled, (int)(large ? y : -y));
  }
  const double root = Sleef_pow_u10(fabs(x), y * 0.5);
  return x < 0 && fmod(y, 2.0) != 0 ? -(root * root) : root * root;
}

OVLD float pow(float x, float y) { return Sleef_powf_u10(x, y); }
OVLD double pow(double x, double y) { return pow_double(x, y); }

// An int exponent converts to double exactly, so pow's special cases are pown's.
OVLD float pown(float x, int n) { return (float)Sleef_pow_u10((double)x, (double)n); }
OVLD double pown(double x, int n) { return pow_double(x, (double)n); }

// powr is pow restricted to x >= 0, with its own special cases (spec 7.5.1).
#define DEFINE_POWR(T, POW)                                                     \
  OVLD T powr(T x, T y) {                                                       \
    if (isnan(x) || isnan(y) || x < 0) return (T)NAN;                           \
    if (x == 0) {                                                               \
      if (y == 0) return (T)NAN;                                                \
      return y < 0 ? (T)INFINITY : (T)0;                                        \
    }                                                                           \
    if (isinf(x)) {                                                             \
      if (y == 0) return (T)NAN;                                                \
      return y < 0 ? (T)0 : (T)INFINITY;                                        \
    }                                                                           \
    if (x == 1) return isinf(y) ? (T)NAN : (T)1;                                \
    return POW(x, y);                                                           \
  }
DEFINE_POWR(float, Sleef_powf_u10)
DEFINE_POWR(double, pow_double)

// rootn: the float version works in double, where 1/n's rounding error is harmless.
OVLD float rootn(float x, int n) {
  if (n == 0 || isnan(x)) return NAN;
  bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return NAN;
  double r = Sleef_pow_u10(fabs((double)x), 1.0 / (double)n);
  return (float)(odd ? copysign(r, (double)x) : r);
}

// In double, pow(|x|, 1/n) is off by |log x / n| * 2^-53 relative (up to ~200 ulp) because
// 1/n is rounded, so one Newton step on r^n = |x| corrects it. The step works on r scaled
// into [1, 2) and |x| scaled by the same power to the n (both exact), so r^n stays normal
// even where |x| is subnormal or r^n would overflow. Past |n| = 1000 the error of 1/n is
// below an ulp and the scaled powers could overflow, so no step is taken.
OVLD double rootn(double x, int n) {
  if (n == 0 || isnan(x)) return NAN;
  bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return NAN;
  double ax = fabs(x);
  double r;
  if (ax == 0 || isinf(ax)) r = Sleef_pow_u10(ax, 1.0 / (double)n);
  else if (n == 1) r = ax;
  else if (n == 2) r = __builtin_sqrt(ax);
  else if (n == -1) r = 1.0 / ax;
  else {
    r = Sleef_pow_u10(ax, 1.0 / (double)n);
    if (r != 0 && isfinite(r) && n >= -1000 && n <= 1000) {
      int k = -ilogb(r);
      double q = Sleef_pow_u10(ldexp(r, k), (double)n) / ldexp(ax, k * n);
      if (isfinite(q) && q != 0) r -= r * ((q - 1.0) / (double)n);
    }
  }
  return odd ? copysign(r, x) : r;
}
