// Shared by every builtin source: the attribute that makes a definition an overload of a
// builtin, and the SLEEF scalar functions the math builtins call (resolved by the JIT from
// libsleef at run time).
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVLD __attribute__((overloadable))

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
