// Exactly rounded math builtins, written once for T = float and T = double.
// The includer defines: T, BITS (same-size unsigned int), SBITS (signed), AS_BITS, AS_T,
// MANT (stored mantissa bits), BIAS (exponent bias),
// BUILTIN(name) (the clang builtin for T).

#define EXP_MASK ((BITS)(2 * BIAS + 1) << MANT)
#define MANT_MASK (((BITS)1 << MANT) - 1)
#define POW2(e) AS_T((BITS)((e) + BIAS) << MANT)  /* 2^e for a normal exponent e */

OVLD T fabs(T x) { return __builtin_elementwise_abs(x); }
OVLD T ceil(T x) { return __builtin_elementwise_ceil(x); }
OVLD T floor(T x) { return __builtin_elementwise_floor(x); }
OVLD T trunc(T x) { return __builtin_elementwise_trunc(x); }
OVLD T rint(T x) { return ROUNDEVEN(x); }
OVLD T round(T x) {
  T t = trunc(x);
  // x - t is exact; halfway cases go away from zero.
  return (fabs(x - t) >= (T)0.5) ? t + copysign((T)1, x) : t;
}
OVLD T copysign(T x, T y) { return BUILTIN(copysign)(x, y); }
// maxnum/minnum leave the sign of equal zeros open: AND/OR of the bits orders them
// (fmax(-0, +0) = +0, fmin(-0, +0) = -0) and is the identity for other equal values.
OVLD T fmax(T x, T y) {
  return x == y ? AS_T(AS_BITS(x) & AS_BITS(y)) : __builtin_elementwise_max(x, y);
}
OVLD T fmin(T x, T y) {
  return x == y ? AS_T(AS_BITS(x) | AS_BITS(y)) : __builtin_elementwise_min(x, y);
}
OVLD T fma(T a, T b, T c) { return BUILTIN(fma)(a, b, c); }
OVLD T mad(T a, T b, T c) { return BUILTIN(fma)(a, b, c); }
OVLD T sqrt(T x) { return BUILTIN(sqrt)(x); }
OVLD T fdim(T x, T y) {
  if (isnan(x) || isnan(y)) return x + y;
  return x > y ? x - y : (T)0;
}
OVLD T maxmag(T x, T y) {
  T ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
OVLD T minmag(T x, T y) {
  T ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : fmin(x, y);
}
OVLD T modf(T x, __private T *iptr) {
  T i = trunc(x);
  *iptr = i;
  return copysign(isinf(x) ? (T)0 : x - i, x);
}

OVLD T fract(T x, __private T *iptr) {
  T f = floor(x);
  *iptr = f;
  if (isnan(x)) return x;
  if (isinf(x) || x == 0) return copysign((T)0, x);
  return fmin(x - f, AS_T(AS_BITS((T)1) - 1));  // largest value below 1
}

// Subnormals are scaled up by 2^(MANT+1) first so their exponent can be read from the bits.
OVLD T frexp(T x, __private int *e) {
  if (x == 0 || isinf(x) || isnan(x)) { *e = 0; return x; }
  int adjust = 0;
  if (fabs(x) < POW2(1 - BIAS)) { x *= POW2(MANT + 1); adjust = MANT + 1; }
  BITS b = AS_BITS(x);
  *e = (int)((b & EXP_MASK) >> MANT) - (BIAS - 1) - adjust;
  return AS_T((b & ~EXP_MASK) | ((BITS)(BIAS - 1) << MANT));
}

OVLD int ilogb(T x) {
  if (isnan(x)) return FP_ILOGBNAN;
  if (x == 0) return FP_ILOGB0;
  if (isinf(x)) return INT_MAX;
  int adjust = 0;
  if (fabs(x) < POW2(1 - BIAS)) { x *= POW2(MANT + 1); adjust = MANT + 1; }
  return (int)((AS_BITS(x) & EXP_MASK) >> MANT) - BIAS - adjust;
}

OVLD T logb(T x) {
  if (isnan(x)) return x;
  if (x == 0) return (T)-INFINITY;
  if (isinf(x)) return (T)INFINITY;
  return (T)ilogb(x);
}

// x * 2^n with one rounding: the intermediate scalings keep the value normal (or exact),
// so only the final multiplication rounds, which gives correctly rounded subnormals.
OVLD T ldexp(T x, int n) {
  if (n > BIAS) {
    x *= POW2(BIAS);
    n -= BIAS;
    if (n > BIAS) {
      x *= POW2(BIAS);
      n -= BIAS;
      if (n > BIAS) n = BIAS;
    }
  } else if (n < 1 - BIAS) {
    x *= POW2(1 - BIAS + MANT + 1);
    n += BIAS - 1 - (MANT + 1);
    if (n < 1 - BIAS) {
      x *= POW2(1 - BIAS + MANT + 1);
      n += BIAS - 1 - (MANT + 1);
      if (n < 1 - BIAS) n = 1 - BIAS;
    }
  }
  return x * POW2(n);
}

OVLD T nextafter(T x, T y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  if (x == 0) return copysign(AS_T((BITS)1), y);
  BITS b = AS_BITS(x);
  b = ((x < y) == (x > 0)) ? b + 1 : b - 1;
  return AS_T(b);
}

// fmod by binary long division on the integer significands: exact, whatever the ratio of
// the operands (at most 2 * BIAS + MANT steps).
OVLD T fmod(T x, T y) {
  if (isnan(x) || isnan(y) || isinf(x) || y == 0) return (T)NAN;
  T ax = fabs(x), ay = fabs(y);
  if (ax < ay || isinf(y)) return x;
  int ex = ilogb(ax), ey = ilogb(ay);
  BITS r = (BITS)ldexp(ax, MANT - ex);  // significands as integers in [2^MANT, 2^(MANT+1))
  BITS my = (BITS)ldexp(ay, MANT - ey);
  for (int i = ex - ey; i > 0; i--) {
    if (r >= my) r -= my;
    r <<= 1;
  }
  if (r >= my) r -= my;
  if (r == 0) return copysign((T)0, x);
  return copysign(ldexp((T)r, ey - MANT), x);  // exact: the result is representable
}

// remainder: reduce |x| modulo 2|y| (keeping the quotient's parity), then pick the nearest
// multiple of |y|, ties to the even one.
OVLD T remainder(T x, T y) {
  if (isnan(x) || isnan(y) || isinf(x) || y == 0) return (T)NAN;
  if (isinf(y)) return x;
  T ax = fabs(x), ay = fabs(y);
  bool odd = false;
  if (ay <= AS_T(AS_BITS((T)INFINITY) - 1) * (T)0.5) {
    ax = fmod(ax, ay * 2);  // now in [0, 2|y|)
    if (ax >= ay) { ax -= ay; odd = true; }
    if (ax * 2 > ay || (ax * 2 == ay && odd)) ax -= ay;
  } else {  // |x| < 2|y| already; halving |y| is exact
    T half_y = ay * (T)0.5;
    if (ax > half_y) {
      ax -= ay;
      if (ax >= half_y) ax -= ay;
    }
  }
  return signbit(x) ? -ax : ax;
}

// remquo: the remainder of x/y, and the low 7 bits of the integral quotient (rounded to
// nearest even, as remainder does) with the sign of x/y. Reducing |x| modulo 128|y| first
// keeps those 7 bits and the parity that decides ties.
OVLD T remquo(T x, T y, __private int *quo) {
  *quo = 0;
  if (isnan(x) || isnan(y) || isinf(x) || y == 0) return (T)NAN;
  T r = remainder(x, y);
  T ax = fabs(x), ay = fabs(y);
  T span = ay * 128;
  T m = isinf(span) ? ax : fmod(ax, span);
  T rm = remainder(m, ay);
  // m - rm, a multiple of |y|, overflows when |y| is near the largest value (x = 1.5y rounds
  // to 2y): there all three are halved. Exact: |y| is huge, and m is either at least |y| / 2
  // or equal to rm (whose halves then cancel whatever their rounding).
  T q = isinf(span) ? (m * (T)0.5 - rm * (T)0.5) / (ay * (T)0.5) : (m - rm) / ay;
  int k = (int)rint(q) & 0x7f;
  *quo = (signbit(x) != signbit(y)) ? -k : k;
  return r;
}

#undef EXP_MASK
#undef MANT_MASK
#undef POW2
