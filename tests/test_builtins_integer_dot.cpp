// cl_khr_integer_dot_product: dot and dot_acc_sat of every signedness pair, on vectors and
// packed into uints, over edge values (the extremes of each byte and accumulators at the
// edges of saturation), exactly against a host reference; the device queries; the same
// functions from SPIR-V (OpSDot and friends); and an OpenCL C 1.2 program that uses them.
#include <CL/cl_ext.h>

#include <climits>
#include <random>

#include "support/kernel_support.h"
#include "support/spirv_tools.h"

using namespace cucl_test;

namespace {


class IntegerDot : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    if (!lists_extension(env.device, "cl_khr_integer_dot_product")) GTEST_SKIP() << "no cl_khr_integer_dot_product";
  }
};

int64_t byte_of(uint32_t word, int i, bool is_signed) {
  const uint32_t b = (word >> (8 * i)) & 0xff;
  return is_signed ? static_cast<int8_t>(b) : static_cast<int64_t>(b);
}

int64_t dot_reference(uint32_t a, uint32_t b, bool a_signed, bool b_signed) {
  int64_t sum = 0;
  for (int i = 0; i < 4; ++i) sum += byte_of(a, i, a_signed) * byte_of(b, i, b_signed);
  return sum;
}

int64_t saturate(int64_t value, bool is_signed) {
  const int64_t lo = is_signed ? INT32_MIN : 0, hi = is_signed ? INT32_MAX : UINT32_MAX;
  return std::min(hi, std::max(lo, value));
}

// Inputs: every byte an extreme or a random value, accumulators near the saturation edges.
struct Inputs {
  std::vector<uint32_t> a, b, acc;
};

Inputs make_inputs(size_t n) {
  std::mt19937 rng(7);
  const uint8_t edges[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff};
  const uint32_t accs[] = {0, 1, 0x7fffffffu, 0x7fff0000u, 0x80000000u, 0x80000100u, 0xffffffffu, 0xfffff000u, 12345};
  Inputs in;
  for (size_t i = 0; i < n; ++i) {
    uint32_t a = 0, b = 0;
    for (int k = 0; k < 4; ++k) {
      const uint32_t x = i % 3 == 0 ? rng() & 0xff : edges[rng() % 6], y = i % 5 == 0 ? rng() & 0xff : edges[rng() % 6];
      a |= x << (8 * k);
      b |= y << (8 * k);
    }
    in.a.push_back(a);
    in.b.push_back(b);
    in.acc.push_back(accs[i % 9]);
  }
  return in;
}

struct Pair {
  const char* suffix;  // uu, ss, us, su
  const char* vector_a;
  const char* vector_b;
  bool a_signed, b_signed;
  const char* result;
};
constexpr Pair kPairs[] = {{"uu", "uchar4", "uchar4", false, false, "uint"},
                           {"ss", "char4", "char4", true, true, "int"},
                           {"us", "uchar4", "char4", false, true, "int"},
                           {"su", "char4", "uchar4", true, false, "int"}};

// Each pair's four functions: vector dot, vector dot_acc_sat, packed, packed with saturation.
std::string kernel_source() {
  std::string body;
  int f = 0;
  for (const Pair& p : kPairs) {
    const std::string va = std::string("as_") + p.vector_a + "(a[i])", vb = std::string("as_") + p.vector_b + "(b[i])";
    const std::string acc = std::string("(") + p.result + ")acc[i]";
    body += "  r[i * 16 + " + std::to_string(f++) + "] = dot(" + va + ", " + vb + ");\n";
    body += "  r[i * 16 + " + std::to_string(f++) + "] = dot_acc_sat(" + va + ", " + vb + ", " + acc + ");\n";
    body += "  r[i * 16 + " + std::to_string(f++) + "] = dot_4x8packed_" + p.suffix + "_" + p.result + "(a[i], b[i]);\n";
    body += "  r[i * 16 + " + std::to_string(f++) + "] = dot_acc_sat_4x8packed_" + p.suffix + "_" + p.result +
            "(a[i], b[i], " + acc + ");\n";
  }
  return "kernel void k(global const uint* a, global const uint* b, global const uint* acc, global uint* r) {\n"
         "  size_t i = get_global_id(0);\n" + body + "}\n";
}

void check_results(const Inputs& in, const std::vector<cl_uint>& r) {
  int failures = 0;
  for (size_t i = 0; i < in.a.size(); ++i) {
    int f = 0;
    for (const Pair& p : kPairs) {
      const bool result_signed = p.a_signed || p.b_signed;
      const int64_t dot = dot_reference(in.a[i], in.b[i], p.a_signed, p.b_signed);
      const int64_t acc = result_signed ? static_cast<int32_t>(in.acc[i]) : static_cast<int64_t>(in.acc[i]);
      const uint32_t plain = static_cast<uint32_t>(dot), saturated = static_cast<uint32_t>(saturate(acc + dot, result_signed));
      const uint32_t want[4] = {plain, saturated, plain, saturated};
      for (int k = 0; k < 4; ++k, ++f) {
        if (r[i * 16 + f] != want[k] && ++failures <= 8)
          ADD_FAILURE() << "pair " << p.suffix << " function " << k << " at " << i << " (a " << std::hex << in.a[i]
                        << ", b " << in.b[i] << ", acc " << in.acc[i] << "): got " << r[i * 16 + f] << ", want "
                        << want[k];
      }
    }
  }
}

std::vector<cl_uint> run(const Env& env, cl_kernel kernel, const Inputs& in) {
  const size_t n = in.a.size();
  DeviceBuffer a(env.context, n * 4, in.a.data()), b(env.context, n * 4, in.b.data()),
      acc(env.context, n * 4, in.acc.data()), r(env.context, n * 16 * 4);
  set_args(kernel, a.get(), b.get(), acc.get(), r.get());
  run_1d(env.queue, kernel, n);
  return read_buffer<cl_uint>(env.queue, r.get(), n * 16);
}

TEST_P(IntegerDot, EveryFunctionOnEdgeValues) {
  BuiltProgram program(env, kernel_source(), "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  const Inputs in = make_inputs(4096);
  check_results(in, run(env, program.kernel("k"), in));
}

// The extension's functions are there in OpenCL C 1.2 as well.
TEST_P(IntegerDot, AnOpenCL12ProgramCallsThem) {
  BuiltProgram program(env, kernel_source());
  ASSERT_TRUE(program);
  const Inputs in = make_inputs(256);
  check_results(in, run(env, program.kernel("k"), in));
}

// From SPIR-V: llvm-spirv-15 turns the vector forms into OpUDot, OpSDot, OpSUDot and their
// AccSat forms, which the translator reads back as its own function names.
TEST_P(IntegerDot, FromSpirv) {
  if (!lists_spirv(env.device)) GTEST_SKIP() << "no SPIR-V";
  const std::string il = spirv_from_opencl_c(kernel_source(), "CL3.0", "--spirv-ext=+SPV_KHR_integer_dot_product");
  ASSERT_FALSE(il.empty());
  BuiltProgram program = BuiltProgram::from_il(env, il);
  ASSERT_TRUE(program);
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  const Inputs in = make_inputs(512);
  check_results(in, run(env, kernel, in));
}

TEST_P(IntegerDot, TheQueriesDescribeBothInputForms) {
  cl_device_integer_dot_product_capabilities_khr capabilities = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof capabilities,
                            &capabilities, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(capabilities,
            cl_device_integer_dot_product_capabilities_khr(CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR |
                                                           CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR));
  for (cl_device_info query : {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
                               CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR}) {
    cl_device_integer_dot_product_acceleration_properties_khr properties{};
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(env.device, query, sizeof properties, &properties, &size), CL_SUCCESS);
    EXPECT_EQ(size, sizeof properties);
    // dp4a on the GPU; plain integer code on the host.
    cl_device_type type = 0;
    ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
    const cl_bool accelerated = type == CL_DEVICE_TYPE_GPU ? CL_TRUE : CL_FALSE;
    EXPECT_EQ(properties.signed_accelerated, accelerated);
    EXPECT_EQ(properties.mixed_signedness_accelerated, accelerated);
    EXPECT_EQ(properties.accumulating_saturating_unsigned_accelerated, accelerated);
  }
  EXPECT_EQ(extension_version(env.device, "cl_khr_integer_dot_product"), CL_MAKE_VERSION(2, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, IntegerDot, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
