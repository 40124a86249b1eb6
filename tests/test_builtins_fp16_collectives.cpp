// The half (cl_khr_fp16) overloads of the sub-group and work-group collective functions:
// broadcasts, reductions and scans (add/min/max, and mul for the non-uniform and clustered
// ones), shuffles and rotates, vector broadcasts and votes, against references computed per
// sub-group or group. Sums of small integers are exact in half whatever the order, so those
// results compare bit for bit; min and max also meet signed zeros and infinities, sums of
// negative zeros stay negative, and shuffles move NaN payloads unchanged.
#include <algorithm>
#include <random>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

// A half as its bits, on the host.
using Bits = uint16_t;
constexpr Bits kPlusZero = 0x0000, kMinusZero = 0x8000, kOne = 0x3c00, kPlusInf = 0x7c00, kMinusInf = 0xfc00;

Bits half_of(double v) { return double_to_half(v, Rounding::kNearestEven); }
double value_of(Bits h) { return half_to_double(h); }

std::string describe(Bits h) {
  std::ostringstream out;
  out << value_of(h) << " (0x" << std::hex << h << ")";
  return out.str();
}

// An operation of the reductions and scans, on exact values, with its identity.
struct Op {
  const char* name;
  Bits identity;
  double (*apply)(double, double);
};
const Op kAdd{"add", kPlusZero, [](double a, double b) { return a + b; }};
const Op kMul{"mul", kOne, [](double a, double b) { return a * b; }};
const Op kMin{"min", kPlusInf, [](double a, double b) { return std::min(a, b); }};
const Op kMax{"max", kMinusInf, [](double a, double b) { return std::max(a, b); }};

// Where 1-D work-item i sits: its sub-group's first work-item, its lane, the sub-group's size.
struct SubGroupPlace {
  size_t first, lane, size;
};
SubGroupPlace place_of(size_t i, size_t global, size_t local, size_t width) {
  const size_t group_first = i / local * local, group_items = std::min(local, global - group_first);
  const size_t lid = i - group_first, sub_first = lid / width * width;
  return {group_first + sub_first, lid - sub_first, std::min(width, group_items - sub_first)};
}

// Whether work-item i takes part in the non-uniform tests' branch: about four in five, in an
// irregular pattern, so that each sub-group of more than one work-item has some lanes out.
bool takes_part(size_t i) { return (i * 7 + i / 3) % 5 != 0; }
const char* const kTakesPart = "((i * 7 + i / 3) % 5 != 0)";

class HalfCollectives : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!has_fp16(env.device)) GTEST_SKIP() << "no cl_khr_fp16";
  }
  bool has_sub_groups() { return info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0; }
  bool has_work_group_collectives() {
    return lists_feature(env.device, "__opencl_c_work_group_collective_functions");
  }
  // The sub-group size of full sub-groups.
  size_t width() {
    return max_sub_group_size(env);
  }
  // Runs `kernel(global const half* x, <extra buffers>..., global half* r)` over x.size()
  // work-items in 1-D groups of `local` and returns r, `per_item` halves per work-item.
  std::vector<Bits> run(cl_kernel kernel, const std::vector<Bits>& x, size_t per_item, size_t local,
                        const std::vector<Bits>& second = {}) {
    const size_t global = x.size();
    DeviceBuffer xs(env.context, global * sizeof(Bits), x.data()), rs(env.context, global * per_item * sizeof(Bits));
    std::unique_ptr<DeviceBuffer> ms;
    if (second.empty()) {
      set_args(kernel, xs.get(), rs.get());
    } else {
      ms = std::make_unique<DeviceBuffer>(env.context, second.size() * sizeof(Bits), second.data());
      set_args(kernel, xs.get(), ms->get(), rs.get());
    }
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    return read_buffer<Bits>(env.queue, rs.get(), global * per_item);
  }
};

// ---------------------------------------------------------------- sub-groups, uniform

// The ten results of the uniform kernels (sub_group_* and work_group_*), in order.
const char* const kResultNames[10] = {
    "broadcast",          "reduce_add",         "reduce_min",         "reduce_max",         "scan_inclusive_add",
    "scan_inclusive_min", "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"};

std::string sub_group_kernel() {
  return std::string(kFp16Pragmas) + R"(
    kernel void k(global const half* x, global half* r) {
      size_t i = get_global_id(0);
      half v = x[i];
      r[i * 10 + 0] = sub_group_broadcast(v, get_sub_group_size() - 1);
      r[i * 10 + 1] = sub_group_reduce_add(v);
      r[i * 10 + 2] = sub_group_reduce_min(v);
      r[i * 10 + 3] = sub_group_reduce_max(v);
      r[i * 10 + 4] = sub_group_scan_inclusive_add(v);
      r[i * 10 + 5] = sub_group_scan_inclusive_min(v);
      r[i * 10 + 6] = sub_group_scan_inclusive_max(v);
      r[i * 10 + 7] = sub_group_scan_exclusive_add(v);
      r[i * 10 + 8] = sub_group_scan_exclusive_min(v);
      r[i * 10 + 9] = sub_group_scan_exclusive_max(v);
    })";
}

// The ten results above for every work-item, folded in lane order on exact values.
std::vector<Bits> sub_group_reference(const std::vector<Bits>& x, size_t local, size_t w) {
  std::vector<Bits> want(x.size() * 10);
  for (size_t i = 0; i < x.size(); ++i) {
    const SubGroupPlace p = place_of(i, x.size(), local, w);
    Bits* out = &want[i * 10];
    out[0] = x[p.first + p.size - 1];
    const Op* ops[3] = {&kAdd, &kMin, &kMax};
    for (int o = 0; o < 3; ++o) {
      double all = value_of(x[p.first]), before = value_of(ops[o]->identity);
      for (size_t l = 1; l < p.size; ++l) all = ops[o]->apply(all, value_of(x[p.first + l]));
      for (size_t l = 0; l < p.lane; ++l) before = ops[o]->apply(before, value_of(x[p.first + l]));
      out[1 + o] = half_of(all);
      out[4 + o] = half_of(ops[o]->apply(before, value_of(x[i])));
      out[7 + o] = p.lane == 0 ? ops[o]->identity : half_of(before);
    }
  }
  return want;
}

TEST_P(HalfCollectives, SubGroupReductionsAndScansOfSmallIntegersAreExact) {
  if (!has_sub_groups()) GTEST_SKIP() << "no sub-groups";
  BuiltProgram program(env, sub_group_kernel(), "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t w = width();
  std::mt19937 rng(16);
  // Groups of 200 (a partial last sub-group) and a non-uniform range (a smaller last group).
  for (auto [global, local] : {std::pair<size_t, size_t>{1000, 200}, {250, 64}}) {
    // |sum| <= 32 * 43: an integer half holds exactly.
    std::vector<Bits> x(global);
    for (Bits& v : x) v = half_of(static_cast<int>(rng() % 64) - 20);
    const auto r = run(program.kernel("k"), x, 10, local);
    const auto want = sub_group_reference(x, local, w);
    int failures = 0;
    for (size_t i = 0; i < r.size(); ++i) {
      if (r[i] != want[i] && ++failures <= 8)
        ADD_FAILURE() << "sub_group_" << kResultNames[i % 10] << " at work-item " << i / 10 << " (groups of "
                      << local << "): got " << describe(r[i]) << ", want " << describe(want[i]);
    }
  }
}

// Min and max by value (either zero where both meet), infinities exactly.
TEST_P(HalfCollectives, SubGroupMinAndMaxOfSignedZerosAndInfinities) {
  if (!has_sub_groups()) GTEST_SKIP() << "no sub-groups";
  BuiltProgram program(env, sub_group_kernel(), "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 600, local = 200, w = width();
  const Bits pool[] = {kPlusZero, kMinusZero, kPlusInf, kMinusInf, half_of(-1), half_of(0.5)};
  std::mt19937 rng(17);
  std::vector<Bits> x(global);
  for (size_t i = 0; i < global; ++i) {
    // Every third sub-group holds zeros of both signs only.
    const bool zeros_only = (i % local / w) % 3 == 1;
    x[i] = zeros_only ? pool[rng() % 2] : pool[rng() % 6];
  }
  const auto r = run(program.kernel("k"), x, 10, local);
  const auto want = sub_group_reference(x, local, w);
  int failures = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    const size_t f = i % 10;
    if (f == 1 || f == 4 || f == 7) continue;  // sums of opposite infinities: NaN, not the point here
    const bool ok = f == 0 ? r[i] == want[i] : value_of(r[i]) == value_of(want[i]);
    if (!ok && ++failures <= 8)
      ADD_FAILURE() << "sub_group_" << kResultNames[f] << " at work-item " << i / 10 << ": got " << describe(r[i])
                    << ", want " << describe(want[i]);
  }
}

// -0 + -0 is -0: no +0 identity may slip into a sum (exclusive scans start at +0, the spec's
// identity); min and max of -0 alone are -0.
TEST_P(HalfCollectives, SubGroupSumsOfNegativeZerosStayNegative) {
  if (!has_sub_groups()) GTEST_SKIP() << "no sub-groups";
  BuiltProgram program(env, sub_group_kernel(), "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  const std::vector<Bits> x(global, kMinusZero);
  const auto r = run(program.kernel("k"), x, 10, local);
  int failures = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    const size_t item = i / 10, f = i % 10;
    const Bits identities[3] = {kPlusZero, kPlusInf, kMinusInf};  // of the exclusive add, min, max
    const bool identity = f >= 7 && place_of(item, global, local, w).lane == 0;
    const Bits want = identity ? identities[f - 7] : kMinusZero;
    if (r[i] != want && ++failures <= 8)
      ADD_FAILURE() << "sub_group_" << kResultNames[f] << " at work-item " << item << ": got " << describe(r[i])
                    << ", want " << describe(want);
  }
}

// ---------------------------------------------------------------- sub-groups, non-uniform

TEST_P(HalfCollectives, NonUniformArithmeticAndClusteredReductions) {
  if (!has_sub_groups() || !lists_extension(env.device, "cl_khr_subgroup_non_uniform_arithmetic") ||
      !lists_extension(env.device, "cl_khr_subgroup_clustered_reduce")) {
    GTEST_SKIP() << "no cl_khr_subgroup_non_uniform_arithmetic or _clustered_reduce";
  }
  const size_t w = width();
  std::vector<size_t> clusters;
  for (size_t c = 1; c <= w; c *= 2) clusters.push_back(c);
  const Op* ops[4] = {&kAdd, &kMul, &kMin, &kMax};
  const size_t per_item = 4 * (3 + clusters.size());
  std::string body;
  size_t f = 0;
  for (const Op* op : ops) {
    // Products take the second input, factors of -1, 1 and a few 2s, so that they stay exact.
    const std::string v = op == &kMul ? "m[i]" : "x[i]";
    for (const char* form : {"reduce", "scan_inclusive", "scan_exclusive"}) {
      body += "    r[i * N + " + std::to_string(f++) + "] = sub_group_non_uniform_" + form + "_" + op->name + "(" +
              v + ");\n";
    }
    for (size_t c : clusters) {
      body += "    r[i * N + " + std::to_string(f++) + "] = sub_group_clustered_reduce_" + op->name + "(" + v + ", " +
              std::to_string(c) + "u);\n";
    }
  }
  BuiltProgram program(env, std::string(kFp16Pragmas) + "#define N " + std::to_string(per_item) +
                                "\nkernel void k(global const half* x, global const half* m, global half* r) {\n"
                                "  size_t i = get_global_id(0);\n  if " + kTakesPart + " {\n" + body + "  }\n}\n",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 600, local = 200;
  std::mt19937 rng(18);
  std::vector<Bits> x(global), m(global);
  for (size_t i = 0; i < global; ++i) {
    x[i] = half_of(static_cast<int>(rng() % 100) - 40);  // |sum| <= 32 * 59
    m[i] = i % 8 == 0 ? half_of(2) : half_of(rng() % 2 ? -1 : 1);
  }
  const auto r = run(program.kernel("k"), x, per_item, local, m);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    if (!takes_part(i)) continue;
    const SubGroupPlace p = place_of(i, global, local, w);
    size_t g = 0;
    for (const Op* op : ops) {
      const std::vector<Bits>& in = op == &kMul ? m : x;
      // Folds over the lanes that take part; none before this one leaves the identity.
      auto fold = [&](size_t from, size_t to) {
        bool any = false;
        double acc = 0;
        for (size_t l = from; l < to; ++l) {
          if (!takes_part(p.first + l)) continue;
          acc = any ? op->apply(acc, value_of(in[p.first + l])) : value_of(in[p.first + l]);
          any = true;
        }
        return any ? half_of(acc) : op->identity;
      };
      std::vector<std::pair<std::string, Bits>> want = {
          {"reduce", fold(0, p.size)}, {"scan_inclusive", fold(0, p.lane + 1)}, {"scan_exclusive", fold(0, p.lane)}};
      for (size_t c : clusters) {
        const size_t begin = p.lane / c * c;
        want.push_back({"clustered_reduce(" + std::to_string(c) + ")", fold(begin, std::min(p.size, begin + c))});
      }
      for (const auto& [form, value] : want) {
        const Bits got = r[i * per_item + g++];
        if (got != value && ++failures <= 8)
          ADD_FAILURE() << form << "_" << op->name << " at work-item " << i << " (lane " << p.lane << " of " << p.size
                        << "): got " << describe(got) << ", want " << describe(value);
      }
    }
  }
}

// ---------------------------------------------------------------- shuffles and broadcasts

// Bit patterns a value conversion would change: NaNs with payloads (a signalling one too),
// both zeros, subnormals, infinities.
std::vector<Bits> awkward_halves(size_t count) {
  const Bits special[] = {0x7c01, 0xfe55, 0x7e00, kMinusZero, kPlusZero, 0x0001, 0x83ff, kPlusInf, kMinusInf, 0x7bff};
  std::vector<Bits> x(count);
  for (size_t i = 0; i < count; ++i) x[i] = i % 3 == 0 ? special[i / 3 % 10] : half_of(static_cast<double>(i % 97) / 4);
  return x;
}

TEST_P(HalfCollectives, ShufflesAndRotatesMoveTheBitsUnchanged) {
  if (!has_sub_groups()) GTEST_SKIP() << "no sub-groups";
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global const half* x, global half* r) {
      size_t i = get_global_id(0);
      half v = x[i];
      uint lane = get_sub_group_local_id(), size = get_sub_group_size();
      r[i * 8 + 0] = sub_group_shuffle(v, (lane * 7 + 3) % size);
      r[i * 8 + 1] = sub_group_shuffle_xor(v, 5u);
      r[i * 8 + 2] = sub_group_shuffle_up(v, 3u);
      r[i * 8 + 3] = sub_group_shuffle_down(v, 2u);
      r[i * 8 + 4] = sub_group_rotate(v, 5);
      r[i * 8 + 5] = sub_group_rotate(v, -3);
      r[i * 8 + 6] = sub_group_clustered_rotate(v, 3, 4u);
      if (lane % 2 == 0) r[i * 8 + 7] = sub_group_shuffle(v, lane ^ 2u);
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 1000, local = 200, w = width();
  const auto x = awkward_halves(global);
  const auto r = run(program.kernel("k"), x, 8, local);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    const SubGroupPlace p = place_of(i, global, local, w);
    const long s = static_cast<long>(p.size), ln = static_cast<long>(p.lane);
    auto at = [&](long l) { return x[p.first + static_cast<size_t>(l)]; };
    struct Check {
      bool defined;
      long from;
    } checks[8] = {{true, (ln * 7 + 3) % s},
                   {(ln ^ 5) < s, ln ^ 5},
                   {ln >= 3, ln - 3},
                   {ln + 2 < s, ln + 2},
                   {true, ((ln + 5) % s + s) % s},
                   {true, ((ln - 3) % s + s) % s},
                   {s % 4 == 0, (ln & ~3L) + ((ln + 3) & 3)},
                   {ln % 2 == 0 && (ln ^ 2) < s, ln ^ 2}};
    static const char* names[8] = {"shuffle",      "shuffle_xor", "shuffle_up",       "shuffle_down",
                                   "rotate(5)",    "rotate(-3)",  "clustered_rotate", "shuffle in divergent code"};
    for (int f = 0; f < 8; ++f) {
      if (!checks[f].defined) continue;
      const Bits got = r[i * 8 + f], want = at(checks[f].from);
      if (got != want && ++failures <= 8)
        ADD_FAILURE() << "sub_group_" << names[f] << " at work-item " << i << " (lane " << p.lane << " of " << p.size
                      << "): got 0x" << std::hex << got << ", want 0x" << want;
    }
  }
}

// cl_khr_subgroup_extended_types' and cl_khr_subgroup_ballot's broadcasts of half vectors
// (half3 travels in a half4 buffer).
TEST_P(HalfCollectives, VectorBroadcasts) {
  if (!has_sub_groups()) GTEST_SKIP() << "no sub-groups";
  const bool ballot = lists_extension(env.device, "cl_khr_subgroup_ballot");
  std::string body;
  for (const char* n : {"2", "4", "8", "16"}) {
    body += std::string("  out") + n + "[i * 2] = sub_group_broadcast(in" + n + "[i], last);\n";
    if (ballot)
      body += std::string("  out") + n + "[i * 2 + 1] = sub_group_non_uniform_broadcast(in" + n + "[i], last);\n";
  }
  body += "  out3[i * 2] = (half4)(sub_group_broadcast(in3[i].xyz, last), 0);\n";
  if (ballot) body += "  out3[i * 2 + 1] = (half4)(sub_group_non_uniform_broadcast(in3[i].xyz, last), 0);\n";
  BuiltProgram program(env, std::string(kFp16Pragmas) +
                                "kernel void k(global const half2* in2, global const half4* in3, global const half4* "
                                "in4, global const half8* in8, global const half16* in16, global half2* out2, global "
                                "half4* out3, global half4* out4, global half8* out8, global half16* out16) {\n"
                                "  size_t i = get_global_id(0);\n  uint last = get_sub_group_size() - 1;\n" +
                                body + "}\n",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  const size_t widths[5] = {2, 4, 4, 8, 16};  // half2, half3 (as half4), half4, half8, half16
  std::vector<std::vector<Bits>> in(5);
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  for (int v = 0; v < 5; ++v) {
    in[v] = awkward_halves(global * widths[v]);
    std::rotate(in[v].begin(), in[v].begin() + v, in[v].end());
    buffers.push_back(std::make_unique<DeviceBuffer>(env.context, in[v].size() * sizeof(Bits), in[v].data()));
  }
  for (int v = 0; v < 5; ++v) {
    const std::vector<Bits> untouched(global * widths[v] * 2, 0xdead);
    buffers.push_back(std::make_unique<DeviceBuffer>(env.context, untouched.size() * sizeof(Bits), untouched.data()));
  }
  cl_kernel kernel = program.kernel("k");
  for (cl_uint a = 0; a < 10; ++a)
    ASSERT_EQ(clSetKernelArg(kernel, a, sizeof(cl_mem), buffers[a]->address()), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  static const char* names[5] = {"half2", "half3", "half4", "half8", "half16"};
  int failures = 0;
  for (int v = 0; v < 5; ++v) {
    const size_t n = widths[v], components = v == 1 ? 3 : n;
    const auto r = read_buffer<Bits>(env.queue, buffers[5 + v]->get(), global * n * 2);
    for (size_t i = 0; i < global; ++i) {
      const SubGroupPlace p = place_of(i, global, local, w);
      const size_t source = p.first + p.size - 1;
      for (int form = 0; form < (ballot ? 2 : 1); ++form) {
        for (size_t c = 0; c < components; ++c) {
          const Bits got = r[(i * 2 + form) * n + c], want = in[v][source * n + c];
          if (got != want && ++failures <= 8)
            ADD_FAILURE() << (form ? "sub_group_non_uniform_broadcast(" : "sub_group_broadcast(") << names[v]
                          << ") at work-item " << i << "." << c << ": got 0x" << std::hex << got << ", want 0x" << want;
        }
      }
    }
  }
}

// sub_group_broadcast_first, sub_group_non_uniform_broadcast and
// sub_group_non_uniform_all_equal among the lanes that take part.
TEST_P(HalfCollectives, NonUniformBroadcastsAndVotes) {
  if (!has_sub_groups() || !lists_extension(env.device, "cl_khr_subgroup_ballot") ||
      !lists_extension(env.device, "cl_khr_subgroup_non_uniform_vote")) {
    GTEST_SKIP() << "no cl_khr_subgroup_ballot or _non_uniform_vote";
  }
  BuiltProgram program(env, std::string(kFp16Pragmas) + R"(
    kernel void k(global const half* x, global const half* e, global half* r) {
      size_t i = get_global_id(0);
      if )" + kTakesPart + R"( {
        half v = x[i];
        r[i * 3] = sub_group_broadcast_first(v);
        r[i * 3 + 1] = sub_group_non_uniform_broadcast(v, sub_group_ballot_find_msb(sub_group_ballot(1)));
        r[i * 3 + 2] = sub_group_non_uniform_all_equal(e[i]) ? 1.0h : 0.0h;
      }
    })",
                       "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const size_t global = 400, local = 200, w = width();
  const auto x = awkward_halves(global);
  // All equal (1.5) in even sub-groups; odd ones have a 2.5 on their last lane where it takes part.
  std::vector<Bits> e(global, half_of(1.5));
  for (size_t i = 0; i < global; ++i) {
    const SubGroupPlace p = place_of(i, global, local, w);
    if ((i % local / w) % 2 == 1 && p.lane + 1 == p.size && takes_part(i)) e[i] = half_of(2.5);
  }
  const auto r = run(program.kernel("k"), x, 3, local, e);
  int failures = 0;
  for (size_t i = 0; i < global; ++i) {
    if (!takes_part(i)) continue;
    const SubGroupPlace p = place_of(i, global, local, w);
    size_t first = p.size, last = 0;
    bool equal = true;
    for (size_t l = 0; l < p.size; ++l) {
      if (!takes_part(p.first + l)) continue;
      first = std::min(first, l);
      last = l;
      equal = equal && e[p.first + l] == e[i];
    }
    const Bits want[3] = {x[p.first + first], x[p.first + last], equal ? kOne : kPlusZero};
    static const char* names[3] = {"broadcast_first", "non_uniform_broadcast", "non_uniform_all_equal"};
    for (int f = 0; f < 3; ++f) {
      if (r[i * 3 + f] != want[f] && ++failures <= 8)
        ADD_FAILURE() << "sub_group_" << names[f] << " at work-item " << i << " (lane " << p.lane << " of " << p.size
                      << "): got 0x" << std::hex << r[i * 3 + f] << ", want 0x" << want[f];
    }
  }
}

// ---------------------------------------------------------------- work-groups

struct Shape {
  std::vector<size_t> global, local;
};

// The global linear ids of each group's work-items, in local linear order.
std::vector<std::vector<size_t>> groups_of(const Shape& shape) {
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  for (size_t d = 0; d < shape.global.size(); ++d) {
    global[d] = shape.global[d];
    local[d] = shape.local[d];
  }
  std::vector<std::vector<size_t>> groups;
  for (size_t gz = 0; gz < global[2]; gz += local[2])
    for (size_t gy = 0; gy < global[1]; gy += local[1])
      for (size_t gx = 0; gx < global[0]; gx += local[0]) {
        std::vector<size_t> members;
        for (size_t z = gz; z < std::min(global[2], gz + local[2]); ++z)
          for (size_t y = gy; y < std::min(global[1], gy + local[1]); ++y)
            for (size_t x = gx; x < std::min(global[0], gx + local[0]); ++x)
              members.push_back((z * global[1] + y) * global[0] + x);
        groups.push_back(members);
      }
  return groups;
}

const char* const kWorkGroupKernel = R"(
    kernel void k(global const half* x, global half* r, uint bx, uint by, uint bz) {
      size_t g = get_global_linear_id();
      half v = x[g];
      half b;
      if (get_work_dim() == 1) b = work_group_broadcast(v, bx);
      else if (get_work_dim() == 2) b = work_group_broadcast(v, bx, by);
      else b = work_group_broadcast(v, bx, by, bz);
      r[g * 10 + 0] = b;
      r[g * 10 + 1] = work_group_reduce_add(v);
      r[g * 10 + 2] = work_group_reduce_min(v);
      r[g * 10 + 3] = work_group_reduce_max(v);
      r[g * 10 + 4] = work_group_scan_inclusive_add(v);
      r[g * 10 + 5] = work_group_scan_inclusive_min(v);
      r[g * 10 + 6] = work_group_scan_inclusive_max(v);
      r[g * 10 + 7] = work_group_scan_exclusive_add(v);
      r[g * 10 + 8] = work_group_scan_exclusive_min(v);
      r[g * 10 + 9] = work_group_scan_exclusive_max(v);
    })";

class HalfWorkGroupCollectives : public HalfCollectives {
 protected:
  void SetUp() override {
    HalfCollectives::SetUp();
    if (IsSkipped()) return;
    if (!has_work_group_collectives()) GTEST_SKIP() << "no __opencl_c_work_group_collective_functions";
    program_ = std::make_unique<BuiltProgram>(env, std::string(kFp16Pragmas) + kWorkGroupKernel, "-cl-std=CL3.0");
    ASSERT_TRUE(*program_);
  }
  // One work-item to one group, a part of a warp, several warps with a partial last one,
  // 2-D and 3-D, the smaller last group of a non-uniform range, the largest group.
  std::vector<Shape> shapes() {
    size_t largest = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(program_->kernel("k"), env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof largest,
                                       &largest, nullptr),
              CL_SUCCESS);
    return {Shape{{1}, {1}},     Shape{{21}, {7}},         Shape{{800}, {200}},         Shape{{1000}, {256}},
            Shape{{250}, {64}},  Shape{{48, 16}, {16, 8}}, Shape{{12, 8, 8}, {4, 4, 4}}, Shape{{largest * 2}, {largest}}};
  }
  // Runs the kernel over `shape` with inputs `make(group, position in group)` and checks
  // each result against the group's exact folds with `compare(result index, got, want)`.
  template <class Make, class Compare>
  void check(const Shape& shape, Make make, Compare compare, const char* what) {
    size_t items = 1;
    for (size_t g : shape.global) items *= g;
    const auto groups = groups_of(shape);
    std::vector<Bits> x(items);
    for (size_t n = 0; n < groups.size(); ++n)
      for (size_t k = 0; k < groups[n].size(); ++k) x[groups[n][k]] = make(n, k);
    // A broadcast source every group has, the smaller last group of a 1-D range included.
    cl_uint b[3] = {0, 0, 0};
    for (size_t d = 0; d < shape.local.size(); ++d) {
      const size_t last = shape.global[d] % shape.local[d];
      b[d] = static_cast<cl_uint>((shape.local[d] * 5 + 3) / 7 % (last ? last : shape.local[d]));
    }
    cl_kernel kernel = program_->kernel("k");
    DeviceBuffer xs(env.context, items * sizeof(Bits), x.data()), rs(env.context, items * 10 * sizeof(Bits));
    set_args(kernel, xs.get(), rs.get(), b[0], b[1], b[2]);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, static_cast<cl_uint>(shape.global.size()), nullptr,
                                     shape.global.data(), shape.local.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    const auto r = read_buffer<Bits>(env.queue, rs.get(), items * 10);
    int failures = 0;
    for (const auto& members : groups) {
      const size_t extent_x = shape.global.size() == 1 ? members.size() : shape.local[0];
      const size_t extent_y = shape.global.size() > 1 ? shape.local[1] : 1;
      const size_t source = (b[2] * extent_y + b[1]) * extent_x + b[0];
      ASSERT_LT(source, members.size());
      const Op* ops[3] = {&kAdd, &kMin, &kMax};
      double all[3], running[3] = {0, 0, 0};
      for (int o = 0; o < 3; ++o) {
        all[o] = value_of(x[members[0]]);
        for (size_t k = 1; k < members.size(); ++k) all[o] = ops[o]->apply(all[o], value_of(x[members[k]]));
      }
      for (size_t k = 0; k < members.size(); ++k) {
        const size_t i = members[k];
        Bits want[10];
        want[0] = x[members[source]];
        for (int o = 0; o < 3; ++o) {
          want[1 + o] = half_of(all[o]);
          want[7 + o] = k == 0 ? ops[o]->identity : half_of(running[o]);
          running[o] = k == 0 ? value_of(x[i]) : ops[o]->apply(running[o], value_of(x[i]));
          want[4 + o] = half_of(running[o]);
        }
        for (int f = 0; f < 10; ++f) {
          if (!compare(f, r[i * 10 + f], want[f]) && ++failures <= 8)
            ADD_FAILURE() << what << ": work_group_" << kResultNames[f] << " at work-item " << i << " (" << k << " of "
                          << members.size() << " in a " << shape.global.size() << "-D launch): got "
                          << describe(r[i * 10 + f]) << ", want " << describe(want[f]);
        }
      }
    }
  }
  std::unique_ptr<BuiltProgram> program_;
};

TEST_P(HalfWorkGroupCollectives, OfSmallIntegersAreExact) {
  for (const Shape& shape : shapes()) {
    size_t local_items = 1;
    for (size_t l : shape.local) local_items *= l;
    // Every partial sum stays within +-2048, where half holds every integer: each value's
    // magnitude comes out of a budget of 2048 per group.
    std::mt19937 rng(static_cast<unsigned>(local_items));
    std::vector<int> budget;
    auto make = [&](size_t group, size_t) {
      if (budget.size() <= group) budget.resize(group + 1, 2048);
      const int m = std::min(7, budget[group]);
      const int v = static_cast<int>(rng() % (2 * m + 1)) - m;
      budget[group] -= std::abs(v);
      return half_of(v);
    };
    check(shape, make, [](int, Bits got, Bits want) { return got == want; }, "small integers");
  }
}

TEST_P(HalfWorkGroupCollectives, MinAndMaxOfSignedZerosAndInfinities) {
  const Bits pool[] = {kPlusZero, kMinusZero, kPlusInf, kMinusInf, half_of(-1), half_of(0.5)};
  for (const Shape& shape : shapes()) {
    std::mt19937 rng(19);
    // Every third group holds zeros of both signs only.
    auto make = [&](size_t group, size_t) { return group % 3 == 1 ? pool[rng() % 2] : pool[rng() % 6]; };
    // Sums of opposite infinities are NaN, not the point here; zeros of either sign are the
    // min and max of zeros of both signs.
    auto compare = [](int f, Bits got, Bits want) {
      return f == 1 || f == 4 || f == 7 || (f == 0 ? got == want : value_of(got) == value_of(want));
    };
    check(shape, make, compare, "signed zeros and infinities");
  }
}

TEST_P(HalfWorkGroupCollectives, SumsOfNegativeZerosStayNegative) {
  for (const Shape& shape : shapes()) {
    // The exact folds of -0 are -0 (the reference's exclusive scans start at +0, the identity).
    check(shape, [](size_t, size_t) { return kMinusZero; }, [](int, Bits got, Bits want) { return got == want; },
          "negative zeros");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HalfCollectives, ::testing::ValuesIn(all_devices()), device_name);
INSTANTIATE_TEST_SUITE_P(EveryDevice, HalfWorkGroupCollectives, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
