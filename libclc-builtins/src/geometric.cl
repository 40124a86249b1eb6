// Geometric builtins (6.15.5) for float, double and half scalars and 2, 3 and 4 components.
// float lengths are computed in double (no overflow, one rounding); double lengths scale
// the vector by a power of two first so the sum of squares cannot overflow or underflow;
// half ones are the float ones, rounded to half once.
#include "builtin_support.h"

#define SUM_2(v) ((v).x + (v).y)
#define SUM_3(v) ((v).x + (v).y + (v).z)
#define SUM_4(v) (((v).x + (v).y) + ((v).z + (v).w))
#define DEFINE_DOT(T, N, V)                                                         \
  OVLD T dot(V a, V b) { V p = a * b; return SUM_##N(p); }
#define DEFINE_DOT_SCALAR(T) OVLD T dot(T a, T b) { return a * b; }

DEFINE_DOT_SCALAR(float) DEFINE_DOT_SCALAR(double)
DEFINE_DOT(float, 2, float2) DEFINE_DOT(float, 3, float3) DEFINE_DOT(float, 4, float4)
DEFINE_DOT(double, 2, double2) DEFINE_DOT(double, 3, double3) DEFINE_DOT(double, 4, double4)

OVLD float4 cross(float4 a, float4 b) {
  return (float4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.0f);
}
OVLD float3 cross(float3 a, float3 b) {
  return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVLD double4 cross(double4 a, double4 b) {
  return (double4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.0);
}
OVLD double3 cross(double3 a, double3 b) {
  return (double3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static double float_sum_of_squares(double4 p) { double4 q = p * p; return SUM_4(q); }

// Largest |component| as a power-of-two exponent, for scaling doubles.
static int double_scale(double4 p, double *largest) {
  double m = __builtin_reduce_max(__builtin_elementwise_abs(p));
  *largest = m;
  return (m == 0 || isinf(m) || isnan(m)) ? 0 : ilogb(m);
}

// Every width funnels through the 4-component version with zero padding, which changes
// neither lengths nor dot products.
#define FLOAT_AS_D4(p, N) __builtin_convertvector(PAD_##N(p), double4)
#define PAD_1(p) (float4)(p, 0.0f, 0.0f, 0.0f)
#define PAD_2(p) (float4)(p, 0.0f, 0.0f)
#define PAD_3(p) (float4)(p, 0.0f)
#define PAD_4(p) (p)
#define DPAD_1(p) (double4)(p, 0.0, 0.0, 0.0)
#define DPAD_2(p) (double4)(p, 0.0, 0.0)
#define DPAD_3(p) (double4)(p, 0.0)
#define DPAD_4(p) (p)

static float float_length4(double4 p) {
  double m = __builtin_reduce_max(__builtin_elementwise_abs(p));
  if (isinf(m)) return INFINITY;
  return (float)__builtin_sqrt(float_sum_of_squares(p));
}

static double double_length4(double4 p) {
  double m;
  int e = double_scale(p, &m);
  if (isinf(m)) return m;
  /* The largest magnitude ignores NaN components, which make the length NaN. */
  if (any(isnan(p))) return NAN;
  if (m == 0 || isnan(m)) return m;
  double4 s = ldexp(p, -e);  /* 2^-e alone overflows when the largest component is subnormal */
  double4 q = s * s;
  return ldexp(__builtin_sqrt(SUM_4(q)), e);
}

// normalize: all-zero vectors are returned unchanged; with infinite components, those
// become +-1 and the finite ones 0 before normalizing.
static double4 normalize_direction(double4 p, double *largest) {
  double m = __builtin_reduce_max(__builtin_elementwise_abs(p));
  *largest = m;
  if (isinf(m)) {
    long4 inf = isinf(p);
    p = select(0.0 * p, copysign((double4)1.0, p), inf);
  }
  return p;
}

#ifdef __NVPTX__
// On the GPU, a float sum of squares in the range where it loses nothing (no square
// overflowed, none that matters underflowed) gives length and normalize through the
// hardware's square roots, within OpenCL's limits (length 3 + n/4 + (n-1)/4 ulp, normalize
// 2 + n): the double route below ran 3.7x (length) and 1.7x (normalize) slower than
// NVIDIA's OpenCL on an H100, and far more on GPUs with slow fp64. Other sums take it.
static bool float_squares_exact_enough(float d) { return d >= 0x1p-60f && d <= 0x1p+127f; }
#define FLOAT_LENGTH(p, N)                                                          \
  float d = dot(p, p);                                                              \
  if (float_squares_exact_enough(d)) return __nvvm_sqrt_approx_f(d);                \
  return float_length4(FLOAT_AS_D4(p, N))
#define FLOAT_NORMALIZE_FAST(p)                                                     \
  float d = dot(p, p);                                                              \
  if (float_squares_exact_enough(d)) return p * __nvvm_rsqrt_approx_f(d)
#else
#define FLOAT_LENGTH(p, N) return float_length4(FLOAT_AS_D4(p, N))
#define FLOAT_NORMALIZE_FAST(p)
#endif

#define DEFINE_GEOMETRIC_FLOAT(N, V)                                                \
  OVLD float length(V p) { FLOAT_LENGTH(p, N); }                                    \
  OVLD float distance(V a, V b) { return length(a - b); }                           \
  OVLD float fast_length(V p) { return half_sqrt(dot(p, p)); }                      \
  OVLD float fast_distance(V a, V b) { return fast_length(a - b); }                 \
  OVLD V fast_normalize(V p) {                                                      \
    float d = dot(p, p);                                                            \
    return d == 0.0f ? p : p * half_rsqrt(d);                                       \
  }                                                                                 \
  OVLD V normalize(V p) {                                                           \
    FLOAT_NORMALIZE_FAST(p);                                                        \
    double m;                                                                       \
    double4 dir = normalize_direction(FLOAT_AS_D4(p, N), &m);                       \
    if (m == 0) return p;                                                           \
    double4 r = dir / __builtin_sqrt(float_sum_of_squares(dir));                    \
    return TAKE_##N(__builtin_convertvector(r, float4));                            \
  }

#define DEFINE_GEOMETRIC_DOUBLE(N, V)                                               \
  OVLD double length(V p) { return double_length4(DPAD_##N(p)); }                   \
  OVLD double distance(V a, V b) { return length(a - b); }                          \
  OVLD V normalize(V p) {                                                           \
    double m;                                                                       \
    double4 d = normalize_direction(DPAD_##N(p), &m);                               \
    if (m == 0) return p;                                                           \
    double4 s = ldexp(d, -ilogb(__builtin_reduce_max(__builtin_elementwise_abs(d))));       \
    double4 q = s * s;                                                              \
    double4 r = s / __builtin_sqrt(SUM_4(q));                                       \
    return TAKE_##N(r);                                                             \
  }

#define TAKE_1(v) (v).x
#define TAKE_2(v) (v).xy
#define TAKE_3(v) (v).xyz
#define TAKE_4(v) (v)

DEFINE_GEOMETRIC_FLOAT(1, float)
DEFINE_GEOMETRIC_FLOAT(2, float2)
DEFINE_GEOMETRIC_FLOAT(3, float3)
DEFINE_GEOMETRIC_FLOAT(4, float4)
DEFINE_GEOMETRIC_DOUBLE(1, double)
DEFINE_GEOMETRIC_DOUBLE(2, double2)
DEFINE_GEOMETRIC_DOUBLE(3, double3)
DEFINE_GEOMETRIC_DOUBLE(4, double4)

// half in float: products and squares of halves are exact there, and sums of four of them
// neither overflow nor underflow.
#define FLOAT_OF_1(p) ((float)(p))
#define FLOAT_OF_2(p) __builtin_convertvector(p, float2)
#define FLOAT_OF_3(p) __builtin_convertvector(p, float3)
#define FLOAT_OF_4(p) __builtin_convertvector(p, float4)
#define HALF_OF_1(p) ((half)(p))
#define HALF_OF_2(p) __builtin_convertvector(p, half2)
#define HALF_OF_3(p) __builtin_convertvector(p, half3)
#define HALF_OF_4(p) __builtin_convertvector(p, half4)
#define DEFINE_GEOMETRIC_HALF(N, V)                                                   \
  OVLD half dot(V a, V b) { return (half)dot(FLOAT_OF_##N(a), FLOAT_OF_##N(b)); }     \
  OVLD half length(V p) { return (half)length(FLOAT_OF_##N(p)); }                    \
  OVLD half distance(V a, V b) { return (half)length(FLOAT_OF_##N(a) - FLOAT_OF_##N(b)); } \
  OVLD V normalize(V p) { return HALF_OF_##N(normalize(FLOAT_OF_##N(p))); }

DEFINE_GEOMETRIC_HALF(1, half)
DEFINE_GEOMETRIC_HALF(2, half2)
DEFINE_GEOMETRIC_HALF(3, half3)
DEFINE_GEOMETRIC_HALF(4, half4)
OVLD half3 cross(half3 a, half3 b) { return HALF_OF_3(cross(FLOAT_OF_3(a), FLOAT_OF_3(b))); }
OVLD half4 cross(half4 a, half4 b) { return HALF_OF_4(cross(FLOAT_OF_4(a), FLOAT_OF_4(b))); }
