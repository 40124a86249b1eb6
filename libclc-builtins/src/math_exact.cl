// Exactly rounded math builtins (6.15.2) for scalar float and double; see
// include/math_exact_template.h. nan() and rsqrt() differ per type and live here.
#include "builtin_support.h"

#define T float
#define BITS uint
#define SBITS int
#define AS_BITS as_uint
#define AS_T as_float
#define MANT 23
#define BIAS 127
#define BUILTIN(name) __builtin_##name##f
#include "math_exact_template.h"
#undef T
#undef BITS
#undef SBITS
#undef AS_BITS
#undef AS_T
#undef MANT
#undef BIAS
#undef BUILTIN

#define T double
#define BITS ulong
#define SBITS long
#define AS_BITS as_ulong
#define AS_T as_double
#define MANT 52
#define BIAS 1023
#define BUILTIN(name) __builtin_##name
#include "math_exact_template.h"

OVLD float nan(uint nancode) { return as_float(0x7fc00000u | (nancode & 0x003fffffu)); }
OVLD double nan(ulong nancode) {
  return as_double(0x7ff8000000000000ul | (nancode & 0x0007fffffffffffful));
}

#ifdef __NVPTX__
// The GPU's rsqrt.approx.f32 is within OpenCL's 2 ulp (subnormal inputs included); the
// double-precision route below took two long fp64 sequences (2.3x slower in a mix of
// exp, divide, sqrt and rsqrt on an H100 than NVIDIA's OpenCL).
OVLD float rsqrt(float x) { return __nvvm_rsqrt_approx_f(x); }
#else
// Computed in double, the float result is correctly rounded in all but rare cases.
OVLD float rsqrt(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
#endif
OVLD double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
