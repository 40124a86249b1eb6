#include "support/kernel_support.h"

#include <cstdio>
#include <cstdlib>

namespace cucl_test {

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  if (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

cl_program build_program(cl_context context, cl_device_id device, const std::string& source,
                         const std::string& options) {
  const char* text = source.c_str();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  if (!program) return nullptr;
  status = clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    ADD_FAILURE() << "clBuildProgram: " << status << "\n" << build_log(program, device);
    clReleaseProgram(program);
    return nullptr;
  }
  return program;
}

BuiltProgram::BuiltProgram(const Env& env, const std::string& source, const std::string& options)
    : program_(build_program(env.context, env.device, source, options)) {}

BuiltProgram::~BuiltProgram() {
  for (cl_kernel kernel : kernels_) clReleaseKernel(kernel);
  if (program_) clReleaseProgram(program_);
}

cl_kernel BuiltProgram::kernel(const std::string& name) {
  if (!program_) return nullptr;
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program_, name.c_str(), &status);
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateKernel(" << name << ")";
  if (kernel) kernels_.push_back(kernel);
  return kernel;
}

DeviceBuffer::DeviceBuffer(cl_context context, size_t bytes, const void* data) {
  cl_int status = CL_SUCCESS;
  memory_ = clCreateBuffer(context, data ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes,
                           const_cast<void*>(data), &status);
  EXPECT_EQ(status, CL_SUCCESS);
}

DeviceBuffer::~DeviceBuffer() {
  if (memory_) clReleaseMemObject(memory_);
}

void run_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local) {
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

void DeviceTest::SetUp() {
  cl_bool compiler = CL_FALSE;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr),
            CL_SUCCESS);
  if (!compiler) GTEST_SKIP() << device_string(env.device, CL_DEVICE_NAME) << " has no compiler yet";
}

std::vector<cl_device_id> all_devices() {
  std::vector<cl_device_id> devices = cucl_devices(CL_DEVICE_TYPE_ALL);
  // cucl always has its host device. Without one the loader did not find cucl, and a test
  // program that went on would list (and pass) none of its per-device tests.
  if (devices.empty()) {
    std::fprintf(stderr, "error: the loader lists no cucl device (is OCL_ICD_VENDORS set to the build's vendors?)\n");
    std::exit(1);
  }
  return devices;
}

std::string device_name(const ::testing::TestParamInfo<cl_device_id>& info) {
  cl_device_type type = 0;
  clGetDeviceInfo(info.param, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  std::string result = (type & CL_DEVICE_TYPE_GPU) ? "gpu" : "host";
  return result + std::to_string(info.index);
}

size_t max_sub_group_size(const Env& env) {
  BuiltProgram program(env, "kernel void k(global uint* r) { r[0] = get_max_sub_group_size(); }", "-cl-std=CL3.0");
  size_t local = 1024, size = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(program.kernel("k"), env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof size, &size, nullptr),
            CL_SUCCESS);
  return size;
}

}  // namespace cucl_test
