// Math builtins (6.15.2) for scalar half (cl_khr_fp16); vector and address-space forms are
// generated (gen/vector_wrappers.py).
//
// Most are the float builtin on the exactly converted arguments, rounded to half once. The
// float functions are within a few float ulps, 2^-13 of a half ulp each, so the half result
// is within 0.5 ulp plus a little: inside the half limits (OpenCL C 3.0, 7.4), and exact
// where the exact result is a half. Where a half result must be correctly rounded, the float
// step is exact (ceil, fmod, frexp, ldexp, ...) or a correctly rounded operation whose
// second rounding cannot change the outcome (sqrt, and fdim's subtraction: float has at
// least 2 * 11 + 2 bits). Half subnormals are float normals, so none is flushed on the way.
#include "builtin_support.h"

// A definition of a builtin name hides clang's declarations of that name in this file, so
// each float overload called is declared with the half one it serves.
#define HALF_VIA_FLOAT_1(name)                                                      \
  OVLD float name(float);                                                           \
  OVLD half name(half x) { return (half)name((float)x); }
#define HALF_VIA_FLOAT_2(name)                                                      \
  OVLD float name(float, float);                                                    \
  OVLD half name(half x, half y) { return (half)name((float)x, (float)y); }
#define HALF_VIA_FLOAT_N(name)                                                      \
  OVLD float name(float, int);                                                      \
  OVLD half name(half x, int n) { return (half)name((float)x, n); }

HALF_VIA_FLOAT_1(acos) HALF_VIA_FLOAT_1(acosh) HALF_VIA_FLOAT_1(acospi)
HALF_VIA_FLOAT_1(asin) HALF_VIA_FLOAT_1(asinh) HALF_VIA_FLOAT_1(asinpi)
HALF_VIA_FLOAT_1(atan) HALF_VIA_FLOAT_1(atanh) HALF_VIA_FLOAT_1(atanpi)
HALF_VIA_FLOAT_1(cbrt) HALF_VIA_FLOAT_1(cos) HALF_VIA_FLOAT_1(cosh) HALF_VIA_FLOAT_1(cospi)
HALF_VIA_FLOAT_1(erf) HALF_VIA_FLOAT_1(erfc)
HALF_VIA_FLOAT_1(exp) HALF_VIA_FLOAT_1(exp2) HALF_VIA_FLOAT_1(exp10) HALF_VIA_FLOAT_1(expm1)
HALF_VIA_FLOAT_1(lgamma) HALF_VIA_FLOAT_1(log) HALF_VIA_FLOAT_1(log2) HALF_VIA_FLOAT_1(log10)
HALF_VIA_FLOAT_1(log1p) HALF_VIA_FLOAT_1(rsqrt) HALF_VIA_FLOAT_1(sin) HALF_VIA_FLOAT_1(sinh)
HALF_VIA_FLOAT_1(sinpi) HALF_VIA_FLOAT_1(sqrt) HALF_VIA_FLOAT_1(tan) HALF_VIA_FLOAT_1(tanh)
HALF_VIA_FLOAT_1(tanpi) HALF_VIA_FLOAT_1(tgamma)
// Exact: integral values and exponents of halves are halves.
HALF_VIA_FLOAT_1(ceil) HALF_VIA_FLOAT_1(floor) HALF_VIA_FLOAT_1(trunc) HALF_VIA_FLOAT_1(rint)
HALF_VIA_FLOAT_1(round) HALF_VIA_FLOAT_1(logb)

HALF_VIA_FLOAT_2(atan2) HALF_VIA_FLOAT_2(atan2pi) HALF_VIA_FLOAT_2(hypot)
HALF_VIA_FLOAT_2(pow) HALF_VIA_FLOAT_2(powr) HALF_VIA_FLOAT_2(fdim)
// Exact: the float results are one of the arguments, or (fmod, remainder) a remainder,
// which is representable in the arguments' format.
HALF_VIA_FLOAT_2(fmax) HALF_VIA_FLOAT_2(fmin) HALF_VIA_FLOAT_2(maxmag) HALF_VIA_FLOAT_2(minmag)
HALF_VIA_FLOAT_2(fmod) HALF_VIA_FLOAT_2(remainder)

HALF_VIA_FLOAT_N(pown) HALF_VIA_FLOAT_N(rootn)
// x * 2^n is exact in float down to 2^-126; below that float may round, but the half result
// is then a zero of x's sign either way (half rounds everything under 2^-25 to zero).
HALF_VIA_FLOAT_N(ldexp)

#undef HALF_VIA_FLOAT_1
#undef HALF_VIA_FLOAT_2
#undef HALF_VIA_FLOAT_N

OVLD int ilogb(float);
OVLD half fabs(half x) { return as_half((ushort)(as_ushort(x) & 0x7fffu)); }
OVLD half copysign(half x, half y) {
  return as_half((ushort)((as_ushort(x) & 0x7fffu) | (as_ushort(y) & 0x8000u)));
}
OVLD int ilogb(half x) { return ilogb((float)x); }
OVLD half nan(ushort nancode) { return as_half((ushort)(0x7e00u | (nancode & 0x01ffu))); }

#ifdef __NVPTX__
// fma is the GPU's own fma.rn.f16, correctly rounded (sm_53 and later); mad is the same, and
// a pair of halves is one fma.rn.f16x2, which LLVM 15 does not make of two scalar fmas.
OVLD half fma(half a, half b, half c) { return __builtin_fmaf16(a, b, c); }
OVLD half mad(half a, half b, half c) { return __builtin_fmaf16(a, b, c); }
static half2 fma_pair(half2 a, half2 b, half2 c) {
  uint r;
  __asm__("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(as_uint(a)), "r"(as_uint(b)), "r"(as_uint(c)));
  return as_half2(r);
}
static half2 mad_pair(half2 a, half2 b, half2 c) { return fma_pair(a, b, c); }
#else
// fma is correctly rounded. a * b is exact in double (22 significant bits), and the sum is
// inexact there only where one term is below 2^-30 of the other. A tiny a * b leaves the
// sum far from any half rounding boundary; a tiny c (at least 2^-24 when not zero) still
// exceeds half a double ulp of any finite half result, so the sum cannot round onto a tie
// that it is not. The double then goes to half through float rounded to odd (float has more
// than 11 + 2 bits, so the last rounding is the only one that counts), which F16C converts in
// one instruction where double to half would be a library call.
static float double_to_float_odd(double d) {
  float f = (float)d;
  double back = (double)f;
  if (back == d || d != d) return f;
  uint bits = as_uint(f);
  if (__builtin_fabs(back) > __builtin_fabs(d)) bits -= 1;  // toward zero first: the truncated magnitude
  return as_float(bits | 1u);
}
OVLD half fma(half a, half b, half c) {
  return (half)double_to_float_odd((double)a * (double)b + (double)c);
}
// mad is a multiply and an add, each rounded to half (two statements: no contraction). Both
// round once: a product of halves is exact in float, and float's 24 bits make the float
// step of a sum harmless.
OVLD half mad(half a, half b, half c) {
  half product = a * b;
  return product + c;
}
static half2 fma_pair(half2 a, half2 b, half2 c) { return (half2)(fma(a.x, b.x, c.x), fma(a.y, b.y, c.y)); }
// Whole vectors: x86 converts 8 or 16 halves to floats in one instruction (F16C).
#define DEFINE_HALF_MAD(T)           \
  OVLD T mad(T a, T b, T c) {        \
    T product = a * b;               \
    return product + c;              \
  }
DEFINE_HALF_MAD(half2) DEFINE_HALF_MAD(half3) DEFINE_HALF_MAD(half4) DEFINE_HALF_MAD(half8) DEFINE_HALF_MAD(half16)
#endif

#define DEFINE_HALF_FMA_VECTORS(name)                                                     \
  OVLD half2 name(half2 a, half2 b, half2 c) { return name##_pair(a, b, c); }            \
  OVLD half4 name(half4 a, half4 b, half4 c) {                                           \
    return (half4)(name##_pair(a.lo, b.lo, c.lo), name##_pair(a.hi, b.hi, c.hi));         \
  }                                                                                      \
  OVLD half3 name(half3 a, half3 b, half3 c) {                                           \
    return name((half4)(a, (half)0), (half4)(b, (half)0), (half4)(c, (half)0)).xyz;      \
  }                                                                                      \
  OVLD half8 name(half8 a, half8 b, half8 c) {                                           \
    return (half8)(name(a.lo, b.lo, c.lo), name(a.hi, b.hi, c.hi));                       \
  }                                                                                      \
  OVLD half16 name(half16 a, half16 b, half16 c) {                                       \
    return (half16)(name(a.lo, b.lo, c.lo), name(a.hi, b.hi, c.hi));                     \
  }
DEFINE_HALF_FMA_VECTORS(fma)
#ifdef __NVPTX__
DEFINE_HALF_FMA_VECTORS(mad)
#endif

OVLD half nextafter(half x, half y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0) return copysign(as_half((ushort)1), y);
  ushort b = as_ushort(x);
  b = ((x < y) == (x > 0)) ? b + 1 : b - 1;
  return as_half(b);
}

OVLD float fract(float, __private float *);
OVLD float modf(float, __private float *);
OVLD float sincos(float, __private float *);
OVLD float frexp(float, __private int *);
OVLD float lgamma_r(float, __private int *);
OVLD float remquo(float, float, __private int *);

// The float fraction can be within 2^-24 of 1 (fract(-2^-24) = 1 - 2^-24), which rounds up
// to 1 in half: the result must stay below 1.
OVLD half fract(half x, __private half *iptr) {
  float i;
  half f = (half)fract((float)x, &i);
  *iptr = (half)i;
  return f == (half)1 ? (half)0x1.ffcp-1f : f;
}
OVLD half modf(half x, __private half *iptr) {
  float i;
  half f = (half)modf((float)x, &i);
  *iptr = (half)i;
  return f;
}
OVLD half sincos(half x, __private half *cosval) {
  float c;
  half s = (half)sincos((float)x, &c);
  *cosval = (half)c;
  return s;
}
OVLD half frexp(half x, __private int *e) { return (half)frexp((float)x, e); }
OVLD half lgamma_r(half x, __private int *signp) { return (half)lgamma_r((float)x, signp); }
OVLD half remquo(half x, half y, __private int *quo) {
  return (half)remquo((float)x, (float)y, quo);
}
