// Conversions between half-precision bit patterns and float/double, used by the
// vload_half/vstore_half builtins (half is a storage-only type on the host device).
#pragma once

#define HALF_RTE 0
#define HALF_RTZ 1
#define HALF_RTP 2
#define HALF_RTN 3

static float half_bits_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000u) << 16;
  uint exponent = (h >> 10) & 0x1fu;
  uint mantissa = h & 0x3ffu;
  if (exponent == 0)  // zero or subnormal: mantissa * 2^-24 is exact in float
    return as_float(sign | as_uint((float)mantissa * 0x1p-24f));
  if (exponent == 31) return as_float(sign | 0x7f800000u | (mantissa << 13));
  return as_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// Rounds x (a float argument converts exactly) to a half bit pattern in the direction mode
// asks for. Defined once in src/half_convert.cl so the many vstore_half variants stay small.
ushort __cucl_double_to_half_bits(double x, int mode);
