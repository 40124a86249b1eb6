// Shared by every builtin source: the attribute that makes a definition an overload of a
// builtin, and the scalar math functions the math builtins call under SLEEF's names. On the
// host they are SLEEF's (resolved by the JIT from libsleef at run time); on nvptx64 each
// SLEEF name is a wrapper of CUDA's libdevice function (__nv_*), which the build links in.
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define OVLD __attribute__((overloadable))

// The __local memory of the work-group collective functions: each code generator replaces
// the calls with one __local array of the size its library needs
// (backends/codegen/work_group_scratch.h).
__local ulong* cucl_work_group_scratch(void);

#ifdef __NVPTX__

// ROUNDEVEN: LLVM 15's NVPTX back end has no llvm.roundeven (it would become a call to
// roundevenf, which nothing defines). llvm.rint becomes PTX's cvt.rni, which rounds to the
// nearest integer, ties to even: the same function.
OVLD static inline float nvptx_roundeven(float x) { return __builtin_rintf(x); }
OVLD static inline double nvptx_roundeven(double x) { return __builtin_rint(x); }
#define NVPTX_ROUNDEVEN_VECTORS(T)                                                          \
  OVLD static inline T##2 nvptx_roundeven(T##2 x) {                                          \
    return (T##2)(nvptx_roundeven(x.x), nvptx_roundeven(x.y));                              \
  }                                                                                         \
  OVLD static inline T##3 nvptx_roundeven(T##3 x) {                                          \
    return (T##3)(nvptx_roundeven(x.xy), nvptx_roundeven(x.z));                             \
  }                                                                                         \
  OVLD static inline T##4 nvptx_roundeven(T##4 x) {                                          \
    return (T##4)(nvptx_roundeven(x.lo), nvptx_roundeven(x.hi));                            \
  }                                                                                         \
  OVLD static inline T##8 nvptx_roundeven(T##8 x) {                                          \
    return (T##8)(nvptx_roundeven(x.lo), nvptx_roundeven(x.hi));                            \
  }                                                                                         \
  OVLD static inline T##16 nvptx_roundeven(T##16 x) {                                        \
    return (T##16)(nvptx_roundeven(x.lo), nvptx_roundeven(x.hi));                           \
  }
NVPTX_ROUNDEVEN_VECTORS(float)
NVPTX_ROUNDEVEN_VECTORS(double)
#undef NVPTX_ROUNDEVEN_VECTORS
#define ROUNDEVEN(x) nvptx_roundeven(x)

#define LIBDEVICE_UNARY(sleef_f, sleef_d, fn)                                   \
  float __nv_##fn##f(float);                                                    \
  double __nv_##fn(double);                                                     \
  static inline float sleef_f(float x) { return __nv_##fn##f(x); }              \
  static inline double sleef_d(double x) { return __nv_##fn(x); }
#define LIBDEVICE_BINARY(sleef_f, sleef_d, fn)                                  \
  float __nv_##fn##f(float, float);                                             \
  double __nv_##fn(double, double);                                             \
  static inline float sleef_f(float x, float y) { return __nv_##fn##f(x, y); }  \
  static inline double sleef_d(double x, double y) { return __nv_##fn(x, y); }
#define LIBDEVICE_U10(fn) LIBDEVICE_UNARY(Sleef_##fn##f_u10, Sleef_##fn##_u10, fn)
LIBDEVICE_U10(sin) LIBDEVICE_U10(cos) LIBDEVICE_U10(tan)
LIBDEVICE_U10(asin) LIBDEVICE_U10(acos) LIBDEVICE_U10(atan)
LIBDEVICE_U10(sinh) LIBDEVICE_U10(cosh) LIBDEVICE_U10(tanh)
LIBDEVICE_U10(asinh) LIBDEVICE_U10(acosh) LIBDEVICE_U10(atanh)
LIBDEVICE_U10(exp) LIBDEVICE_U10(exp2) LIBDEVICE_U10(exp10) LIBDEVICE_U10(expm1)
LIBDEVICE_U10(log) LIBDEVICE_U10(log2) LIBDEVICE_U10(log10) LIBDEVICE_U10(log1p)
LIBDEVICE_U10(cbrt) LIBDEVICE_U10(erf) LIBDEVICE_U10(tgamma) LIBDEVICE_U10(lgamma)
LIBDEVICE_UNARY(Sleef_erfcf_u15, Sleef_erfc_u15, erfc)
LIBDEVICE_UNARY(Sleef_sinpif_u05, Sleef_sinpi_u05, sinpi)
LIBDEVICE_UNARY(Sleef_cospif_u05, Sleef_cospi_u05, cospi)
LIBDEVICE_BINARY(Sleef_atan2f_u10, Sleef_atan2_u10, atan2)
LIBDEVICE_BINARY(Sleef_powf_u10, Sleef_pow_u10, pow)
LIBDEVICE_BINARY(Sleef_hypotf_u05, Sleef_hypot_u05_libdevice, hypot)
LIBDEVICE_BINARY(Sleef_fmodf, Sleef_fmod, fmod)
LIBDEVICE_BINARY(Sleef_remainderf, Sleef_remainder, remainder)
#undef LIBDEVICE_U10
#undef LIBDEVICE_BINARY
#undef LIBDEVICE_UNARY

// libdevice's double hypot takes an approximate square root, and a result within an ulp of
// the largest double can round up to infinity (CTS math_brute_force: hypot(-0x1.0000000000001p+64,
// -0x1.fffffffffffffp+1023) gave inf). Where it overflows on finite arguments, the result is
// recomputed as max * sqrt(1 + (min / max)^2), which overflows only when hypot does.
static inline double Sleef_hypot_u05(double x, double y) {
  const double r = Sleef_hypot_u05_libdevice(x, y);
  if (!__builtin_isinf(r) || !__builtin_isfinite(x) || !__builtin_isfinite(y)) return r;
  const double a = __builtin_fmax(__builtin_fabs(x), __builtin_fabs(y));
  const double t = __builtin_fmin(__builtin_fabs(x), __builtin_fabs(y)) / a;
  return a * __builtin_sqrt(__builtin_fma(t, t, 1.0));
}

#else

#define ROUNDEVEN(x) __builtin_elementwise_roundeven(x)

#define SLEEF_UNARY_DECL(fn) float Sleef_##fn##f_u10(float); double Sleef_##fn##_u10(double);
SLEEF_UNARY_DECL(sin) SLEEF_UNARY_DECL(cos) SLEEF_UNARY_DECL(tan)
SLEEF_UNARY_DECL(asin) SLEEF_UNARY_DECL(acos) SLEEF_UNARY_DECL(atan)
SLEEF_UNARY_DECL(sinh) SLEEF_UNARY_DECL(cosh) SLEEF_UNARY_DECL(tanh)
SLEEF_UNARY_DECL(asinh) SLEEF_UNARY_DECL(acosh) SLEEF_UNARY_DECL(atanh)
SLEEF_UNARY_DECL(exp) SLEEF_UNARY_DECL(exp2) SLEEF_UNARY_DECL(exp10) SLEEF_UNARY_DECL(expm1)
SLEEF_UNARY_DECL(log) SLEEF_UNARY_DECL(log2) SLEEF_UNARY_DECL(log10) SLEEF_UNARY_DECL(log1p)
SLEEF_UNARY_DECL(cbrt) SLEEF_UNARY_DECL(erf) SLEEF_UNARY_DECL(tgamma) SLEEF_UNARY_DECL(lgamma)
#undef SLEEF_UNARY_DECL
float Sleef_erfcf_u15(float);
double Sleef_erfc_u15(double);
float Sleef_sinpif_u05(float);
double Sleef_sinpi_u05(double);
float Sleef_cospif_u05(float);
double Sleef_cospi_u05(double);
float Sleef_atan2f_u10(float, float);
double Sleef_atan2_u10(double, double);
float Sleef_powf_u10(float, float);
double Sleef_pow_u10(double, double);
float Sleef_hypotf_u05(float, float);
double Sleef_hypot_u05(double, double);
float Sleef_fmodf(float, float);
double Sleef_fmod(double, double);
float Sleef_remainderf(float, float);
double Sleef_remainder(double, double);

#endif
