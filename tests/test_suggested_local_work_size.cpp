// clGetKernelSuggestedLocalWorkSize (OpenCL 3.1) and its cl_khr_suggested_local_work_size
// name: the answer is the local size a launch with a NULL one takes (seen by the kernel
// itself), the kernel's required size where it has one, and every error of the
// specification.
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include "support/kernel_support.h"

using namespace cucl_test;

namespace {

using Query = cl_int(CL_API_CALL*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, size_t*);

// OpenCL 3.1's core entry point, as a 3.1 loader reaches it: the dispatch table slot after
// OpenCL 3.0's (Debian's ocl-icd predates it and exports no such symbol).
cl_int clGetKernelSuggestedLocalWorkSize(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                         const size_t* offset, const size_t* global, size_t* local) {
  const auto* table = *reinterpret_cast<void* const* const*>(queue);
  auto query = reinterpret_cast<Query>(table[sizeof(cl_icd_dispatch) / sizeof(void*)]);
  return query(queue, kernel, work_dim, offset, global, local);
}

class SuggestedLocalWorkSize : public DeviceTest {
 protected:
  Query khr() {
    return reinterpret_cast<Query>(
        clGetExtensionFunctionAddressForPlatform(cucl_platform(), "clGetKernelSuggestedLocalWorkSizeKHR"));
  }
};

TEST_P(SuggestedLocalWorkSize, IsWhatALaunchWithoutOneTakes) {
  ASSERT_NE(khr(), nullptr);
  BuiltProgram program(env, R"(
    kernel void k(global uint* r) {
      if (get_global_id(0) + get_global_id(1) + get_global_id(2) == 0) {
        r[0] = get_local_size(0); r[1] = get_local_size(1); r[2] = get_local_size(2);
      }
    })");
  cl_kernel kernel = program.kernel("k");
  DeviceBuffer out(env.context, 3 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const std::vector<std::vector<size_t>> globals = {{1}, {97}, {4096}, {1 << 20}, {64, 48}, {1000, 3}, {8, 16, 32}};
  for (const auto& global : globals) {
    const cl_uint dims = static_cast<cl_uint>(global.size());
    size_t suggested[3] = {0, 0, 0}, through_khr[3] = {0, 0, 0};
    ASSERT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, dims, nullptr, global.data(), suggested),
              CL_SUCCESS);
    ASSERT_EQ(khr()(env.queue, kernel, dims, nullptr, global.data(), through_khr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, dims, nullptr, global.data(), nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto used = read_buffer<cl_uint>(env.queue, out.get(), 3);
    for (cl_uint d = 0; d < dims; ++d) {
      EXPECT_EQ(suggested[d], used[d]) << "dimension " << d << " of a " << dims << "-D range";
      EXPECT_EQ(through_khr[d], suggested[d]);
      EXPECT_EQ(global[d] % suggested[d], 0u);
    }
  }
}

TEST_P(SuggestedLocalWorkSize, FollowsTheRequiredWorkGroupSize) {
  BuiltProgram program(env, "kernel __attribute__((reqd_work_group_size(4, 2, 1))) void k(global int* r) {}");
  cl_kernel kernel = program.kernel("k");
  DeviceBuffer out(env.context, 4);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  const size_t global[2] = {64, 64};
  size_t suggested[2] = {0, 0};
  ASSERT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 2, nullptr, global, suggested), CL_SUCCESS);
  EXPECT_EQ(suggested[0], 4u);
  EXPECT_EQ(suggested[1], 2u);
}

TEST_P(SuggestedLocalWorkSize, EveryErrorOfTheSpecification) {
  BuiltProgram program(env, "kernel void k(global int* r) { r[get_global_id(0)] = 1; }");
  cl_kernel kernel = program.kernel("k");
  const size_t global[3] = {256, 1, 1}, zero[1] = {0}, offset[1] = {SIZE_MAX};
  size_t local[3] = {0, 0, 0};
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, nullptr, global, local), CL_INVALID_KERNEL_ARGS);
  DeviceBuffer out(env.context, 256 * 4);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  EXPECT_EQ(khr()(nullptr, kernel, 1, nullptr, global, local), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, nullptr, 1, nullptr, global, local), CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 0, nullptr, global, local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 4, nullptr, global, local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, nullptr, nullptr, local),
            CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, nullptr, zero, local), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, offset, global, local), CL_INVALID_GLOBAL_OFFSET);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, nullptr, global, nullptr), CL_INVALID_VALUE);
  // A queue of another context.
  cl_int status = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, env.device, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(other_queue, kernel, 1, nullptr, global, local), CL_INVALID_CONTEXT);
  clReleaseCommandQueue(other_queue);
  clReleaseContext(other);
  EXPECT_EQ(clGetKernelSuggestedLocalWorkSize(env.queue, kernel, 1, nullptr, global, local), CL_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SuggestedLocalWorkSize, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
