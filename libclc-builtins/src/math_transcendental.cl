// Transcendental math builtins (OpenCL C 3.0, 6.15.2) for scalar float and double.
// Most call SLEEF's 1-ulp scalar functions; the *pi variants and tanpi are derived here.
// Vector and address-space overloads are generated (gen/vector_wrappers.py).
#include "builtin_support.h"

#define SLEEF_UNARY(name, fn)                                      \
  OVLD float name(float x) { return Sleef_##fn##f_u10(x); }       \
  OVLD double name(double x) { return Sleef_##fn##_u10(x); }

// The float versions of these are computed with SLEEF's double functions: SLEEF's float
// ones are only accurate on a reduced range (sinhf overflows early, asinhf/acoshf/log1pf
// fail near FLT_MAX, tgammaf underflows wrongly).
#define SLEEF_UNARY_VIA_DOUBLE(name, fn)                                           \
  OVLD float name(float x) { return (float)Sleef_##fn##_u10((double)x); }

SLEEF_UNARY(sin, sin) SLEEF_UNARY(cos, cos) SLEEF_UNARY(tan, tan)
SLEEF_UNARY(asin, asin) SLEEF_UNARY(acos, acos) SLEEF_UNARY(atan, atan)
SLEEF_UNARY(tanh, tanh) SLEEF_UNARY(atanh, atanh)
SLEEF_UNARY(exp, exp) SLEEF_UNARY(exp2, exp2) SLEEF_UNARY(exp10, exp10) SLEEF_UNARY(expm1, expm1)
SLEEF_UNARY(log, log) SLEEF_UNARY(log2, log2) SLEEF_UNARY(log10, log10)
SLEEF_UNARY(cbrt, cbrt) SLEEF_UNARY(erf, erf) SLEEF_UNARY(lgamma, lgamma)
SLEEF_UNARY_VIA_DOUBLE(sinh, sinh) SLEEF_UNARY_VIA_DOUBLE(cosh, cosh)
SLEEF_UNARY_VIA_DOUBLE(asinh, asinh) SLEEF_UNARY_VIA_DOUBLE(acosh, acosh)
SLEEF_UNARY_VIA_DOUBLE(log1p, log1p)
// SLEEF's double sinh and cosh overflow with exp(|x|), past 709.78, but the results stay
// finite up to 710.47. There e^-|x| is negligible: sinh, cosh = e^(|x| - 1) * (e / 2), where
// |x| - 1 is exact, which stays within 2 ulp.
#define HALF_E 1.35914091422952261768
OVLD double sinh(double x) {
  if (fabs(x) > 709.0 && !isinf(x)) return copysign(Sleef_exp_u10(fabs(x) - 1.0) * HALF_E, x);
  return Sleef_sinh_u10(x);
}
OVLD double cosh(double x) {
  if (fabs(x) > 709.0 && !isinf(x)) return Sleef_exp_u10(fabs(x) - 1.0) * HALF_E;
  return Sleef_cosh_u10(x);
}

// For large negative x, gamma underflows to a zero whose sign SLEEF does not give: gamma
// is negative between -1 and 0, -3 and -2, ... (where floor(x) is odd).
static double gamma_zero_sign(double x, double r) {
  if (r == 0 && x < 0 && fmod(floor(x), 2.0) != 0) return -0.0;
  return r;
}
// Below -170, SLEEF's tgamma is off by over a thousand ulp near the negative integers
// (CTS math_brute_force at -172.0000000000001). There the reflection formula
// tgamma(x) = pi / (sinpi(x) * tgamma(1 - x)) holds with an exact sinpi, and
// tgamma(1 - x) = tgamma(z) * z (z + 1) ... (z + 14), z = 1 - x - 15 (all exact: 1 - x
// stays in x's binade), divided out one factor at a time so that nothing overflows.
// Past -185 the value underflows to zero.
static double tgamma_below_minus_170(double x) {
  const double z = (1.0 - x) - 15.0;
  double r = M_PI / sinpi(x);
  for (int i = 0; i < 15; ++i) r /= z + i;
  return r / Sleef_tgamma_u10(z);
}
OVLD double tgamma(double x) {
  if (x < -170.0 && x > -185.0 && x != floor(x)) return tgamma_below_minus_170(x);
  return gamma_zero_sign(x, Sleef_tgamma_u10(x));
}
OVLD float tgamma(float x) {
  double d = (double)x;
  return (float)gamma_zero_sign(d, Sleef_tgamma_u10(d));
}

// SLEEF's double asinh, acosh and log1p lose accuracy for huge arguments, where
// asinh(x) = log(2|x|), acosh(x) = log(2x) and log1p(x) = log(x) to within rounding.
#define HUGE_ARGUMENT 0x1p60
OVLD double asinh(double x) {
  if (fabs(x) < HUGE_ARGUMENT || isinf(x)) return Sleef_asinh_u10(x);
  return copysign(Sleef_log_u10(fabs(x)) + M_LN2, x);
}
OVLD double acosh(double x) {
  if (x < HUGE_ARGUMENT || isinf(x)) return Sleef_acosh_u10(x);
  return Sleef_log_u10(x) + M_LN2;
}
OVLD double log1p(double x) {
  if (x < HUGE_ARGUMENT || isinf(x)) return Sleef_log1p_u10(x);
  return Sleef_log_u10(x);
}

OVLD float erfc(float x) { return Sleef_erfcf_u15(x); }
OVLD double erfc(double x) { return Sleef_erfc_u15(x); }

// sinpi and cospi reduce x modulo 2 exactly first: SLEEF's versions are only accurate for
// moderate arguments. x - 2 * rint(x / 2) is exact and lies in [-1, 1].
#define DEFINE_SINPI_COSPI(T, SINPI, COSPI)                                        \
  OVLD T sinpi(T x) {                                                              \
    if (isinf(x)) return (T)NAN;                                                   \
    T r = x - 2 * rint(x * (T)0.5);                                                \
    if (r == rint(r)) return copysign((T)0, x); /* +0 for n > 0, -0 for n < 0 */   \
    /* sin(pi - a) = sin(a): keep the argument near 0, where the result is small */ \
    if (fabs(r) > (T)0.5) r = copysign((T)1 - fabs(r), r);                         \
    return SINPI(r);                                                               \
  }                                                                                \
  OVLD T cospi(T x) {                                                              \
    if (isinf(x)) return (T)NAN;                                                   \
    T r = fabs(x - 2 * rint(x * (T)0.5));                                          \
    if (r == (T)0.5) return (T)0;                                                  \
    return COSPI(r);                                                               \
  }
DEFINE_SINPI_COSPI(float, Sleef_sinpif_u05, Sleef_cospif_u05)
DEFINE_SINPI_COSPI(double, Sleef_sinpi_u05, Sleef_cospi_u05)
OVLD float atan2(float y, float x) { return Sleef_atan2f_u10(y, x); }
OVLD double atan2(double y, double x) { return Sleef_atan2_u10(y, x); }
OVLD float hypot(float x, float y) { return Sleef_hypotf_u05(x, y); }
OVLD double hypot(double x, double y) { return Sleef_hypot_u05(x, y); }

OVLD float sincos(float x, __private float *cosval) {
  *cosval = Sleef_cosf_u10(x);
  return Sleef_sinf_u10(x);
}
OVLD double sincos(double x, __private double *cosval) {
  *cosval = Sleef_cos_u10(x);
  return Sleef_sin_u10(x);
}

// The *pi inverses divide by pi (rather than multiply by 1/pi) so that the exact
// results the spec lists (acospi(-1) = 1, atan2pi(+0, -0) = 1, ...) come out exact.
// The float versions work in double, so their only error is the final rounding.
OVLD float asinpi(float x) { return (float)(Sleef_asin_u10((double)x) / M_PI); }
OVLD float acospi(float x) { return (float)(Sleef_acos_u10((double)x) / M_PI); }
OVLD float atanpi(float x) { return (float)(Sleef_atan_u10((double)x) / M_PI); }
OVLD float atan2pi(float y, float x) { return (float)(Sleef_atan2_u10((double)y, (double)x) / M_PI); }
OVLD double asinpi(double x) { return Sleef_asin_u10(x) / M_PI; }
OVLD double acospi(double x) { return Sleef_acos_u10(x) / M_PI; }
OVLD double atanpi(double x) { return Sleef_atan_u10(x) / M_PI; }
OVLD double atan2pi(double y, double x) { return Sleef_atan2_u10(y, x) / M_PI; }

// tanpi: t = x - rint(x) is exact and in [-1/2, 1/2]. Near +-1/2, tan(pi t) is computed as
// cospi(u) / sinpi(u) with u = 1/2 - |t| (exact), so neither quotient term is near a zero
// of its own. Exact integers and half-integers give the signed zeros and infinities the
// spec lists. The work is done in double for both float and double.
#define DEFINE_TANPI(T)                                                             \
  OVLD T tanpi(T x) {                                                               \
    if (isinf(x) || isnan(x)) return (T)NAN;                                        \
    T n = rint(x);                                                                  \
    T t = x - n;                                                                    \
    if (t == 0) {                                                                   \
      T z = (fmod(n, (T)2) != 0) ? (T)-0.0 : (T)0.0;                                \
      return signbit(x) ? -z : z;                                                   \
    }                                                                               \
    T at = fabs(t);                                                                 \
    if (at == (T)0.5) return (fmod(floor(x), (T)2) == 0) ? (T)INFINITY : (T)-INFINITY; \
    double r;                                                                       \
    if (at <= (T)0.25) {                                                            \
      r = Sleef_sinpi_u05((double)at) / Sleef_cospi_u05((double)at);                \
    } else {                                                                        \
      T u = (T)0.5 - at;                                                            \
      r = Sleef_cospi_u05((double)u) / Sleef_sinpi_u05((double)u);                  \
    }                                                                               \
    return (T)copysign(r, (double)t);                                               \
  }
DEFINE_TANPI(float)
DEFINE_TANPI(double)

// lgamma_r: the sign of gamma(x). For negative non-integers it alternates between the
// poles: gamma is negative on (-1, 0), positive on (-2, -1), and so on.
#define DEFINE_LGAMMA_R(T)                                                          \
  OVLD T lgamma_r(T x, __private int *signp) {                                      \
    T r = lgamma(x);                                                                \
    int sign = 1;                                                                   \
    if (isnan(x)) sign = 0;                                                         \
    else if (x == 0) sign = signbit(x) ? -1 : 1;                                    \
    else if (x < 0) {                                                               \
      T f = floor(x);                                                               \
      if (f == x) sign = 0; /* pole */                                              \
      else if (fmod(f, (T)2) != 0) sign = -1;                                       \
    }                                                                               \
    *signp = sign;                                                                  \
    return r;                                                                       \
  }
DEFINE_LGAMMA_R(float)
DEFINE_LGAMMA_R(double)

// half_ and native_ variants (float only). On the host both map to the full-precision
// functions (SLEEF's are fast already).
#define REDUCED_UNARY(prefix, name) OVLD float prefix##name(float x) { return name(x); }
#define REDUCED_TRIG_AND_LOG(prefix)                                                 \
  REDUCED_UNARY(prefix, cos) REDUCED_UNARY(prefix, sin) REDUCED_UNARY(prefix, tan)   \
  REDUCED_UNARY(prefix, log) REDUCED_UNARY(prefix, log2) REDUCED_UNARY(prefix, log10)
#ifdef __NVPTX__
static inline float nvptx_div_full(float x, float y) {
  float q;
  __asm__("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(x), "f"(y));
  return q;
}
// On the GPU, both take the hardware's approximations where they stay within the half_
// limits (8192 ulp) over half_'s domains: divide and reciprocal (div.full: 2 ulp over the
// full range; div.approx returns 0 for divisors past 2^126), square roots (about 1 ulp),
// exp2 (2^-22.5 relative), and exp and exp10 through exp2 (the rounding of the scaled
// exponent costs at most a few dozen ulp: CTS half_exp 62 ulp). The trigonometric functions
// and the logarithms keep full precision: the hardware's absolute error is far more than
// 8192 ulp near their zeros. powr through exp2(y * log2(x)) is as exact only for small |y|
// (the error grows with it: CTS half_powr found 29734 ulp at y = -34833), so half_powr keeps
// full precision, and native_powr, whose accuracy is the implementation's to define, is the
// fast one (as in NVIDIA's OpenCL): within 8192 ulp for |y| <= 8.
#define REDUCED_SET(prefix)                                                                         \
  REDUCED_TRIG_AND_LOG(prefix)                                                                      \
  OVLD float prefix##divide(float x, float y) { return nvptx_div_full(x, y); }                      \
  OVLD float prefix##recip(float x) { return nvptx_div_full(1.0f, x); }                            \
  OVLD float prefix##sqrt(float x) { return __nvvm_sqrt_approx_f(x); }                             \
  OVLD float prefix##rsqrt(float x) { return __nvvm_rsqrt_approx_f(x); }                           \
  OVLD float prefix##exp2(float x) { return __nvvm_ex2_approx_f(x); }                              \
  OVLD float prefix##exp(float x) { return __nvvm_ex2_approx_f(x * M_LOG2E_F); }                   \
  OVLD float prefix##exp10(float x) { return __nvvm_ex2_approx_f(x * 3.32192809488736234787f); }
OVLD float half_powr(float x, float y) { return powr(x, y); }
OVLD float native_powr(float x, float y) { return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)); }
#else
#define REDUCED_SET(prefix)                                                          \
  REDUCED_TRIG_AND_LOG(prefix)                                                       \
  REDUCED_UNARY(prefix, exp) REDUCED_UNARY(prefix, exp2) REDUCED_UNARY(prefix, exp10) \
  REDUCED_UNARY(prefix, sqrt) REDUCED_UNARY(prefix, rsqrt)                           \
  OVLD float prefix##recip(float x) { return 1.0f / x; }                            \
  OVLD float prefix##divide(float x, float y) { return x / y; }
OVLD float half_powr(float x, float y) { return powr(x, y); }
OVLD float native_powr(float x, float y) { return powr(x, y); }
#endif
REDUCED_SET(half_)
REDUCED_SET(native_)
