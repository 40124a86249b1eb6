// Common builtins (6.15.4) for scalar float, double and half; vector forms are generated.
#include "builtin_support.h"

// The ones whose result is one of the arguments or a constant.
#define DEFINE_COMMON_EXACT(T)                                                  \
  OVLD T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }               \
  OVLD T max(T x, T y) { return fmax(x, y); }                                   \
  OVLD T min(T x, T y) { return fmin(x, y); }                                   \
  OVLD T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                   \
  OVLD T sign(T x) {                                                            \
    if (isnan(x)) return (T)0;                                                  \
    return x > 0 ? (T)1 : x < 0 ? (T)-1 : x;                                    \
  }
#define DEFINE_COMMON(T)                                                        \
  DEFINE_COMMON_EXACT(T)                                                        \
  OVLD T mix(T x, T y, T a) { return x + (y - x) * a; }                         \
  OVLD T smoothstep(T edge0, T edge1, T x) {                                    \
    T t = clamp((x - edge0) / (edge1 - edge0), (T)0, (T)1);                     \
    return t * t * ((T)3 - (T)2 * t);                                           \
  }

DEFINE_COMMON(float)
DEFINE_COMMON(double)
DEFINE_COMMON_EXACT(half)

OVLD float degrees(float r) { return r * 57.295779513082320876798154814105f; }
OVLD double degrees(double r) { return r * 57.295779513082320876798154814105; }
OVLD float radians(float d) { return d * 0.017453292519943295769236907684886f; }
OVLD double radians(double d) { return d * 0.017453292519943295769236907684886; }

// half: the others in float, rounded once (in half, x - edge0 of two large halves would
// overflow, and each operation would round).
OVLD half mix(half x, half y, half a) { return (half)mix((float)x, (float)y, (float)a); }
OVLD half smoothstep(half edge0, half edge1, half x) {
  return (half)smoothstep((float)edge0, (float)edge1, (float)x);
}
OVLD half degrees(half r) { return (half)degrees((float)r); }
OVLD half radians(half d) { return (half)radians((float)d); }
