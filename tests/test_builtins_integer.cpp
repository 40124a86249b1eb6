// Integer builtins (OpenCL C 3.0, 6.15.3) on every integer type, scalar and vector, on
// edge values (min, max, 0, -1, bit patterns) crossed with each other and random values,
// exactly against a 128-bit host reference.
#include <functional>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

using Wide = __int128;

struct IntCase {
  std::string name;
  int arity;
  bool unsigned_result;  // abs and abs_diff return the unsigned type
  // Reference on the exact values; bits is the type's width, is_signed its signedness.
  std::function<Wide(Wide, Wide, Wide, int bits, bool is_signed)> reference;
};

Wide wrap(Wide v, int bits, bool is_signed) {
  const Wide modulus = Wide(1) << bits;
  v %= modulus;
  if (v < 0) v += modulus;
  if (is_signed && v >= modulus / 2) v -= modulus;
  return v;
}
Wide lo_of(int bits, bool s) { return s ? -(Wide(1) << (bits - 1)) : 0; }
Wide hi_of(int bits, bool s) { return s ? (Wide(1) << (bits - 1)) - 1 : (Wide(1) << bits) - 1; }
Wide saturate(Wide v, int bits, bool s) { return std::min(std::max(v, lo_of(bits, s)), hi_of(bits, s)); }
Wide floor_shift(Wide v, int k) { return v >= 0 ? v >> k : -((-v + (Wide(1) << k) - 1) >> k); }

// The upper n bits of the 2n-bit product; two 64-bit unsigned values need unsigned 128-bit
// arithmetic (their product overflows a signed __int128).
Wide high_half(Wide a, Wide b, int n, bool is_signed) {
  if (n == 64 && !is_signed) return Wide((static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b)) >> 64);
  return floor_shift(a * b, n);
}
Wide unsigned_bits(Wide v, int bits) { return wrap(v, bits, false); }

std::vector<IntCase> integer_cases() {
  return {
      {"abs", 1, true, [](Wide a, Wide, Wide, int, bool) { return a < 0 ? -a : a; }},
      {"abs_diff", 2, true, [](Wide a, Wide b, Wide, int, bool) { return a > b ? a - b : b - a; }},
      {"add_sat", 2, false, [](Wide a, Wide b, Wide, int n, bool s) { return saturate(a + b, n, s); }},
      {"sub_sat", 2, false, [](Wide a, Wide b, Wide, int n, bool s) { return saturate(a - b, n, s); }},
      {"hadd", 2, false, [](Wide a, Wide b, Wide, int, bool) { return floor_shift(a + b, 1); }},
      {"rhadd", 2, false, [](Wide a, Wide b, Wide, int, bool) { return floor_shift(a + b + 1, 1); }},
      {"max", 2, false, [](Wide a, Wide b, Wide, int, bool) { return std::max(a, b); }},
      {"min", 2, false, [](Wide a, Wide b, Wide, int, bool) { return std::min(a, b); }},
      {"clamp", 3, false, [](Wide a, Wide b, Wide c, int, bool) { return std::min(std::max(a, b), c); }},
      {"mul_hi", 2, false, [](Wide a, Wide b, Wide, int n, bool s) { return wrap(high_half(a, b, n, s), n, s); }},
      {"mad_hi", 3, false,
       [](Wide a, Wide b, Wide c, int n, bool s) { return wrap(high_half(a, b, n, s) + c, n, s); }},
      {"mad_sat", 3, false, [](Wide a, Wide b, Wide c, int n, bool s) {
         // Unsigned 64-bit products need all 128 bits: compute them unsigned.
         if (n == 64 && !s) {
           using UWide = unsigned __int128;
           UWide r = UWide(a) * UWide(b) + UWide(c);
           return r > UWide(hi_of(n, s)) ? hi_of(n, s) : Wide(r);
         }
         return saturate(a * b + c, n, s);
       }},
      {"rotate", 2, false, [](Wide a, Wide b, Wide, int n, bool s) {
         Wide u = unsigned_bits(a, n);
         int k = int(unsigned_bits(b, n) % n);
         Wide r = k == 0 ? u : ((u << k) | (u >> (n - k))) & ((Wide(1) << n) - 1);
         return wrap(r, n, s);
       }},
      {"clz", 1, false, [](Wide a, Wide, Wide, int n, bool) {
         Wide u = unsigned_bits(a, n);
         int count = 0;
         for (int bit = n - 1; bit >= 0 && !((u >> bit) & 1); --bit) ++count;
         return Wide(count);
       }},
      {"ctz", 1, false, [](Wide a, Wide, Wide, int n, bool) {
         Wide u = unsigned_bits(a, n);
         int count = 0;
         for (int bit = 0; bit < n && !((u >> bit) & 1); ++bit) ++count;
         return Wide(count);
       }},
      {"popcount", 1, false, [](Wide a, Wide, Wide, int n, bool) {
         Wide u = unsigned_bits(a, n);
         int count = 0;
         for (int bit = 0; bit < n; ++bit) count += int((u >> bit) & 1);
         return Wide(count);
       }},
  };
}

template <class T>
std::vector<T> integer_inputs(size_t count, uint64_t seed) {
  using L = std::numeric_limits<T>;
  std::vector<T> edges = {0, 1, T(-1), L::min(), L::max(), T(L::min() + 1), T(L::max() - 1), 2, T(-2), 3,
                          T(0x55), T(0xaa), T(L::max() / 2), T(L::max() / 2 + 1), 7, 8};
  Random rng(seed);
  std::vector<T> values(count);
  for (auto& v : values) v = (rng() % 3 == 0) ? edges[rng() % edges.size()] : static_cast<T>(rng());
  return values;
}

template <class T>
void check_integer_type(const Env& env) {
  using U = std::make_unsigned_t<T>;
  const int bits = 8 * sizeof(T);
  const bool is_signed = std::is_signed_v<T>;
  const std::string t = cl_name<T>(), u = cl_name<U>();
  const auto cases = integer_cases();
  // One kernel per width runs every function: a few large kernels build faster than many.
  const std::vector<int> widths = {1, 2, 3, 4, 8, 16};
  const size_t count = 4800;  // divisible by every width
  std::string source;
  for (int w : widths) {
    const std::string ws = w == 1 ? "" : std::to_string(w);
    auto load = [&](const char* p) { return w == 1 ? std::string(p) + "[i]" : "vload" + ws + "(i, " + p + ")"; };
    source += "kernel void w" + std::to_string(w) + "(global const " + t + "* a, global const " + t +
              "* b, global const " + t + "* c, global " + t + "* r, uint n) {\n  size_t i = get_global_id(0);\n";
    for (size_t k = 0; k < cases.size(); ++k) {
      const auto& ic = cases[k];
      std::string args = load("a");
      if (ic.arity > 1) args += ", " + load("b");
      if (ic.arity > 2) args += ", " + load("c");
      if (ic.name == "clamp") args = load("a") + ", min(" + load("b") + ", " + load("c") + "), max(" + load("b") + ", " + load("c") + ")";
      const std::string call = ic.name + "(" + args + ")";
      const std::string out = ic.unsigned_result ? "((global " + u + "*)(r + " + std::to_string(k) + " * n))"
                                                 : "(r + " + std::to_string(k) + " * n)";
      source += w == 1 ? "  " + out + "[i] = " + call + ";\n" : "  vstore" + ws + "(" + call + ", i, " + out + ");\n";
    }
    source += "}\n";
  }
  BuiltProgram program(env, source, "-cl-std=CL3.0");  // ctz is OpenCL C 2.0+
  ASSERT_TRUE(program);
  auto a = integer_inputs<T>(count, 11), b = integer_inputs<T>(count, 1000), cc = integer_inputs<T>(count, 5000);
  for (int w : widths) {
    Launch launch(env, program.kernel("w" + std::to_string(w)));
    launch.in(a).in(b).in(cc).template out<T>(count * cases.size()).value(cl_uint(count));
    launch.run(count / w);
    auto r = launch.template result<T>(3);
    for (size_t k = 0; k < cases.size(); ++k) {
      const auto& ic = cases[k];
      int failures = 0;
      for (size_t i = 0; i < count; ++i) {
        const T lo = std::min(b[i], cc[i]), hi = std::max(b[i], cc[i]);
        const Wide want = ic.name == "clamp" ? ic.reference(a[i], lo, hi, bits, is_signed)
                                             : ic.reference(a[i], b[i], cc[i], bits, is_signed);
        const T expected = static_cast<T>(static_cast<U>(want));
        const T got = r[k * count + i];
        if (got != expected && ++failures <= 5)
          ADD_FAILURE() << ic.name << "(" << t << (w > 1 ? std::to_string(w) : "") << ") a=" << hex(a[i])
                        << " b=" << hex(b[i]) << " c=" << hex(cc[i]) << ": got " << hex(got) << ", want "
                        << hex(expected);
      }
    }
  }
}

class Integer : public DeviceTest {};

TEST_P(Integer, Char) { check_integer_type<int8_t>(env); }
TEST_P(Integer, Uchar) { check_integer_type<uint8_t>(env); }
TEST_P(Integer, Short) { check_integer_type<int16_t>(env); }
TEST_P(Integer, Ushort) { check_integer_type<uint16_t>(env); }
TEST_P(Integer, Int) { check_integer_type<int32_t>(env); }
TEST_P(Integer, Uint) { check_integer_type<uint32_t>(env); }
TEST_P(Integer, Long) { check_integer_type<int64_t>(env); }
TEST_P(Integer, Ulong) { check_integer_type<uint64_t>(env); }

// upsample, mul24 and mad24 (24-bit operands), scalar and vector.
TEST_P(Integer, UpsampleMul24Mad24) {
  BuiltProgram program(env, R"(
    kernel void k(global const char* hc, global const uchar* lc, global short* rs,
                  global const short* hs, global const ushort* ls, global int* ri,
                  global const int* hi, global const uint* li, global long* rl,
                  global const int* x, global const int* y, global int* m24, global uint* um24) {
      size_t i = get_global_id(0);
      rs[i] = upsample(hc[i], lc[i]);
      vstore4(upsample(vload4(i, hs), vload4(i, ls)), i, ri);
      rl[i] = upsample(hi[i], li[i]);
      int a = x[i] >> 8, b = y[i] >> 8;  /* 24-bit signed operands */
      m24[i] = mul24(a, b) + mad24(a, b, 7);
      um24[i] = mul24((uint)a & 0xffffffu, (uint)b & 0xffffffu) + mad24((uint)a & 0xffffffu, 3u, 1u);
    })");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  const size_t n = 1024;
  Random rng(7);
  std::vector<int8_t> hc(n);
  std::vector<uint8_t> lc(n);
  std::vector<int16_t> hs(4 * n);
  std::vector<uint16_t> ls(4 * n);
  std::vector<int32_t> hi(n), x(n), y(n);
  std::vector<uint32_t> li(n);
  for (size_t i = 0; i < n; ++i) hc[i] = int8_t(rng()), lc[i] = uint8_t(rng()), hi[i] = int32_t(rng()),
                                 li[i] = uint32_t(rng()), x[i] = int32_t(rng()), y[i] = int32_t(rng());
  for (size_t i = 0; i < 4 * n; ++i) hs[i] = int16_t(rng()), ls[i] = uint16_t(rng());
  Launch launch(env, kernel);
  launch.in(hc).in(lc).out<int16_t>(n).in(hs).in(ls).out<int32_t>(4 * n).in(hi).in(li).out<int64_t>(n).in(x).in(y)
      .out<int32_t>(n).out<uint32_t>(n);
  launch.run(n);
  auto rs = launch.result<int16_t>(2);
  auto ri = launch.result<int32_t>(5);
  auto rl = launch.result<int64_t>(8);
  auto m24 = launch.result<int32_t>(11);
  auto um24 = launch.result<uint32_t>(12);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(uint16_t(rs[i]), uint16_t((uint8_t(hc[i]) << 8) | lc[i])) << i;
    ASSERT_EQ(uint64_t(rl[i]), (uint64_t(uint32_t(hi[i])) << 32) | li[i]) << i;
    const int32_t a = x[i] >> 8, b = y[i] >> 8;
    ASSERT_EQ(m24[i], int32_t(uint32_t(int64_t(a) * b) * 2 + 7)) << i;
    const uint32_t ua = uint32_t(a) & 0xffffff, ub = uint32_t(b) & 0xffffff;
    ASSERT_EQ(um24[i], ua * ub + ua * 3 + 1) << i;
  }
  for (size_t i = 0; i < 4 * n; ++i)
    ASSERT_EQ(uint32_t(ri[i]), (uint32_t(uint16_t(hs[i])) << 16) | ls[i]) << i;
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Integer, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
