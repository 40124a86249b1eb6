// Common builtins (6.15.4) for scalar float and double; vector forms are generated.
#include "builtin_support.h"

#define DEFINE_COMMON(T)                                                        \
  OVLD T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }               \
  OVLD T max(T x, T y) { return fmax(x, y); }                                   \
  OVLD T min(T x, T y) { return fmin(x, y); }                                   \
  OVLD T mix(T x, T y, T a) { return x + (y - x) * a; }                         \
  OVLD T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                   \
  OVLD T smoothstep(T edge0, T edge1, T x) {                                    \
    T t = clamp((x - edge0) / (edge1 - edge0), (T)0, (T)1);                     \
    return t * t * ((T)3 - (T)2 * t);                                           \
  }                                                                             \
  OVLD T sign(T x) {                                                            \
    if (isnan(x)) return (T)0;                                                  \
    return x > 0 ? (T)1 : x < 0 ? (T)-1 : x;                                    \
  }

DEFINE_COMMON(float)
DEFINE_COMMON(double)

OVLD float degrees(float r) { return r * 57.295779513082320876798154814105f; }
OVLD double degrees(double r) { return r * 57.295779513082320876798154814105; }
OVLD float radians(float d) { return d * 0.017453292519943295769236907684886f; }
OVLD double radians(double d) { return d * 0.017453292519943295769236907684886; }
