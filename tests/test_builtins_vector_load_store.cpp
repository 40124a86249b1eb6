// vloadn/vstoren (OpenCL C 3.0, 6.15.7) for several element types and every width, from and
// to global, local, private and constant memory, at unaligned element offsets; and the
// aligned half forms vloada_halfn/vstorea_halfn (float and double), whose 3-component
// form strides by 4.
#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class VectorLoadStore : public DeviceTest {};

template <class T>
void check_vload_vstore(const Env& env) {
  const std::string t = cl_name<T>();
  std::string source = kFp64Pragma;
  for (int n : {2, 3, 4, 8, 16}) {
    const std::string N = std::to_string(n), V = t + N;
    // Global to global at offset g (unaligned for the element type's vector), through
    // local memory, private memory and a constant buffer.
    source += "kernel void k" + N + "(global const " + t + "* in, constant " + t + "* c, global " + t + "* out, global " + t +
              "* out2) {\n  size_t g = get_global_id(0), l = get_local_id(0);\n  local " + t + " scratch[16 * 16];\n"
              "  " + V + " v = vload" + N + "(g, in + 1);\n  vstore" + N + "(v, l, scratch);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
              "  " + V + " w = vload" + N + "(l, scratch);\n  " + t + " priv[16];\n  vstore" + N + "(w, 0, priv);\n"
              "  vstore" + N + "(vload" + N + "(0, priv), g, out);\n  vstore" + N + "(vload" + N + "(g, c), g, out2);\n}\n";
  }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t items = 64;
  Random rng(2);
  std::vector<T> in(items * 16 + 1);
  for (auto& v : in) v = static_cast<T>(rng() % 100000);
  for (int n : {2, 3, 4, 8, 16}) {
    Launch launch(env, program.kernel("k" + std::to_string(n)));
    launch.in(in).in(in).template out<T>(items * n).template out<T>(items * n);
    launch.run(items, 16);
    auto out = launch.template result<T>(2), out2 = launch.template result<T>(3);
    for (size_t k = 0; k < items * n; ++k) {
      ASSERT_EQ(out[k], in[k + 1]) << t << n << " at " << k;
      ASSERT_EQ(out2[k], in[k]) << t << n << " (constant) at " << k;
    }
  }
}

TEST_P(VectorLoadStore, Char) { check_vload_vstore<int8_t>(env); }
TEST_P(VectorLoadStore, Ushort) { check_vload_vstore<uint16_t>(env); }
TEST_P(VectorLoadStore, Int) { check_vload_vstore<int32_t>(env); }
TEST_P(VectorLoadStore, Ulong) { check_vload_vstore<uint64_t>(env); }
TEST_P(VectorLoadStore, Float) { check_vload_vstore<float>(env); }
TEST_P(VectorLoadStore, Double) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "no fp64";
  check_vload_vstore<double>(env);
}

// vloada_halfn/vstorea_halfn: element offset g * n, except n = 3 which uses g * 4; and
// vload_halfn/vstore_halfn with a packed stride of n, from float and double.
TEST_P(VectorLoadStore, AlignedAndPackedHalfVectors) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "needs fp64";
  std::string source = kFp64Pragma;
  for (int n : {2, 3, 4, 8, 16}) {
    const std::string N = std::to_string(n);
    source += "kernel void k" + N + "(global const half* h, global float* f, global half* a, global half* p, global "
              "half* ad, global const double* d) {\n  size_t g = get_global_id(0);\n"
              "  float" + N + " v = vloada_half" + N + "(g, h);\n  vstore" + N + "(v, g, f);\n"
              "  vstorea_half" + N + "_rtz(v, g, a);\n  vstore_half" + N + "(vload_half" + N + "(g, h), g, p);\n"
              "  vstorea_half" + N + "_rtp(vload" + N + "(g, d), g, ad);\n}\n";
  }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  const size_t items = 32;
  Random rng(6);
  std::vector<uint16_t> h(items * 16);
  for (auto& v : h) v = uint16_t(rng() % 0x7c00) | uint16_t(rng() & 0x8000);
  std::vector<double> d(items * 16);
  for (auto& v : d) v = random_uniform<double>(rng, -1000, 1000);
  for (int n : {2, 3, 4, 8, 16}) {
    const int stride = n == 3 ? 4 : n;
    Launch launch(env, program.kernel("k" + std::to_string(n)));
    launch.in(h).out<float>(items * n).out<uint16_t>(items * 16, 0xdead).out<uint16_t>(items * 16, 0xdead)
        .out<uint16_t>(items * 16, 0xdead).in(d);
    launch.run(items);
    auto f = launch.result<float>(1);
    auto a = launch.result<uint16_t>(2), p = launch.result<uint16_t>(3), ad = launch.result<uint16_t>(4);
    for (size_t g = 0; g < items; ++g)
      for (int k = 0; k < n; ++k) {
        ASSERT_EQ(f[g * n + k], float(half_to_double(h[g * stride + k]))) << "vloada_half" << n << " item " << g;
        ASSERT_EQ(a[g * stride + k], h[g * stride + k]) << "vstorea_half" << n << " item " << g;
        ASSERT_EQ(p[g * n + k], h[g * n + k]) << "vload_half/vstore_half" << n << " item " << g;
        ASSERT_EQ(ad[g * stride + k], double_to_half(d[g * n + k], Rounding::kUp)) << "vstorea_half" << n << "_rtp(double)";
      }
    if (n == 3) {  // the padding element of each aligned 3-vector is not written
      for (size_t g = 0; g < items; ++g) ASSERT_EQ(a[g * 4 + 3], 0xdead);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, VectorLoadStore, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
