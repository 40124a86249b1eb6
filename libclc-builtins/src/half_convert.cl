// Rounding of float and double values to half precision for vstore_half* (6.15.7).
#include "builtin_support.h"
#include "half_support.h"

// Rounds a non-negative integral-valued magnitude candidate m (exact in double) by mode,
// where negative says which way rtp/rtn point for the magnitude.
static double round_magnitude(double m, int mode, bool negative) {
  switch (mode) {
    case HALF_RTZ: return __builtin_trunc(m);
    case HALF_RTP: return negative ? __builtin_trunc(m) : __builtin_ceil(m);
    case HALF_RTN: return negative ? __builtin_ceil(m) : __builtin_trunc(m);
    default: return __builtin_rint(m);
  }
}

// Rounds x once, directly from double (a float argument converts exactly), to the nearest
// half in the direction mode asks for. Overflow gives infinity or the largest half as the
// mode requires.
ushort __cucl_double_to_half_bits(double x, int mode) {
  bool negative = __builtin_signbit(x) != 0;
  ushort sign = negative ? 0x8000 : 0;
  double a = __builtin_fabs(x);
  if (a != a) return sign | 0x7e00;
  bool overflow_to_inf = mode == HALF_RTE || (mode == HALF_RTP && !negative) ||
                         (mode == HALF_RTN && negative);
  if (a == __builtin_inf()) return sign | 0x7c00;
  if (a < 0x1p-14) {  // subnormal range: units of 2^-24
    double m = round_magnitude(a * 0x1p24, mode, negative);
    return sign | (ushort)m;  // m == 1024 becomes the smallest normal, as it should
  }
  if (a >= 0x1p16) return sign | (overflow_to_inf ? 0x7c00 : 0x7bff);
  int e = (int)((as_ulong(a) >> 52) & 0x7ff) - 1023;  // a is normal here
  double scale = as_double((ulong)(10 - e + 1023) << 52);  // 2^(10 - e), exact scaling
  double m = round_magnitude(a * scale, mode, negative);   // in [1024, 2048]
  if (m == 2048) { m = 1024; e += 1; }
  if (e > 15) return sign | (overflow_to_inf ? 0x7c00 : 0x7bff);
  return sign | (ushort)((e + 15) << 10) | (ushort)(m - 1024);
}
