// Integer builtins (6.15.3) for scalar types; vector forms are generated
// (gen/vector_wrappers.py), most of them as direct vector code.
#include "builtin_support.h"

// LLVM 15's NVPTX back end lowers a 64-bit funnel shift without reducing its amount modulo
// 64; an amount the optimiser cannot see through keeps the explicit mask.
#ifdef __NVPTX__
static ulong opaque_rotate_amount(ulong n) {
  ulong r;
  __asm__("and.b64 %0, %1, 63;" : "=l"(r) : "l"(n));
  return r;
}
#define ROTATE_AMOUNT(n) (sizeof(n) == 8 ? (__typeof__(n))opaque_rotate_amount((ulong)(n)) : (n))
#else
#define ROTATE_AMOUNT(n) (n)
#endif

// Functions whose definition is the same for every integer type.
#define DEFINE_INTEGER_COMMON(T, U, BITS)                                          \
  OVLD U abs(T x) { return x < 0 ? (U)0 - (U)x : (U)x; }                           \
  OVLD U abs_diff(T x, T y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }           \
  OVLD T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }               \
  OVLD T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }            \
  OVLD T max(T x, T y) { return x > y ? x : y; }                                   \
  OVLD T min(T x, T y) { return x < y ? x : y; }                                   \
  OVLD T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                    \
  OVLD T rotate(T v, T i) {                                                        \
    U n = ROTATE_AMOUNT((U)i & (BITS - 1));                                        \
    return (T)(((U)v << n) | ((U)v >> ((BITS - n) & (BITS - 1))));                 \
  }

// Types narrower than 64 bits compute in a wider type; 32 is the width of clz's argument.
#define DEFINE_INTEGER_NARROW(T, U, BITS, W, TMIN, TMAX)                           \
  DEFINE_INTEGER_COMMON(T, U, BITS)                                                \
  static T saturate_##T(W r) { return (T)(r < (W)TMIN ? (W)TMIN : r > (W)TMAX ? (W)TMAX : r); } \
  static T saturate_long_##T(long r) { return (T)(r < (long)TMIN ? (long)TMIN : r > (long)TMAX ? (long)TMAX : r); } \
  OVLD T mul_hi(T a, T b) { return (T)(((W)a * (W)b) >> BITS); }                   \
  OVLD T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                        \
  /* clang 15 promotes scalar char/short arguments of __builtin_elementwise_add_sat */ \
  /* to int (so nothing saturates): these compute exactly in long and clamp. */       \
  OVLD T add_sat(T x, T y) { return saturate_long_##T((long)x + (long)y); }          \
  OVLD T sub_sat(T x, T y) { return saturate_long_##T((long)x - (long)y); }          \
  OVLD T mad_sat(T a, T b, T c) {                                                  \
    return saturate_##T((W)a * (W)b + (W)c);                                       \
  }                                                                                \
  OVLD T clz(T x) { return x == 0 ? BITS : (T)(__builtin_clz((uint)(U)x) - (32 - BITS)); } \
  OVLD T ctz(T x) { return x == 0 ? BITS : (T)__builtin_ctz((uint)(U)x); }         \
  OVLD T popcount(T x) { return (T)__builtin_popcount((uint)(U)x); }

DEFINE_INTEGER_NARROW(char, uchar, 8, int, CHAR_MIN, CHAR_MAX)
DEFINE_INTEGER_NARROW(uchar, uchar, 8, uint, 0, UCHAR_MAX)
DEFINE_INTEGER_NARROW(short, ushort, 16, int, SHRT_MIN, SHRT_MAX)
DEFINE_INTEGER_NARROW(ushort, ushort, 16, uint, 0, USHRT_MAX)
DEFINE_INTEGER_NARROW(int, uint, 32, long, INT_MIN, INT_MAX)
DEFINE_INTEGER_NARROW(uint, uint, 32, ulong, 0, UINT_MAX)

// 64-bit: the 128-bit product is built from 32-bit halves.
static ulong umul_hi64(ulong a, ulong b) {
  ulong alo = a & 0xffffffffu, ahi = a >> 32, blo = b & 0xffffffffu, bhi = b >> 32;
  ulong lolo = alo * blo, lohi = alo * bhi, hilo = ahi * blo, hihi = ahi * bhi;
  ulong mid = (lolo >> 32) + (lohi & 0xffffffffu) + (hilo & 0xffffffffu);
  return hihi + (lohi >> 32) + (hilo >> 32) + (mid >> 32);
}

#define DEFINE_INTEGER_64(T)                                                       \
  DEFINE_INTEGER_COMMON(T, ulong, 64)                                              \
  OVLD T add_sat(T x, T y) { return __builtin_elementwise_add_sat(x, y); }          \
  OVLD T sub_sat(T x, T y) { return __builtin_elementwise_sub_sat(x, y); }          \
  OVLD T clz(T x) { return x == 0 ? 64 : (T)__builtin_clzl((ulong)x); }            \
  OVLD T ctz(T x) { return x == 0 ? 64 : (T)__builtin_ctzl((ulong)x); }            \
  OVLD T popcount(T x) { return (T)__builtin_popcountl((ulong)x); }

DEFINE_INTEGER_64(long)
DEFINE_INTEGER_64(ulong)

OVLD ulong mul_hi(ulong a, ulong b) { return umul_hi64(a, b); }
OVLD long mul_hi(long a, long b) {
  ulong hi = umul_hi64((ulong)a, (ulong)b);
  // Signed correction of the unsigned high half.
  if (a < 0) hi -= (ulong)b;
  if (b < 0) hi -= (ulong)a;
  return (long)hi;
}
OVLD ulong mad_hi(ulong a, ulong b, ulong c) { return mul_hi(a, b) + c; }
OVLD long mad_hi(long a, long b, long c) { return mul_hi(a, b) + c; }
OVLD ulong mad_sat(ulong a, ulong b, ulong c) {
  if (umul_hi64(a, b) != 0) return ULONG_MAX;
  return add_sat(a * b, c);
}
OVLD long mad_sat(long a, long b, long c) {
  // Exact 128-bit a*b + c, then saturate to 64 bits.
  ulong lo = (ulong)a * (ulong)b;
  long hi = mul_hi(a, b);
  ulong sum = lo + (ulong)c;
  hi += (c < 0 ? -1 : 0) + (sum < lo ? 1 : 0);
  if (hi == ((long)sum >> 63)) return (long)sum;
  return hi < 0 ? LONG_MIN : LONG_MAX;
}

// cl_khr_extended_bit_ops. An offset + count beyond the width gives an undefined result;
// every shift amount is kept below the width, so such a call is just a wrong value.
#define DEFINE_EXTENDED_BIT_OPS(T, S, U, BITS, REVERSE)                            \
  static U low_bits_##T(uint count) { return count >= BITS ? (U) ~(U)0 : (U)(((U)1 << count) - 1); } \
  OVLD T bitfield_insert(T base, T insert, uint offset, uint count) {              \
    if (count == 0) return base;                                                   \
    const uint at = offset & (BITS - 1);                                           \
    const U mask = (U)(low_bits_##T(count) << at);                                 \
    return (T)(((U)base & (U)~mask) | ((U)((U)insert << at) & mask));              \
  }                                                                                \
  OVLD S bitfield_extract_signed(T base, uint offset, uint count) {                \
    if (count == 0) return 0;                                                      \
    const S moved = (S)(U)((U)base << ((BITS - offset - count) & (BITS - 1)));     \
    return (S)(moved >> ((BITS - count) & (BITS - 1)));                            \
  }                                                                                \
  OVLD U bitfield_extract_unsigned(T base, uint offset, uint count) {              \
    if (count == 0) return 0;                                                      \
    return (U)(((U)base >> (offset & (BITS - 1))) & low_bits_##T(count));         \
  }                                                                                \
  OVLD T bit_reverse(T x) { return (T)REVERSE((U)x); }

DEFINE_EXTENDED_BIT_OPS(char, char, uchar, 8, __builtin_bitreverse8)
DEFINE_EXTENDED_BIT_OPS(uchar, char, uchar, 8, __builtin_bitreverse8)
DEFINE_EXTENDED_BIT_OPS(short, short, ushort, 16, __builtin_bitreverse16)
DEFINE_EXTENDED_BIT_OPS(ushort, short, ushort, 16, __builtin_bitreverse16)
DEFINE_EXTENDED_BIT_OPS(int, int, uint, 32, __builtin_bitreverse32)
DEFINE_EXTENDED_BIT_OPS(uint, int, uint, 32, __builtin_bitreverse32)
DEFINE_EXTENDED_BIT_OPS(long, long, ulong, 64, __builtin_bitreverse64)
DEFINE_EXTENDED_BIT_OPS(ulong, long, ulong, 64, __builtin_bitreverse64)

OVLD short upsample(char hi, uchar lo) { return (short)(((ushort)(uchar)hi << 8) | lo); }
OVLD ushort upsample(uchar hi, uchar lo) { return (ushort)(((ushort)hi << 8) | lo); }
OVLD int upsample(short hi, ushort lo) { return (int)(((uint)(ushort)hi << 16) | lo); }
OVLD uint upsample(ushort hi, ushort lo) { return ((uint)hi << 16) | lo; }
OVLD long upsample(int hi, uint lo) { return (long)(((ulong)(uint)hi << 32) | lo); }
OVLD ulong upsample(uint hi, uint lo) { return ((ulong)hi << 32) | lo; }

OVLD int mul24(int x, int y) { return x * y; }
OVLD uint mul24(uint x, uint y) { return x * y; }
OVLD int mad24(int x, int y, int z) { return x * y + z; }
OVLD uint mad24(uint x, uint y, uint z) { return x * y + z; }
