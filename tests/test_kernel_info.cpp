// Kernel objects through the loader: creation and its errors, cloning, reference counts,
// clGetKernelInfo, clGetKernelArgInfo and clGetKernelWorkGroupInfo.
#include <set>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kKernels = R"(
  int not_a_kernel(int x) { return x + 1; }
  kernel void add(global int* out, int v) { out[get_global_id(0)] = not_a_kernel(v); }
  kernel __attribute__((reqd_work_group_size(8, 4, 2))) void fixed(global int* out) { out[0] = 1; }
  kernel __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(16, 1, 1)))
  void hinted(global int* out) { out[0] = 2; }
)";

class KernelInfo : public DeviceTest {};

template <class T>
T kernel_value(cl_kernel kernel, cl_kernel_info param) {
  return info_value<T>(clGetKernelInfo, kernel, param);
}

std::string kernel_string(cl_kernel kernel, cl_kernel_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetKernelInfo(kernel, param, 0, nullptr, &size), CL_SUCCESS);
  std::string value(size, '\0');
  EXPECT_EQ(clGetKernelInfo(kernel, param, size, value.data(), nullptr), CL_SUCCESS);
  return value.c_str();
}

TEST_P(KernelInfo, CreateKernelErrors) {
  Program program = source_program(env.context, kKernels);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "add", s); }), CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "no_such_kernel", s); }),
            CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "not_a_kernel", s); }),
            CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "", s); }), CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, nullptr, s); }), CL_INVALID_VALUE);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(nullptr, "add", s); }), CL_INVALID_PROGRAM);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(reinterpret_cast<cl_program>(env.context), "add", s); }),
            CL_INVALID_PROGRAM);
  Kernel kernel(clCreateKernel(program, "add", nullptr));  // a NULL errcode_ret is allowed
  EXPECT_NE(kernel.get(), nullptr);
}

TEST_P(KernelInfo, CreateKernelsInProgram) {
  Program program = source_program(env.context, kKernels);
  cl_uint count = 0;
  EXPECT_EQ(clCreateKernelsInProgram(program, 0, nullptr, &count), CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  ASSERT_EQ(clCreateKernelsInProgram(program, 0, nullptr, &count), CL_SUCCESS);
  EXPECT_EQ(count, 3u);
  cl_kernel kernels[4] = {};
  EXPECT_EQ(clCreateKernelsInProgram(program, 2, kernels, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(kernels[0], nullptr);
  ASSERT_EQ(clCreateKernelsInProgram(program, 4, kernels, &count), CL_SUCCESS);
  EXPECT_EQ(count, 3u);
  std::set<std::string> names;
  for (cl_uint i = 0; i < count; ++i) {
    names.insert(kernel_string(kernels[i], CL_KERNEL_FUNCTION_NAME));
    EXPECT_EQ(kernel_value<cl_uint>(kernels[i], CL_KERNEL_REFERENCE_COUNT), 1u);
    EXPECT_EQ(clReleaseKernel(kernels[i]), CL_SUCCESS);
  }
  EXPECT_EQ(names, (std::set<std::string>{"add", "fixed", "hinted"}));
  EXPECT_EQ(kernels[3], nullptr);
  EXPECT_EQ(clCreateKernelsInProgram(nullptr, 0, nullptr, &count), CL_INVALID_PROGRAM);
}

TEST_P(KernelInfo, KernelInfoQueries) {
  Program program = source_program(env.context, kKernels);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  Kernel add = make_kernel(program, "add");
  EXPECT_EQ(kernel_string(add, CL_KERNEL_FUNCTION_NAME), "add");
  EXPECT_EQ(kernel_value<cl_uint>(add, CL_KERNEL_NUM_ARGS), 2u);
  EXPECT_EQ(kernel_value<cl_uint>(add, CL_KERNEL_REFERENCE_COUNT), 1u);
  EXPECT_EQ(kernel_value<cl_context>(add, CL_KERNEL_CONTEXT), env.context);
  EXPECT_EQ(kernel_value<cl_program>(add, CL_KERNEL_PROGRAM), program.get());
  EXPECT_EQ(kernel_string(add, CL_KERNEL_ATTRIBUTES), "");
  Kernel fixed = make_kernel(program, "fixed");
  EXPECT_EQ(kernel_string(fixed, CL_KERNEL_ATTRIBUTES), "reqd_work_group_size(8,4,2)");
  Kernel hinted = make_kernel(program, "hinted");
  const std::string attributes = kernel_string(hinted, CL_KERNEL_ATTRIBUTES);
  EXPECT_NE(attributes.find("vec_type_hint(float4)"), std::string::npos) << attributes;
  EXPECT_NE(attributes.find("work_group_size_hint(16,1,1)"), std::string::npos) << attributes;

  char small[3];
  EXPECT_EQ(clGetKernelInfo(add, CL_KERNEL_FUNCTION_NAME, sizeof small, small, nullptr), CL_INVALID_VALUE);
  cl_uint too_small = 0;
  EXPECT_EQ(clGetKernelInfo(add, CL_KERNEL_CONTEXT, sizeof too_small, &too_small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelInfo(add, 0x12345, sizeof small, small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof too_small, &too_small, nullptr), CL_INVALID_KERNEL);
}

TEST_P(KernelInfo, ReferenceCountsAndTheProgramPin) {
  Program program = source_program(env.context, kKernels);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  const cl_uint program_refs = info_value<cl_uint>(clGetProgramInfo, program.get(), CL_PROGRAM_REFERENCE_COUNT);
  cl_kernel kernel = clCreateKernel(program, "add", nullptr);
  ASSERT_NE(kernel, nullptr);
  EXPECT_GT(info_value<cl_uint>(clGetProgramInfo, program.get(), CL_PROGRAM_REFERENCE_COUNT), program_refs);
  ASSERT_EQ(clRetainKernel(kernel), CL_SUCCESS);
  EXPECT_EQ(kernel_value<cl_uint>(kernel, CL_KERNEL_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseKernel(kernel), CL_SUCCESS);
  EXPECT_EQ(kernel_value<cl_uint>(kernel, CL_KERNEL_REFERENCE_COUNT), 1u);
  // The application may release the program first; the kernel keeps it alive and usable.
  cl_program raw_program = program.release();
  ASSERT_EQ(clReleaseProgram(raw_program), CL_SUCCESS);
  EXPECT_EQ(kernel_value<cl_program>(kernel, CL_KERNEL_PROGRAM), raw_program);
  DeviceBuffer out(env.context, sizeof(int));
  const int v = 4;
  set_args(kernel, out.get(), v);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 5);
  ASSERT_EQ(clReleaseKernel(kernel), CL_SUCCESS);
  EXPECT_EQ(clRetainKernel(nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(clReleaseKernel(nullptr), CL_INVALID_KERNEL);
}

TEST_P(KernelInfo, CloneCopiesArgumentsAndIsIndependent) {
  BuiltProgram program(env, kKernels);
  cl_kernel kernel = program.kernel("add");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer first(env.context, sizeof(int)), second(env.context, sizeof(int));
  const int one = 1, ten = 10;
  set_args(kernel, first.get(), one);
  cl_int status = CL_OUT_OF_RESOURCES;
  Kernel clone(clCloneKernel(kernel, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(kernel_value<cl_uint>(clone, CL_KERNEL_REFERENCE_COUNT), 1u);
  EXPECT_EQ(kernel_value<cl_uint>(kernel, CL_KERNEL_REFERENCE_COUNT), 1u);
  EXPECT_EQ(kernel_string(clone, CL_KERNEL_FUNCTION_NAME), "add");
  EXPECT_EQ(kernel_value<cl_program>(clone, CL_KERNEL_PROGRAM), program.program());
  // Ready to launch with the copied arguments.
  ASSERT_EQ(clEnqueueTask(env.queue, clone, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, first.get(), 1)[0], 2);
  // Setting the clone's arguments leaves the original alone, and the other way round.
  set_args(clone, second.get(), ten);
  const int hundred = 100;
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof hundred, &hundred), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(env.queue, clone, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, second.get(), 1)[0], 11);
  EXPECT_EQ(read_buffer<int>(env.queue, first.get(), 1)[0], 101);
  EXPECT_EQ(create_error([&](cl_int* s) { return clCloneKernel(nullptr, s); }), CL_INVALID_KERNEL);
}

TEST_P(KernelInfo, CloneOfAKernelWithUnsetArgumentsIsNotReady) {
  BuiltProgram program(env, kKernels);
  cl_kernel kernel = program.kernel("add");
  ASSERT_NE(kernel, nullptr);
  const int one = 1;
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof one, &one), CL_SUCCESS);
  Kernel clone(clCloneKernel(kernel, nullptr));
  ASSERT_TRUE(clone);
  EXPECT_EQ(clEnqueueTask(env.queue, clone, 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelInfo, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
