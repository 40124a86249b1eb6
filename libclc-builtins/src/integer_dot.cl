// cl_khr_integer_dot_product: dot products of four 8-bit integers, as vectors (uchar4,
// char4) and packed into a uint (byte 0 the first component), without and with a saturating
// accumulator, and the names the SPIR-V translator calls for OpSDot, OpUDot, OpSUDot and their
// AccSat forms. A dot product of four 8-bit values always fits in 32 bits, so only the
// accumulation can saturate.
//
// GPU: dp4a (sm_61 and newer) computes a product of four bytes of each operand, each
// signed or unsigned, and adds a 32-bit value; add.sat.s32 saturates the signed accumulation.
// Host: plain integer arithmetic.
#include "builtin_support.h"

#ifdef __NVPTX__
#define DP4A(name, A, B, R)                                                            \
  static R name(uint a, uint b) {                                                      \
    R r;                                                                               \
    __asm__("dp4a." A "." B " %0, %1, %2, 0;" : "=r"(r) : "r"(a), "r"(b));             \
    return r;                                                                          \
  }
DP4A(dot_uu, "u32", "u32", uint)
DP4A(dot_ss, "s32", "s32", int)
DP4A(dot_us, "u32", "s32", int)
DP4A(dot_su, "s32", "u32", int)
#else
#define BYTE_DOT(name, TA, TB, R)                                                      \
  static R name(uint a, uint b) {                                                      \
    R sum = 0;                                                                         \
    for (int i = 0; i < 4; ++i) sum += (R)(TA)(a >> (8 * i)) * (R)(TB)(b >> (8 * i));  \
    return sum;                                                                        \
  }
BYTE_DOT(dot_uu, uchar, uchar, uint)
BYTE_DOT(dot_ss, char, char, int)
BYTE_DOT(dot_us, uchar, char, int)
BYTE_DOT(dot_su, char, uchar, int)
#endif

// The packed and vector forms of one signedness pair.
#define DEFINE_DOT(pair, TA, TB, R)                                                              \
  OVLD R dot(TA##4 a, TB##4 b) { return dot_##pair(as_uint(a), as_uint(b)); }                           \
  OVLD R dot_acc_sat(TA##4 a, TB##4 b, R acc) { return add_sat(acc, dot_##pair(as_uint(a), as_uint(b))); } \
  OVLD R dot_4x8packed_##pair##_##R(uint a, uint b) { return dot_##pair(a, b); }                        \
  OVLD R dot_acc_sat_4x8packed_##pair##_##R(uint a, uint b, R acc) { return add_sat(acc, dot_##pair(a, b)); }

DEFINE_DOT(uu, uchar, uchar, uint)
DEFINE_DOT(ss, char, char, int)
DEFINE_DOT(us, uchar, char, int)
DEFINE_DOT(su, char, uchar, int)

// The SPIR-V translator (LLVM 15) leaves OpUDot, OpSDot and OpSUDot on vectors as calls of
// these names, with every vector typed char4 and every accumulator int whatever their
// signedness; OpSUDot takes the signed operand first.
OVLD uint __spirv_UDotKHR_Ruint(char4 a, char4 b) { return dot_uu(as_uint(a), as_uint(b)); }
OVLD int __spirv_SDotKHR_Rint(char4 a, char4 b) { return dot_ss(as_uint(a), as_uint(b)); }
OVLD int __spirv_SUDotKHR_Rint(char4 a, char4 b) { return dot_su(as_uint(a), as_uint(b)); }
OVLD uint __spirv_UDotAccSatKHR_Ruint(char4 a, char4 b, int acc) {
  return add_sat((uint)acc, dot_uu(as_uint(a), as_uint(b)));
}
OVLD int __spirv_SDotAccSatKHR_Rint(char4 a, char4 b, int acc) { return add_sat(acc, dot_ss(as_uint(a), as_uint(b))); }
OVLD int __spirv_SUDotAccSatKHR_Rint(char4 a, char4 b, int acc) { return add_sat(acc, dot_su(as_uint(a), as_uint(b))); }
