// The half-precision (cl_khr_fp16) math builtin harness: as builtin_reference_math.h does
// for float and double, a table of cases (builtin name, argument shape, ULP limit, long
// double reference), kernels for scalar and vector widths and, for functions with an output
// pointer, several address spaces, and checks against the reference. Halves travel as their
// bit patterns (uint16_t): GCC 12's _Float16 has no std::numeric_limits or <cmath>.
// Correctly rounded cases (limit 0) want exactly the nearest half to the reference.
#pragma once

#include <algorithm>
#include <cstdio>

#include "support/builtin_reference_math.h"

namespace cucl_test::builtin::fp16 {

using Half = uint16_t;

inline bool is_nan(Half h) { return (h & 0x7fff) > 0x7c00; }
// The value of h; a NaN keeps its sign (for copysign and signbit).
inline long double value(Half h) {
  return std::copysign(static_cast<long double>(half_to_double(h)), (h & 0x8000) ? -1 : 1);
}

// Equal bits, or both NaN.
inline bool same_half(Half a, Half b) { return is_nan(a) || is_nan(b) ? is_nan(a) && is_nan(b) : a == b; }

// The half nearest to x, ties to the even one (|x| from 65520 on, the tie with 2^16, is
// infinity).
inline Half nearest_half(long double x) {
  if (std::isnan(x)) return 0x7e00;
  const Half sign = std::signbit(x) ? 0x8000 : 0;
  const long double a = std::fabs(x);
  if (a >= 65520) return sign | 0x7c00;
  int e = 0;
  std::frexp(a, &e);                                         // a = m 2^e, m in [0.5, 1)
  const int q = std::max(e - 1, -14) - 10;                   // the exponent of ulp(a)
  const long double n = std::nearbyint(std::ldexp(a, -q));  // ties to even
  return sign | double_to_half(static_cast<double>(std::ldexp(n, q)), Rounding::kNearestEven);
}

// The next half after x in the direction of y (IEEE nextafter on the half grid).
inline Half next_half(Half x, Half y) {
  if (is_nan(x) || is_nan(y)) return 0x7e00;
  const long double vx = value(x), vy = value(y);
  if (vx == vy) return y;
  if (vx == 0) return vy > 0 ? 0x0001 : 0x8001;
  return ((vx < vy) == (vx > 0)) ? x + 1 : x - 1;
}

// OpenCL's ulp error (builtin_reference.h's ulp_error) for a half result: ulp(x) is
// 2^(max(exponent(x), -14) - 10); past the largest half, 65504, infinity counts as 2^16.
inline long double ulp_at(long double x) {
  int e = 0;
  std::frexp(std::fabs(x), &e);
  return std::ldexp(1.0L, std::min(std::max(e - 1, -14), 15) - 10);
}

inline long double ulp_error(Half got, long double want) {
  const long double inf = std::numeric_limits<long double>::infinity(), beyond = 65536;
  if (std::isnan(want)) return is_nan(got) ? 0 : inf;
  if (is_nan(got)) return inf;
  const long double g = value(got);
  if (std::isinf(want)) return g == want ? 0 : inf;
  if (want == 0) return (g == 0 && std::signbit(g) == std::signbit(want)) ? 0 : inf;
  if (std::fabs(want) > beyond) want = std::copysign(beyond, want);
  return std::fabs((std::isinf(g) ? std::copysign(beyond, g) : g) - want) / ulp_at(want);
}

// fma of halves, exactly rounded: every half is an integer times 2^-24, so a * b + c is the
// integer A B + C 2^24 times 2^-48, summed exactly in 128 bits and rounded here.
inline Half exact_fma(Half a, Half b, Half c) {
  const long double va = value(a), vb = value(b), vc = value(c);
  if (!std::isfinite(va) || !std::isfinite(vb) || !std::isfinite(vc)) return nearest_half(va * vb + vc);
  auto scaled = [](long double v) { return static_cast<__int128>(std::ldexp(v, 24)); };
  const __int128 product = scaled(va) * scaled(vb), sum = product + scaled(vc) * (__int128(1) << 24);
  if (sum == 0) {  // exact zeros: -0 only from -0 + -0 (round to nearest)
    const bool product_negative = std::signbit(va) != std::signbit(vb);
    return (product == 0 && vc == 0 && product_negative && std::signbit(vc)) ? 0x8000 : 0x0000;
  }
  unsigned __int128 m = sum < 0 ? -sum : sum;
  int top = 127;
  while (!(m >> top)) --top;
  const int q = std::max(top - 48, -14) - 10;  // the exponent of the result's ulp
  const int shift = q + 48;                     // in units of 2^-48
  unsigned __int128 n = m >> shift;
  const unsigned __int128 rest = m - (n << shift), half_unit = __int128(1) << (shift - 1);
  if (rest > half_unit || (rest == half_unit && (n & 1))) ++n;
  const long double magnitude = std::ldexp(static_cast<long double>(n), q);  // n has at most 12 bits
  return nearest_half(sum < 0 ? -magnitude : magnitude);
}

// ---------------------------------------------------------------- inputs
using HalfGenerator = std::function<Half(Random&)>;

inline HalfGenerator any_half() {
  return [](Random& rng) { return static_cast<Half>(rng()); };
}
inline HalfGenerator uniform_half(long double lo, long double hi) {
  return [=](Random& rng) { return nearest_half(random_uniform<long double>(rng, lo, hi)); };
}
inline HalfGenerator log_uniform_half(long double lo, long double hi, bool any_sign = true) {
  return [=](Random& rng) { return nearest_half(random_log_uniform<long double>(rng, lo, hi, any_sign)); };
}
inline HalfGenerator one_of(std::vector<HalfGenerator> gens) {
  return [=](Random& rng) { return gens[rng() % gens.size()](rng); };
}

// Signed zeros, infinities, NaN, subnormals, the extremes, values around 1 and the integer
// thresholds (2^10, 2^11), and both signs of each.
inline std::vector<Half> core_edge_halves() {
  const std::vector<Half> magnitudes = {0x0000, 0x7c00, 0x7e00, 0x0001, 0x0003, 0x03ff, 0x0400, 0x7bff,
                                        0x3c00, 0x3c01, 0x3bff, 0x3800, 0x3e00, 0x4000, 0x4100, 0x4200,
                                        0x4900, 0x6400, 0x63ff, 0x6800, 0x1400};
  std::vector<Half> values;
  for (Half h : magnitudes) values.push_back(h), values.push_back(h | 0x8000);
  return values;
}

// ---------------------------------------------------------------- cases
struct HalfCase {
  std::string name;
  Shape shape;
  double ulps;  // 0: correctly rounded
  std::function<Expected(long double, long double, long double, int)> reference;
  std::vector<HalfGenerator> generators;  // per argument; default: a wide mix
  std::vector<int> widths;                // vector widths besides the scalar
  double second_ulps = 0;
  long double min_magnitude = 0;  // values checked only where |want| >= this
  bool zero_sign_free = false;    // a zero result may have either sign
};

struct HalfInputs {
  std::vector<Half> a, b, c;
  std::vector<int> n;
  size_t size() const { return a.size(); }
};

// One-argument cases take every half; the others edge values (crossed for two and three
// arguments) and random ones. Padded to a multiple of 3072 so every width and work-group
// size divides the count.
inline HalfInputs make_half_inputs(const HalfCase& hc, size_t random_count, uint64_t seed) {
  Random rng(seed);
  HalfInputs in;
  auto gen = [&](int k) -> Half {
    if (k < int(hc.generators.size()) && hc.generators[k] && rng() % 4 != 0) return hc.generators[k](rng);
    return (rng() & 1) ? any_half()(rng) : log_uniform_half(1e-4L, 1e4L)(rng);
  };
  const auto ints = int_edges();
  auto gen_n = [&] { return (rng() & 1) ? ints[rng() % ints.size()] : int(rng() % 61) - 30; };
  auto push = [&](Half a, Half b, Half c, int n) {
    in.a.push_back(a), in.b.push_back(b), in.c.push_back(c), in.n.push_back(n);
  };
  const int args = arity(hc.shape);
  if (hc.shape == Shape::T_Ti) {
    for (Half e : core_edge_halves())
      for (int n : ints) push(e, 0, 0, n);
  } else if (args == 1) {
    for (uint32_t h = 0; h < 0x10000; ++h) push(static_cast<Half>(h), 0, 0, 0);
    random_count = 0;
  } else {
    const auto core = core_edge_halves();
    for (Half x : core)
      for (Half y : core) push(x, y, args == 3 ? core[rng() % core.size()] : 0, 0);
  }
  for (size_t i = 0; i < random_count; ++i) push(gen(0), gen(1), gen(2), gen_n());
  while (in.size() % 3072) push(gen(0), gen(1), gen(2), gen_n());
  return in;
}

// ---------------------------------------------------------------- kernels
// Vectors are gathered and scattered component by component (no vloadn/vstoren), so only
// the builtin under test handles half vectors.
inline std::string gather(const std::string& type, const std::string& p, int w) {
  if (w == 1) return p + "[i]";
  std::string out = "(" + type + std::to_string(w) + ")(";
  for (int k = 0; k < w; ++k)
    out += (k ? ", " : "") + p + "[" + std::to_string(w) + " * i + " + std::to_string(k) + "]";
  return out + ")";
}
inline std::string scatter(const std::string& type, const std::string& x, const std::string& p, int w) {
  if (w == 1) return p + "[i] = " + x + ";";
  std::string out = "{ " + type + std::to_string(w) + " s = " + x + ";";
  for (int k = 0; k < w; ++k)
    out += " " + p + "[" + std::to_string(w) + " * i + " + std::to_string(k) + "] = s.s" + "0123456789abcdef"[k] + ";";
  return out + " }";
}

inline std::vector<Variant> half_variants_of(const HalfCase& hc) {
  std::vector<Variant> out;
  std::vector<int> widths = {1};
  widths.insert(widths.end(), hc.widths.begin(), hc.widths.end());
  for (int w : widths) {
    out.push_back({w, Space::kPrivate});
    // Global and local outputs: scalar, and half3, whose stride in memory differs from its size.
    if (has_pointer(hc.shape) && (w == 1 || w == 3))
      out.push_back({w, Space::kGlobal}), out.push_back({w, Space::kLocal});
  }
  return out;
}

inline std::string half_case_body(const HalfCase& hc, const Variant& v) {
  const int w = v.width;
  const std::string suffix = w == 1 ? "" : std::to_string(w);
  std::string args;
  for (int k = 0; k < arity(hc.shape); ++k) args += (k ? ", " : "") + gather("half", std::string(1, char('a' + k)), w);
  if (hc.shape == Shape::T_Ti) args += ", " + gather("int", "n", w);
  if (!has_pointer(hc.shape)) {
    return hc.shape == Shape::i_T ? scatter("int", hc.name + "(" + args + ")", "ri", w)
                                  : scatter("half", hc.name + "(" + args + ")", "r", w);
  }
  const bool int_out = hc.shape != Shape::T_TpT;
  const std::string out_t = int_out ? "int" : "half", out2 = int_out ? "ri" : "r2", PT = out_t + suffix;
  switch (v.space) {
    case Space::kPrivate:
      return PT + " t; " + scatter("half", hc.name + "(" + args + ", &t)", "r", w) + " " + scatter(out_t, "t", out2, w);
    case Space::kGlobal:
      return scatter("half", hc.name + "(" + args + ", (global " + PT + "*)" + out2 + " + i)", "r", w);
    default: {
      const std::string local = int_out ? "il" : "tl";
      return scatter("half", hc.name + "(" + args + ", &" + local + "[l])", "r", w) + " " +
             scatter(out_t, local + "[l]", out2, w);
    }
  }
}

inline std::string half_variant_kernel(const std::vector<HalfCase>& cases, const Variant& v) {
  const std::string w = v.width == 1 ? "" : std::to_string(v.width);
  std::string source = "kernel void " + v.kernel_name() +
                       "(global const half* a, global const half* b, global const half* c, global const int* n, "
                       "global half* r, global half* r2, global int* ri, uint which) {\n"
                       "  size_t i = get_global_id(0), l = get_local_id(0);\n";
  if (v.space == Space::kLocal) source += "  local half" + w + " tl[64];\n  local int" + w + " il[64];\n";
  source += "  switch (which) {\n";
  for (size_t k = 0; k < cases.size(); ++k)
    for (const Variant& cv : half_variants_of(cases[k]))
      if (cv == v) source += "    case " + std::to_string(k) + ": { " + half_case_body(cases[k], v) + " } break;\n";
  return source + "  }\n}\n";
}

// ---------------------------------------------------------------- checking
inline bool half_value_ok(const HalfCase& hc, Half got, long double want, double ulps, long double* err) {
  *err = ulp_error(got, want);
  if (hc.zero_sign_free && want == 0 && value(got) == 0) return *err = 0, true;
  if (hc.min_magnitude > 0 && std::isfinite(want) && std::fabs(want) < hc.min_magnitude) return *err = 0, true;
  if (ulps == 0) return same_half(got, nearest_half(want));
  return *err <= ulps;
}

// Runs every variant of case `index` on `in` and checks each result; reports the first few
// failures of each case with their inputs, and returns the largest error seen.
inline long double run_half_case(const Env& env, BuiltProgram& program, const HalfCase& hc, size_t index,
                                 const HalfInputs& in, size_t* failures) {
  long double max_err = 0;
  std::vector<Expected> expected(in.size());
  for (size_t j = 0; j < in.size(); ++j)
    expected[j] = hc.reference(value(in.a[j]), value(in.b[j]), value(in.c[j]), in.n[j]);
  for (const Variant& v : half_variants_of(hc)) {
    cl_kernel kernel = program.kernel(v.kernel_name());
    if (!kernel) return max_err;
    const size_t items = in.size() / v.width, out2_count = items * v.stride();
    Launch launch(env, kernel);
    launch.in(in.a).in(in.b).in(in.c).in(in.n).out<Half>(in.size()).out<Half>(out2_count)
        .out<int>(std::max(in.size(), out2_count)).value(cl_uint(index));
    launch.run(items, v.space == Space::kLocal ? 64 : 0);
    const auto r = launch.result<Half>(4), r2 = launch.result<Half>(5);
    const auto ri = launch.result<int>(6);
    auto fail = [&](size_t j, const std::string& what) {
      if (++*failures <= 6)
        ADD_FAILURE() << hc.name << " (half" << (v.width > 1 ? std::to_string(v.width) : "") << ", "
                      << space_name(v.space) << " output) at a=" << hex(in.a[j]) << " b=" << hex(in.b[j])
                      << " c=" << hex(in.c[j]) << " n=" << in.n[j] << ": " << what;
    };
    auto describe = [](Half got, long double want, long double err) {
      std::ostringstream msg;
      msg << "got " << hex(got) << " = " << std::hexfloat << value(got) << ", want " << want << std::defaultfloat
          << " (" << err << " ulp)";
      return msg.str();
    };
    for (size_t j = 0; j < items * v.width; ++j) {
      const size_t second = v.space == Space::kGlobal ? (j / v.width) * v.stride() + j % v.width : j;
      const Expected& e = expected[j];
      if (hc.shape == Shape::i_T) {
        if (ri[j] != e.integer) fail(j, "got " + std::to_string(ri[j]) + ", want " + std::to_string(e.integer));
        continue;
      }
      long double err = 0, alt_err = 0;
      if (!half_value_ok(hc, r[j], e.value, hc.ulps, &err) &&
          (!e.alternative || !half_value_ok(hc, r[j], *e.alternative, hc.ulps, &alt_err))) {
        fail(j, describe(r[j], e.value, err));
      } else if (std::isfinite(err)) {
        max_err = std::max(max_err, err);
      }
      if (hc.shape == Shape::T_TpT) {
        if (!half_value_ok(hc, r2[second], e.second, hc.second_ulps, &err))
          fail(j, "second output: " + describe(r2[second], e.second, err));
      } else if (has_pointer(hc.shape) && e.check_integer && ri[second] != e.integer) {
        fail(j, "int output " + std::to_string(ri[second]) + ", want " + std::to_string(e.integer));
      }
    }
  }
  return max_err;
}

// Builds every case's kernels into one program (the cl_khr_fp16 pragma first), runs them and
// prints the largest error measured per function.
inline void run_half_cases(const Env& env, const std::vector<HalfCase>& cases, const std::string& options,
                           size_t random_count = 4000) {
  std::string source = kFp16Pragmas;
  std::vector<Variant> variants;
  for (const auto& hc : cases)
    for (const Variant& v : half_variants_of(hc))
      if (std::find(variants.begin(), variants.end(), v) == variants.end()) variants.push_back(v);
  for (const Variant& v : variants) source += half_variant_kernel(cases, v);
  BuiltProgram program(env, source, options);
  ASSERT_TRUE(program);
  for (size_t i = 0; i < cases.size(); ++i) {
    const HalfCase& hc = cases[i];
    size_t failures = 0;
    const long double max_err =
        run_half_case(env, program, hc, i, make_half_inputs(hc, random_count, 0x4a1f0000 + i * 7919), &failures);
    std::printf("  %-14s half %s: max %.3Lf ulp (limit %g)%s\n", hc.name.c_str(), options.c_str(), max_err, hc.ulps,
                failures ? " FAILED" : "");
  }
}

}  // namespace cucl_test::builtin::fp16
