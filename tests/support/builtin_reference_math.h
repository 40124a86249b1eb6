// The math builtin harness: a table of cases (builtin name, argument shape, ULP limit,
// host reference), kernels generated for each case in scalar and vector widths and, for
// functions with an output pointer, in every address space; the results are checked
// against the reference with the OpenCL ULP rules of builtin_reference.h.
#pragma once

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "support/builtin_reference.h"

// Cases are aggregates that name only the fields they need; the rest keep their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace cucl_test::builtin {

// Argument shapes: T the floating type, i int, *T / *i an output pointer.
enum class Shape { T_T, T_TT, T_TTT, T_Ti, i_T, T_TpT, T_Tpi, T_TTpi };

inline bool has_pointer(Shape s) { return s == Shape::T_TpT || s == Shape::T_Tpi || s == Shape::T_TTpi; }
inline int arity(Shape s) {
  switch (s) {
    case Shape::T_TT: case Shape::T_TTpi: return 2;
    case Shape::T_TTT: return 3;
    default: return 1;
  }
}

struct Expected {
  long double value = 0;
  long double second = 0;    // the floating output through a pointer (fract, modf, sincos)
  int integer = 0;           // the int output (frexp, remquo, lgamma_r, ilogb's result)
  bool check_integer = true;
  std::optional<long double> alternative;  // a second acceptable value (mad: fused or not; may be NaN)
};

template <class T>
using Generator = std::function<T(Random&)>;

template <class T>
struct MathCase {
  std::string name;
  Shape shape;
  double ulps;  // 0: correctly rounded (and exact where the result is representable)
  std::function<Expected(T, T, T, int)> reference;
  std::vector<Generator<T>> generators;  // per argument; default: a wide mix
  std::vector<int> widths;                    // vector widths (none given: scalar only)
  double second_ulps = 0;
  std::function<bool(T, T)> in_domain;        // inputs outside are not checked
  std::function<double(T)> ulps_for;          // an input-dependent limit, replaces ulps
  long double abs_limit = 0;                  // also accepted: |got - want| <= abs_limit
  long double min_magnitude = 0;              // values checked only where |want| >= this
  bool may_flush = false;                     // denormal inputs/results may be flushed
  bool zero_sign_free = false;                // a zero result may have either sign
};

template <class T>
Generator<T> uniform(long double lo, long double hi) {
  return [=](Random& rng) { return random_uniform<T>(rng, lo, hi); };
}
template <class T>
Generator<T> log_uniform(long double lo, long double hi, bool any_sign = true) {
  return [=](Random& rng) { return random_log_uniform<T>(rng, lo, hi, any_sign); };
}
// Integers and half-integers in [-40, 40] (pow's special and exact cases).
template <class T>
Generator<T> exact_integers() {
  return [](Random& rng) { return T(int(rng() % 161) - 80) / 2; };
}
template <class T>
Generator<T> any_bits() {
  return [](Random& rng) { return random_bits<T>(rng); };
}

inline std::vector<int> int_edges() {
  return {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, 7, -7, 8, 16, 24, -24, 31, 53, -53, 100, -100, 127, 128, -128,
          149, -149, 150, -150, 1023, 1074, -1074, 1075, -1075, 2100, -2100, INT32_MAX, INT32_MIN};
}

// Inputs for one case: edge values (crossed for two and three arguments) then random ones,
// padded to a multiple of 3072 so every width and work-group size divides the count.
template <class T>
struct Inputs {
  std::vector<T> a, b, c;
  std::vector<int> n;
  size_t size() const { return a.size(); }
};

template <class T>
Inputs<T> make_inputs(const MathCase<T>& mc, size_t random_count, uint64_t seed) {
  Random rng(seed);
  Inputs<T> in;
  auto gen = [&](int k) -> T {
    if (k < int(mc.generators.size()) && mc.generators[k] && (rng() % 4 != 0)) return mc.generators[k](rng);
    if (rng() & 1) return random_bits<T>(rng);
    return random_log_uniform<T>(rng, 1e-6L, 1e6L, true);
  };
  auto ints = int_edges();
  auto gen_n = [&]() { return (rng() & 1) ? ints[rng() % ints.size()] : int(rng() % 41) - 20; };
  auto push = [&](T a, T b, T c, int n) {
    in.a.push_back(a);
    in.b.push_back(b);
    in.c.push_back(c);
    in.n.push_back(n);
  };
  const int args = arity(mc.shape);
  if (args == 1) {
    for (T e : edge_values<T>()) {
      if (mc.shape == Shape::T_Ti)
        for (int n : ints) push(e, 0, 0, n);
      else
        push(e, 0, 0, 0);
    }
  } else {
    auto core = core_edge_values<T>();
    for (T x : core)
      for (T y : core) push(x, y, args == 3 ? core[rng() % core.size()] : T(0), 0);
    for (T e : edge_values<T>()) push(e, gen(1), gen(2), 0), push(gen(0), e, gen(2), 0);
  }
  for (size_t i = 0; i < random_count; ++i) push(gen(0), gen(1), gen(2), gen_n());
  while (in.size() % 3072) push(gen(0), gen(1), gen(2), gen_n());
  return in;
}

// ---------------------------------------------------------------- kernels
enum class Space { kPrivate, kGlobal, kLocal };
inline const char* space_name(Space s) { return s == Space::kPrivate ? "private" : s == Space::kGlobal ? "global" : "local"; }

struct Variant {
  int width;
  Space space;
  // One kernel per variant holds every case's call, chosen by an argument: a program of
  // a few large kernels builds much faster than one of many small ones.
  std::string kernel_name() const { return "v" + std::to_string(width) + "_" + space_name(space); }
  bool operator==(const Variant& other) const { return width == other.width && space == other.space; }
  int stride() const { return width == 3 ? 4 : width; }  // of a vector type in memory
};

template <class T>
std::vector<Variant> variants_of(const MathCase<T>& mc) {
  std::vector<Variant> out;
  // Output pointers in global and local memory: scalar, and the 3-component vector whose
  // stride in memory differs from its size (the other widths share that code and only
  // make the program slower to build).
  for (int w : mc.widths.empty() ? std::vector<int>{1} : mc.widths) {
    out.push_back({w, Space::kPrivate});
    if (has_pointer(mc.shape) && (w == 1 || w == 3))
      out.push_back({w, Space::kGlobal}), out.push_back({w, Space::kLocal});
  }
  return out;
}

template <class T>
std::string case_body(const MathCase<T>& mc, const Variant& v) {
  const std::string t = cl_name<T>(), w = v.width == 1 ? "" : std::to_string(v.width);
  const std::string TW = t + w, IW = "int" + w;
  auto load = [&](const std::string& p) { return v.width == 1 ? p + "[i]" : "vload" + w + "(i, " + p + ")"; };
  auto store = [&](const std::string& x, const std::string& p) {
    return v.width == 1 ? p + "[i] = " + x + ";" : "vstore" + w + "(" + x + ", i, " + p + ");";
  };
  std::string args;
  for (int k = 0; k < arity(mc.shape); ++k) args += (k ? ", " : "") + load(std::string(1, char('a' + k)));
  if (mc.shape == Shape::T_Ti) args += ", " + load("n");
  std::string body;
  if (!has_pointer(mc.shape)) {
    body = store(mc.name + "(" + args + ")", mc.shape == Shape::i_T ? "ri" : "r");
  } else {
    const bool int_out = mc.shape != Shape::T_TpT;
    const std::string PT = int_out ? IW : TW, out2 = int_out ? "ri" : "r2";
    const std::string out2_t = int_out ? "int" : t;
    switch (v.space) {
      case Space::kPrivate:
        body = PT + " t; " + store(mc.name + "(" + args + ", &t)", "r") + " " + store("t", out2);
        break;
      case Space::kGlobal:
        body = store(mc.name + "(" + args + ", (global " + PT + "*)" + out2 + " + i)", "r");
        break;
      case Space::kLocal: {
        const std::string tl = int_out ? "il" : "tl";
        body = store(mc.name + "(" + args + ", &" + tl + "[l])", "r") + " " + store(tl + "[l]", out2);
        break;
      }
    }
  }
  return body;
}

template <class T>
std::string variant_kernel(const std::vector<MathCase<T>>& cases, const Variant& v) {
  const std::string t = cl_name<T>(), w = v.width == 1 ? "" : std::to_string(v.width);
  std::string source = "kernel void " + v.kernel_name() + "(global const " + t + "* a, global const " + t +
                       "* b, global const " + t + "* c, global const int* n, global " + t + "* r, global " + t +
                       "* r2, global int* ri, uint which) {\n  size_t i = get_global_id(0), l = get_local_id(0);\n";
  if (v.space == Space::kLocal) source += "  local " + t + w + " tl[64];\n  local int" + w + " il[64];\n";
  source += "  switch (which) {\n";
  for (size_t k = 0; k < cases.size(); ++k)
    for (const Variant& cv : variants_of(cases[k]))
      if (cv == v) source += "    case " + std::to_string(k) + ": { " + case_body(cases[k], v) + " } break;\n";
  return source + "  }\n}\n";
}

// ---------------------------------------------------------------- checking
struct CaseReport {
  long double max_ulp = 0;
  size_t checked = 0;
  size_t failures = 0;
};

template <class T>
bool value_ok(const MathCase<T>& mc, T a, T b, T got, long double want, long double limit, long double* err) {
  *err = ulp_error<T>(got, want);
  if (*err <= limit) return true;
  if (mc.zero_sign_free && want == 0 && got == 0) return *err = 0, true;
  if (mc.abs_limit > 0 && std::isfinite(want) && std::fabs(static_cast<long double>(got) - want) <= mc.abs_limit)
    return *err = 0, true;
  if (mc.min_magnitude > 0 && std::isfinite(want) && std::fabs(want) < mc.min_magnitude) return *err = 0, true;
  if (mc.may_flush) {
    const long double tiny = std::numeric_limits<T>::min();
    auto denormal = [&](T x) { return x != 0 && std::fabs(x) < tiny; };
    if (denormal(a) || denormal(b) || (std::fabs(want) < tiny && got == 0)) return *err = 0, true;
  }
  return false;
}

// Runs every variant of a case on `in` and checks each result; failures are reported with
// their inputs (the first few of each case).
template <class T>
CaseReport run_case(const Env& env, BuiltProgram& program, const MathCase<T>& mc, size_t index,
                    const Inputs<T>& in) {
  CaseReport report;
  std::vector<Expected> expected(in.size());
  for (size_t j = 0; j < in.size(); ++j) expected[j] = mc.reference(in.a[j], in.b[j], in.c[j], in.n[j]);
  for (const Variant& v : variants_of(mc)) {
    cl_kernel kernel = program.kernel(v.kernel_name());
    if (!kernel) return report;
    const size_t items = in.size() / v.width, out2_count = items * v.stride();
    Launch launch(env, kernel);
    launch.in(in.a).in(in.b).in(in.c).in(in.n).template out<T>(in.size()).template out<T>(out2_count).template out<int>(
        std::max(in.size(), out2_count)).value(cl_uint(index));
    launch.run(items, v.space == Space::kLocal ? 64 : 0);
    auto r = launch.template result<T>(4), r2 = launch.template result<T>(5);
    auto ri = launch.template result<int>(6);
    auto fail = [&](size_t j, const std::string& what) {
      if (++report.failures <= 6)
        ADD_FAILURE() << mc.name << " (" << cl_name<T>() << (v.width > 1 ? std::to_string(v.width) : "") << ", "
                      << space_name(v.space) << " output) at a=" << hex(in.a[j]) << " b=" << hex(in.b[j])
                      << " c=" << hex(in.c[j]) << " n=" << in.n[j] << ": " << what;
    };
    for (size_t j = 0; j < items * v.width; ++j) {
      const size_t second = v.space == Space::kGlobal ? (j / v.width) * v.stride() + j % v.width : j;
      const Expected& e = expected[j];
      const T a = in.a[j], b = in.b[j];
      if (mc.in_domain && !mc.in_domain(a, b)) continue;
      ++report.checked;
      if (mc.shape == Shape::i_T) {
        if (ri[j] != e.integer) fail(j, "got " + std::to_string(ri[j]) + ", want " + std::to_string(e.integer));
        continue;
      }
      long double limit = mc.ulps_for ? mc.ulps_for(a) : mc.ulps;
      if (limit == 0) limit = 0.5;
      long double err = 0;
      long double alt_err = 0;
      if (!value_ok(mc, a, b, r[j], e.value, limit, &err) &&
          (!e.alternative || !value_ok(mc, a, b, r[j], *e.alternative, limit, &alt_err))) {
        std::ostringstream msg;
        msg << "got " << hex(r[j]) << ", want " << std::hexfloat << e.value << std::defaultfloat << " (" << err
            << " ulp, limit " << limit << ")";
        fail(j, msg.str());
      } else if (std::isfinite(err)) {
        report.max_ulp = std::max(report.max_ulp, err);
      }
      if (mc.shape == Shape::T_TpT) {
        const long double limit2 = mc.second_ulps == 0 ? 0.5 : mc.second_ulps;
        if (!value_ok(mc, a, b, r2[second], e.second, limit2, &err)) {
          std::ostringstream msg;
          msg << "second output " << hex(r2[second]) << ", want " << std::hexfloat << e.second << " (" << err
              << " ulp)";
          fail(j, msg.str());
        }
      } else if (has_pointer(mc.shape) && e.check_integer && ri[second] != e.integer) {
        fail(j, "int output " + std::to_string(ri[second]) + ", want " + std::to_string(e.integer));
      }
    }
  }
  return report;
}

// Builds every case's kernels into one program, runs them all and prints the largest
// error measured per function.
template <class T>
void run_math_cases(const Env& env, const std::vector<MathCase<T>>& cases, const std::string& options,
                    size_t random_count = 3000) {
  std::string source = kFp64Pragma;
  std::vector<Variant> variants;
  for (const auto& mc : cases)
    for (const Variant& v : variants_of(mc))
      if (std::find(variants.begin(), variants.end(), v) == variants.end()) variants.push_back(v);
  for (const Variant& v : variants) source += variant_kernel(cases, v);
  BuiltProgram program(env, source, options);
  ASSERT_TRUE(program);
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& mc = cases[i];
    Inputs<T> in = make_inputs(mc, random_count, 0x5eed0000 + i * 7919);
    CaseReport report = run_case(env, program, mc, i, in);
    std::printf("  %-14s %-6s %s: %6zu checked, max %.3Lf ulp (limit %g)%s\n", mc.name.c_str(), cl_name<T>(),
                options.c_str(), report.checked, report.max_ulp, mc.ulps,
                report.failures ? " FAILED" : "");
  }
}

}  // namespace cucl_test::builtin

// ---------------------------------------------------------------- references (long double)
namespace cucl_test::builtin::reference {

constexpr long double kPi = 3.14159265358979323846264338327950288L;

// sin(pi r) for |r| <= 1 given exactly: the argument is folded into [-1/2, 1/2] exactly.
inline long double sinpi_reduced(long double r) {
  if (std::fabs(r) > 0.5L) r = std::copysign(1 - std::fabs(r), r);
  return std::sin(kPi * r);
}

inline long double sinpi(long double x) {
  if (!std::isfinite(x)) return NAN;
  long double r = std::fmod(x, 2.0L);  // exact, in (-2, 2)
  if (std::fabs(r) >= 1) r -= std::copysign(2.0L, r);
  long double s = sinpi_reduced(r);
  return s == 0 ? std::copysign(0.0L, x) : s;
}

inline long double cospi(long double x) {
  if (!std::isfinite(x)) return NAN;
  long double r = std::fabs(std::fmod(x, 2.0L));
  if (r > 1) r = 2 - r;
  long double s = sinpi_reduced(0.5L - r);  // cos(pi r) = sin(pi (1/2 - r))
  return s == 0 ? 0.0L : s;
}

inline long double tanpi(long double x) {
  if (!std::isfinite(x)) return NAN;
  long double n = std::nearbyint(x), t = x - n;  // t in [-1/2, 1/2]
  bool odd = std::fmod(n, 2.0L) != 0;
  if (t == 0) return std::copysign(0.0L, odd ? -x : x);
  if (std::fabs(t) == 0.5L) return std::fmod(std::floor(x), 2.0L) == 0 ? INFINITY : -INFINITY;
  return sinpi_reduced(t) / sinpi_reduced(0.5L - std::fabs(t));  // cos(pi t) = sin(pi (1/2 - |t|))
}

inline long double rootn(long double x, int n) {
  if (n == 0 || std::isnan(x)) return NAN;
  const bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return NAN;
  if (x == 0) return n > 0 ? (odd ? x : 0.0L) : (odd ? std::copysign(INFINITY, x) : INFINITY);
  if (std::isinf(x)) return n > 0 ? x : (odd ? std::copysign(0.0L, x) : 0.0L);
  long double r = std::pow(std::fabs(x), 1.0L / n);
  return odd ? std::copysign(r, x) : r;
}

inline long double powr(long double x, long double y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return NAN;
  if (x == 0) return y == 0 ? NAN : (y < 0 ? INFINITY : 0.0L);
  if (std::isinf(x)) return y == 0 ? NAN : (y < 0 ? 0.0L : INFINITY);
  if (x == 1) return std::isinf(y) ? NAN : 1.0L;
  return std::pow(x, y);
}

// fmax/fmin as OpenCL defines them: a NaN argument (quiet or signaling) gives the other one.
template <class T>
T fmax(T x, T y) {
  return std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y);
}
template <class T>
T fmin(T x, T y) {
  return std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y);
}

template <class T>
T maxmag(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (std::fabs(x) != std::fabs(y)) return std::fabs(x) > std::fabs(y) ? x : y;
  return fmax(x, y);
}
template <class T>
T minmag(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (std::fabs(x) != std::fabs(y)) return std::fabs(x) < std::fabs(y) ? x : y;
  return fmin(x, y);
}

// remquo's quotient: the low 7 bits of round-half-even(x / y) with the sign of x / y.
template <class T>
int remquo_bits(T x, T y) {
  if (std::isnan(x) || std::isnan(y) || std::isinf(x) || y == 0) return 0;
  long double ax = std::fabs(static_cast<long double>(x)), ay = std::fabs(static_cast<long double>(y));
  long double m = std::fmod(ax, 128 * ay);  // exact; keeps the quotient's low 7 bits and parity
  long double q = std::nearbyint((m - std::remainder(m, ay)) / ay);
  int k = static_cast<int>(q) & 0x7f;
  return std::signbit(x) != std::signbit(y) ? -k : k;
}

}  // namespace cucl_test::builtin::reference

namespace cucl_test::builtin {

// Every math builtin with its limit from the full-profile ULP tables of OpenCL C 3.0 (7.4);
// the single and double precision tables agree except for sqrt.
template <class T>
std::vector<MathCase<T>> standard_math_cases() {
  namespace ref = reference;
  using L = long double;
  const bool is_float = std::is_same_v<T, float>;
  const L exp_range = std::numeric_limits<T>::max_exponent * 0.75L;  // past overflow and underflow
  auto u1 = [&](L (*f)(L)) { return [=](T x, T, T, int) { return Expected{f(x)}; }; };
  auto u2 = [&](L (*f)(L, L)) { return [=](T x, T y, T, int) { return Expected{f(x, y)}; }; };
  auto exact1 = [](T (*f)(T)) { return [=](T x, T, T, int) { return Expected{f(x)}; }; };
  auto exact2 = [](T (*f)(T, T)) { return [=](T x, T y, T, int) { return Expected{f(x, y)}; }; };
  auto mix = [](std::vector<Generator<T>> gens) -> Generator<T> {
    return [=](Random& rng) { return gens[rng() % gens.size()](rng); };
  };
  const auto unit = uniform<T>(-1, 1), positive = log_uniform<T>(1e-30L, 1e30L, false);
  const auto trig = mix({uniform<T>(-10, 10), log_uniform<T>(1e-4L, is_float ? 1e30L : 1e300L)});
  const auto exps = uniform<T>(-exp_range, exp_range), wide = log_uniform<T>(1e-20L, 1e20L);
  // The top two binades, where intermediate results overflow.
  const auto near_max = log_uniform<T>(std::numeric_limits<T>::max() / 4, std::numeric_limits<T>::max());
  const std::vector<int> all_widths = {1, 2, 3, 4, 8, 16};
  using S = Shape;
  std::vector<MathCase<T>> c = {
      {"acos", S::T_T, 4, u1(std::acos), {unit}},
      {"acosh", S::T_T, 4, u1(std::acosh), {log_uniform<T>(1, 1e30L, false)}},
      {"acospi", S::T_T, 5, [](T x, T, T, int) { return Expected{std::acos(L(x)) / ref::kPi}; }, {unit}},
      {"asin", S::T_T, 4, u1(std::asin), {unit}},
      {"asinh", S::T_T, 4, u1(std::asinh), {wide}},
      {"asinpi", S::T_T, 5, [](T x, T, T, int) { return Expected{std::asin(L(x)) / ref::kPi}; }, {unit}},
      {"atan", S::T_T, 5, u1(std::atan), {wide}},
      {"atanh", S::T_T, 5, u1(std::atanh), {unit}},
      {"atanpi", S::T_T, 5, [](T x, T, T, int) { return Expected{std::atan(L(x)) / ref::kPi}; }, {wide}},
      {"atan2", S::T_TT, 6, u2(std::atan2), {wide, wide}},
      {"atan2pi", S::T_TT, 6, [](T y, T x, T, int) { return Expected{std::atan2(L(y), L(x)) / ref::kPi}; },
       {wide, wide}},
      {"cbrt", S::T_T, 2, u1(std::cbrt), {wide}},
      {"ceil", S::T_T, 0, exact1(std::ceil), {wide}},
      {"copysign", S::T_TT, 0, exact2(std::copysign)},
      {"cos", S::T_T, 4, u1(std::cos), {trig}},
      {"cosh", S::T_T, 4, u1(std::cosh), {exps}},
      {"cospi", S::T_T, 4, u1(ref::cospi), {mix({uniform<T>(-4, 4), wide})}},
      {"erf", S::T_T, 16, u1(std::erf), {uniform<T>(-8, 8)}},
      {"erfc", S::T_T, 16, u1(std::erfc), {uniform<T>(-8, is_float ? 12 : 30)}},
      {"exp", S::T_T, 3, u1(std::exp), {exps}, all_widths},
      {"exp2", S::T_T, 3, u1(std::exp2), {exps}},
      {"exp10", S::T_T, 3, [](T x, T, T, int) { return Expected{exp10l(x)}; }, {exps}},
      {"expm1", S::T_T, 3, u1(std::expm1), {mix({exps, log_uniform<T>(1e-30L, 1)})}},
      {"fabs", S::T_T, 0, exact1(std::fabs)},
      {"fdim", S::T_TT, 0, exact2(std::fdim)},
      {"floor", S::T_T, 0, exact1(std::floor), {wide}},
      {"fma", S::T_TTT, 0, [](T a, T b, T c, int) { return Expected{std::fma(a, b, c)}; },
       {uniform<T>(-10, 10), uniform<T>(-10, 10), uniform<T>(-100, 100)}, all_widths},
      // mad: a correctly rounded fma, or a multiply and an add each correctly rounded.
      {"mad", S::T_TTT, 0,
       [](T a, T b, T c, int) {
         Expected e{std::fma(a, b, c)};
         e.alternative = T(a * b) + c;
         return e;
       },
       {uniform<T>(-10, 10), uniform<T>(-10, 10), uniform<T>(-100, 100)}, all_widths},
      {"fmax", S::T_TT, 0, exact2(ref::fmax<T>)},
      {"fmin", S::T_TT, 0, exact2(ref::fmin<T>)},
      {"fmod", S::T_TT, 0, exact2(std::fmod), {wide, wide}},
      {"fract", S::T_TpT, 0,
       [](T x, T, T, int) {
         T f = std::floor(x);
         if (std::isnan(x)) return Expected{x, x};
         if (x == 0 || std::isinf(x)) return Expected{std::copysign(T(0), x), f};
         return Expected{std::fmin(x - f, std::nextafter(T(1), T(0))), f};
       },
       {wide}, all_widths},
      {"frexp", S::T_Tpi, 0,
       [](T x, T, T, int) {
         int e = 0;
         T m = std::frexp(x, &e);
         return Expected{m, 0, e, std::isfinite(x)};
       },
       {}, all_widths},
      {"hypot", S::T_TT, 4, u2(std::hypot), {wide, wide}},
      {"ilogb", S::i_T, 0,
       [](T x, T, T, int) {
         Expected e;
         e.integer = std::isnan(x) ? INT32_MAX : x == 0 ? INT32_MIN : std::isinf(x) ? INT32_MAX : std::ilogb(x);
         return e;
       },
       {}, all_widths},
      {"ldexp", S::T_Ti, 0, [](T x, T, T, int n) { return Expected{std::ldexp(x, n)}; }, {}, all_widths},
      {"lgamma", S::T_T, 16, u1(std::lgamma), {uniform<T>(-100, 1000)}},
      {"log", S::T_T, 3, u1(std::log), {positive}, all_widths},
      {"log2", S::T_T, 3, u1(std::log2), {positive}},
      {"log10", S::T_T, 3, u1(std::log10), {positive}},
      {"log1p", S::T_T, 2, u1(std::log1p), {mix({positive, uniform<T>(-1, 1)})}},
      {"logb", S::T_T, 0, exact1(std::logb)},
      {"maxmag", S::T_TT, 0, exact2(ref::maxmag<T>)},
      {"minmag", S::T_TT, 0, exact2(ref::minmag<T>)},
      {"modf", S::T_TpT, 0,
       [](T x, T, T, int) {
         T i = 0;
         T f = std::modf(x, &i);
         return Expected{f, i};
       },
       {wide}, all_widths},
      {"nextafter", S::T_TT, 0, exact2(std::nextafter)},
      {"pow", S::T_TT, 16, u2(std::pow),
       {mix({log_uniform<T>(1e-10L, 1e10L), uniform<T>(-4, 4)}), mix({uniform<T>(-40, 40), exact_integers<T>()})},
       all_widths},
      {"pown", S::T_Ti, 16, [](T x, T, T, int n) { return Expected{std::pow(L(x), L(n))}; },
       {mix({uniform<T>(-3, 3), log_uniform<T>(1e-3L, 1e3L)})}},
      {"powr", S::T_TT, 16, u2(ref::powr), {log_uniform<T>(1e-10L, 1e10L, false), uniform<T>(-40, 40)}},
      {"remainder", S::T_TT, 0, exact2(std::remainder), {wide, wide}},
      {"remquo", S::T_TTpi, 0,
       [](T x, T y, T, int) { return Expected{std::remainder(x, y), 0, ref::remquo_bits(x, y)}; },
       {mix({wide, near_max}), mix({wide, uniform<T>(-8, 8), near_max})}, all_widths},
      {"rint", S::T_T, 0, exact1(std::nearbyint), {wide}},
      {"rootn", S::T_Ti, 16, [](T x, T, T, int n) { return Expected{ref::rootn(x, n)}; }, {wide}, all_widths},
      {"round", S::T_T, 0, exact1(std::round), {wide}},
      {"rsqrt", S::T_T, 2, [](T x, T, T, int) { return Expected{1 / std::sqrt(L(x))}; }, {positive}},
      {"sin", S::T_T, 4, u1(std::sin), {trig}, all_widths},
      {"sincos", S::T_TpT, 4, [](T x, T, T, int) { return Expected{std::sin(L(x)), std::cos(L(x))}; }, {trig},
       all_widths, 4},
      {"sinh", S::T_T, 4, u1(std::sinh), {exps}},
      {"sinpi", S::T_T, 4, u1(ref::sinpi), {mix({uniform<T>(-4, 4), wide})}},
      {"sqrt", S::T_T, is_float ? 3.0 : 0.0, [](T x, T, T, int) { return Expected{std::sqrt(L(x))}; }, {positive},
       all_widths},
      {"tan", S::T_T, 5, u1(std::tan), {trig}},
      {"tanh", S::T_T, 5, u1(std::tanh), {uniform<T>(-20, 20)}},
      {"tanpi", S::T_T, 6, u1(ref::tanpi), {mix({uniform<T>(-4, 4), wide})}},
      {"tgamma", S::T_T, 16, u1(std::tgamma), {uniform<T>(-50, is_float ? 36 : 172)}},
      {"trunc", S::T_T, 0, exact1(std::trunc), {wide}},
  };
  for (auto& mc : c) {
    // IEEE maxNum/minNum leave the sign of a zero result open when both are zeros.
    if (mc.name == "fmax" || mc.name == "fmin" || mc.name == "maxmag" || mc.name == "minmag")
      mc.zero_sign_free = true;
    if (mc.name == "lgamma") mc.min_magnitude = 1;  // no limit is meaningful near its zeros
  }
  // lgamma_r: lgamma's value, and the sign of gamma except at the poles.
  MathCase<T> lgamma_r{"lgamma_r", S::T_Tpi, 16,
                       [](T x, T, T, int) {
                         int sign = 0;
                         L value = lgammal_r(x, &sign);
                         bool pole = std::isnan(x) || std::isinf(x) || (x <= 0 && x == std::floor(x));
                         return Expected{value, 0, sign, !pole};
                       },
                       {uniform<T>(-100, 100)}, all_widths};
  lgamma_r.min_magnitude = 1;
  c.push_back(lgamma_r);
  return c;
}

}  // namespace cucl_test::builtin
