// clCreateProgramWithIL: SPIR-V made in the test by clang-15 and llvm-spirv-15 (or
// assembled by spirv-as), built and run on every device that lists SPIR-V.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "support/captured_stdout.h"
#include "support/kernel_support.h"
#include "support/spirv_samples.h"
#include "support/spirv_tools.h"

using namespace cucl_test;

namespace {

// A kernel that stores specialization constant 7 (a 32-bit integer, default 1) to out[0].
constexpr const char* kSpecConstantKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "spec"
               OpDecorate %spec SpecId 7
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
  %ptr_cross = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cross
       %spec = OpSpecConstant %uint 1
     %kernel = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_cross
      %entry = OpLabel
               OpStore %out %spec Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Kernel "print": printf("%d %s\n", n, "ok") through OpenCL.std's printf, its format and its
// string argument in UniformConstant variables (as the CTS's extinst_printf tests write them).
constexpr const char* kExtInstPrintf = R"(
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int8
      %clext = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "print"
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
     %uint_7 = OpConstant %uint 7
   %uchar_nul = OpConstant %uchar 0
   %uchar_nl = OpConstant %uchar 10
   %uchar_sp = OpConstant %uchar 32
  %uchar_pct = OpConstant %uchar 37
    %uchar_d = OpConstant %uchar 100
    %uchar_k = OpConstant %uchar 107
    %uchar_o = OpConstant %uchar 111
    %uchar_s = OpConstant %uchar 115
   %string_3 = OpTypeArray %uchar %uint_3
   %string_7 = OpTypeArray %uchar %uint_7
  %cptr_string_3 = OpTypePointer UniformConstant %string_3
  %cptr_string_7 = OpTypePointer UniformConstant %string_7
  %cptr_char = OpTypePointer UniformConstant %uchar
       %void = OpTypeVoid
  %kernel_fn = OpTypeFunction %void %uint
 %format_text = OpConstantComposite %string_7 %uchar_pct %uchar_d %uchar_sp %uchar_pct %uchar_s %uchar_nl %uchar_nul
     %format = OpVariable %cptr_string_7 UniformConstant %format_text
    %ok_text = OpConstantComposite %string_3 %uchar_o %uchar_k %uchar_nul
         %ok = OpVariable %cptr_string_3 UniformConstant %ok_text
     %kernel = OpFunction %void None %kernel_fn
          %n = OpFunctionParameter %uint
      %entry = OpLabel
 %format_ptr = OpBitcast %cptr_char %format
     %ok_ptr = OpBitcast %cptr_char %ok
    %printed = OpExtInst %uint %clext printf %format_ptr %n %ok_ptr
               OpReturn
               OpFunctionEnd
)";

class ProgramWithIL : public SpirvDeviceTest {
 protected:

  // Builds the kernel of kSpecConstantKernel and returns what it stores (0 on failure).
  cl_uint build_and_run_spec_kernel(cl_program program) {
    EXPECT_EQ(clBuildProgram(program, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS)
        << build_log(program, env.device);
    cl_int status = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, "spec", &status);
    EXPECT_EQ(status, CL_SUCCESS);
    if (!kernel) return 0;
    DeviceBuffer out(env.context, sizeof(cl_uint));
    set_args(kernel, out.get());
    run_1d(env.queue, kernel, 1);
    const cl_uint value = read_buffer<cl_uint>(env.queue, out.get(), 1)[0];
    clReleaseKernel(kernel);
    return value;
  }

  cl_program create(const std::string& il, cl_int expected = CL_SUCCESS) {
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithIL(env.context, il.data(), il.size(), &status);
    EXPECT_EQ(status, expected);
    return program;
  }

  // Kernel `name` of SPIR-V assembly, built; null (and a test failure) if any step fails.
  // The fixture releases both.
  cl_kernel kernel_from_assembly(const char* assembly, const char* name) {
    const std::string il = spirv_from_assembly(assembly);
    if (il.empty()) return nullptr;
    assembled_ = build_from_il(il);
    if (!assembled_) return nullptr;
    cl_int status = CL_SUCCESS;
    assembled_kernel_ = clCreateKernel(assembled_, name, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return assembled_kernel_;
  }

  void TearDown() override {
    if (assembled_kernel_) clReleaseKernel(assembled_kernel_);
    if (assembled_) clReleaseProgram(assembled_);
    SpirvDeviceTest::TearDown();
  }

 private:
  cl_program assembled_ = nullptr;
  cl_kernel assembled_kernel_ = nullptr;
};

TEST_P(ProgramWithIL, DeviceReportsSpirvAndTheExtension) {
  EXPECT_NE(device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_il_program"), std::string::npos);
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> ils(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_ILS_WITH_VERSION, size, ils.data(), nullptr), CL_SUCCESS);
  ASSERT_FALSE(ils.empty());
  for (const cl_name_version& il : ils) EXPECT_STREQ(il.name, "SPIR-V");
}

TEST_P(ProgramWithIL, KernelFromClangAndLlvmSpirvRuns) {
  const std::string il = spirv_from_opencl_c(R"(
    kernel void scale(global const float* a, global float* b, float s) {
      size_t i = get_global_id(0);
      b[i] = a[i] * s + sqrt(a[i]);
    })");
  ASSERT_FALSE(il.empty());
  cl_program program = build_from_il(il);
  ASSERT_NE(program, nullptr);

  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  std::string reported(size, '\0');
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, size, reported.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(reported, il);

  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "scale", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  std::vector<float> input(4096);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  DeviceBuffer a(env.context, input.size() * sizeof(float), input.data());
  DeviceBuffer b(env.context, input.size() * sizeof(float));
  set_args(kernel, a.get(), b.get(), 2.0f);
  run_1d(env.queue, kernel, input.size());
  auto output = read_buffer<float>(env.queue, b.get(), input.size());
  // sqrt may be off by 3 ulp (OpenCL's limit, which the GPU uses).
  for (size_t i = 0; i < input.size(); ++i) {
    const float want = input[i] * 2.0f + std::sqrt(input[i]);
    ASSERT_NEAR(output[i], want, 4 * FLT_EPSILON * want) << i;
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_P(ProgramWithIL, SpecializationConstantsApplyAtTheNextBuild) {
  const std::string il = spirv_from_assembly(kSpecConstantKernel);
  ASSERT_FALSE(il.empty());
  cl_program program = create(il);
  ASSERT_NE(program, nullptr);
  const cl_uint value = 42;
  const cl_ulong wide = 42;
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 8, sizeof value, &value), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 7, sizeof wide, &wide), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 7, sizeof value, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clSetProgramSpecializationConstant(program, 7, sizeof value, &value), CL_SUCCESS);
  EXPECT_EQ(build_and_run_spec_kernel(program), 42u);
  clReleaseProgram(program);
}

TEST_P(ProgramWithIL, DefaultSpecializationValueWithoutASetting) {
  cl_program program = create(spirv_from_assembly(kSpecConstantKernel));
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(build_and_run_spec_kernel(program), 1u);
  clReleaseProgram(program);
}

// Builtins taking and returning vectors of every width, called from a SPIR-V module with
// SPIR's types (a float2 by value, a float16 returned) whatever the device's own C ABI
// does with them (x86-64 passes a float2 as a double, a char4 as an i32, a float8 through
// memory): the host device crashed on the float8 calls.
TEST_P(ProgramWithIL, VectorBuiltinsOfEveryWidthGiveTheirValues) {
  const std::string il = spirv_from_opencl_c(R"(
    kernel void vectors(global const float* in, global float* out, global const char* bytes, global char* sums) {
      size_t i = get_global_id(0);
      const global float* p = in + 16 * i;
      float2 a = vload2(0, p);
      float3 b = vload3(0, p);
      float4 c = vload4(0, p);
      float8 d = vload8(0, p);
      float16 e = vload16(0, p);
      vstore8(sqrt(d) + fmax(d, (float8)(3.0f)), 2 * i, out);
      vstore16(fmin(e, (float16)(5.0f)) * 2.0f, i, out + 256);
      out[512 + i] = dot(a, a) + dot(b, b) + dot(c, c) + length(b);
      char2 x = vload2(0, bytes + 16 * i);
      char4 y = vload4(0, bytes + 16 * i);
      char8 z = vload8(0, bytes + 16 * i);
      char16 w = vload16(0, bytes + 16 * i);
      vstore2(add_sat(x, (char2)(100)), 0, sums + 64 * i);
      vstore4(add_sat(y, (char4)(100)), 0, sums + 64 * i + 2);
      vstore8(add_sat(z, (char8)(100)), 0, sums + 64 * i + 6);
      vstore16(add_sat(w, (char16)(100)), 0, sums + 64 * i + 14);
    })");
  ASSERT_FALSE(il.empty());
  cl_program program = build_from_il(il);
  ASSERT_NE(program, nullptr);
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "vectors", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  constexpr size_t kItems = 16;
  std::vector<float> in(16 * kItems);
  std::vector<cl_char> bytes(16 * kItems);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 11) + 0.5f;
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<cl_char>(i * 7 % 61 - 20);
  DeviceBuffer input(env.context, in.size() * sizeof(float), in.data()), out(env.context, 528 * sizeof(float));
  DeviceBuffer byte_input(env.context, bytes.size(), bytes.data()), sums(env.context, 64 * kItems);
  set_args(kernel, input.get(), out.get(), byte_input.get(), sums.get());
  run_1d(env.queue, kernel, kItems);
  const auto values = read_buffer<float>(env.queue, out.get(), 528);
  const auto saturated = read_buffer<cl_char>(env.queue, sums.get(), 64 * kItems);
  for (size_t i = 0; i < kItems; ++i) {
    const float* p = &in[16 * i];
    for (int k = 0; k < 8; ++k) {
      EXPECT_NEAR(values[16 * i + k], std::sqrt(p[k]) + std::fmax(p[k], 3.0f), 1e-5f) << i << " " << k;
    }
    for (int k = 0; k < 16; ++k) EXPECT_EQ(values[256 + 16 * i + k], std::fmin(p[k], 5.0f) * 2.0f) << i << " " << k;
    const float b2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    const float dots = p[0] * p[0] + p[1] * p[1] + b2 + b2 + p[3] * p[3] + std::sqrt(b2);
    EXPECT_NEAR(values[512 + i], dots, 1e-4f * dots) << i;
    const int widths[] = {2, 4, 8, 16}, starts[] = {0, 2, 6, 14};
    for (int w = 0; w < 4; ++w) {
      for (int k = 0; k < widths[w]; ++k) {
        EXPECT_EQ(saturated[64 * i + starts[w] + k], std::min(bytes[16 * i + k] + 100, 127)) << i << " " << w << " " << k;
      }
    }
  }
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_P(ProgramWithIL, MalformedIntermediateLanguageIsInvalidValue) {
  const std::string not_spirv = "this is not SPIR-V at all";
  EXPECT_EQ(create(not_spirv, CL_INVALID_VALUE), nullptr);
  std::string truncated = spirv_from_assembly(kSpecConstantKernel);
  truncated.resize(truncated.size() / 2 / 4 * 4);
  EXPECT_EQ(create(truncated, CL_INVALID_VALUE), nullptr);
  const std::string header_only(20, '\0');
  EXPECT_EQ(create(header_only, CL_INVALID_VALUE), nullptr);
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(env.context, nullptr, 4, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(env.context, not_spirv.data(), 0, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
}

// A module newer than the devices read (SPIR-V 1.5) is refused before the translator sees it.
TEST_P(ProgramWithIL, SpirvNewerThanTheDevicesReadIsInvalidValueNotACrash) {
  std::string stated_15 = spirv_from_assembly(kSpecConstantKernel);
  ASSERT_GE(stated_15.size(), 8u);
  const uint32_t version_15 = 0x00010500;
  std::memcpy(stated_15.data() + 4, &version_15, sizeof version_15);
  EXPECT_EQ(create(stated_15, CL_INVALID_VALUE), nullptr);
}

// The SPIR-V 1.4 instructions the translator of LLVM 15 cannot read (it aborted the process
// on each) are rewritten before it sees them: string decorations, pointer comparison and
// difference, a copy between logically matching structs, and a copy with separate target
// and source memory operands, each checked by what the kernel stores.
TEST_P(ProgramWithIL, Spirv14InstructionsTheTranslatorLacksWork) {
  const std::string il = spirv_from_assembly(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorateString %out UserSemantic "annotated"
               OpMemberDecorateString %pair_a 0 UserSemantic "first"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_3 = OpConstant %ulong 3
    %ulong_5 = OpConstant %ulong 5
    %ulong_4 = OpConstant %ulong 4
   %uint_777 = OpConstant %uint 777
   %float_15 = OpConstant %float 1.5
     %pair_a = OpTypeStruct %uint %float
     %pair_b = OpTypeStruct %uint %float
 %ptr_pair_b = OpTypePointer CrossWorkgroup %pair_b
  %constant_a = OpConstantComposite %pair_a %uint_777 %float_15
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %ptr %ptr_pair_b
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
        %far = OpFunctionParameter %ptr
      %pairs = OpFunctionParameter %ptr_pair_b
      %entry = OpLabel
       %same = OpPtrEqual %bool %out %out
     %differ = OpPtrNotEqual %bool %out %far
     %s_same = OpSelect %uint %same %uint_1 %uint_0
   %s_differ = OpSelect %uint %differ %uint_1 %uint_0
               OpStore %out %s_same Aligned 4
       %out1 = OpInBoundsPtrAccessChain %ptr %out %ulong_1
               OpStore %out1 %s_differ Aligned 4
      %later = OpInBoundsPtrAccessChain %ptr %out %ulong_5
      %delta = OpPtrDiff %ulong %later %out
    %delta32 = OpUConvert %uint %delta
       %out2 = OpInBoundsPtrAccessChain %ptr %out %ulong_2
               OpStore %out2 %delta32 Aligned 4
       %out3 = OpInBoundsPtrAccessChain %ptr %out %ulong_3
               OpCopyMemory %out3 %out2 Aligned 4 Volatile
       %out4 = OpInBoundsPtrAccessChain %ptr %out %ulong_4
               OpCopyMemorySized %out4 %out1 %ulong_4 Volatile Aligned 4
     %copied = OpCopyLogical %pair_b %constant_a
               OpStore %pairs %copied
               OpReturn
               OpFunctionEnd
)", "spv1.4");
  ASSERT_FALSE(il.empty());
  cl_program program = build_from_il(il);
  ASSERT_NE(program, nullptr);
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "k", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  struct Pair {
    cl_uint u;
    cl_float f;
  };
  DeviceBuffer out(env.context, 8 * sizeof(cl_uint)), far(env.context, 8 * sizeof(cl_uint)),
      pairs(env.context, sizeof(Pair));
  set_args(kernel, out.get(), far.get(), pairs.get());
  run_1d(env.queue, kernel, 1);
  auto words = read_buffer<cl_uint>(env.queue, out.get(), 5);
  EXPECT_EQ(words[0], 1u) << "OpPtrEqual of a pointer with itself";
  EXPECT_EQ(words[1], 1u) << "OpPtrNotEqual of two buffers";
  EXPECT_EQ(words[2], 5u) << "OpPtrDiff counts elements, not bytes";
  EXPECT_EQ(words[3], 5u) << "OpCopyMemory with two memory operands";
  EXPECT_EQ(words[4], 1u) << "OpCopyMemorySized with two memory operands";
  auto pair = read_buffer<Pair>(env.queue, pairs.get(), 1);
  EXPECT_EQ(pair[0].u, 777u);
  EXPECT_EQ(pair[0].f, 1.5f);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

// Every device that reads SPIR-V lists cl_khr_il_program, whose clCreateProgramWithILKHR the
// platform hands out.
TEST_P(ProgramWithIL, TheExtensionsCreateFunctionIsFoundAndMakesAProgram) {
  using CreateWithIL = cl_program(CL_API_CALL*)(cl_context, const void*, size_t, cl_int*);
  auto create_khr = reinterpret_cast<CreateWithIL>(
      clGetExtensionFunctionAddressForPlatform(cucl_platform(), "clCreateProgramWithILKHR"));
  ASSERT_NE(create_khr, nullptr);
  const std::string il = spirv_from_assembly(kSpecConstantKernel);
  cl_int status = CL_INVALID_VALUE;
  cl_program program = create_khr(env.context, il.data(), il.size(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(clBuildProgram(program, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  clReleaseProgram(program);
  EXPECT_EQ(create_khr(env.context, il.data(), 0, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
}

TEST_P(ProgramWithIL, SourceProgramsHaveNoIL) {
  BuiltProgram program(env, "kernel void k() {}");
  size_t size = 99;
  ASSERT_EQ(clGetProgramInfo(program.program(), CL_PROGRAM_IL, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
}

TEST_P(ProgramWithIL, DontInlineFunctionsAreCalledCorrectly) {
  cl_kernel kernel = kernel_from_assembly(spirv_samples::kDontInlineCall, "negate_through_call");
  ASSERT_NE(kernel, nullptr);
  const cl_float value = 2.5f;
  DeviceBuffer io(env.context, sizeof value, &value);
  set_args(kernel, io.get());
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(read_buffer<cl_float>(env.queue, io.get(), 1)[0], -2.5f);
}

// The translator leaves UniformConstant variables writable globals; they are constant
// memory all the same, so a format kept in one is a literal.
TEST_P(ProgramWithIL, PrintfWithItsFormatInAUniformConstantVariablePrints) {
  cl_kernel kernel = kernel_from_assembly(kExtInstPrintf, "print");
  ASSERT_NE(kernel, nullptr);
  const cl_uint n = 42;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof n, &n), CL_SUCCESS);
  std::string printed;
  {
    CapturedStdout captured;
    run_1d(env.queue, kernel, 1);
    printed = captured.text();
  }
  EXPECT_EQ(printed, "42 ok\n");
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ProgramWithIL, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
