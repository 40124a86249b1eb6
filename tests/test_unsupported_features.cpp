// The entry points of features no cucl device has yet (compiler, programs and kernels,
// on-device queues; SVM only where no SVM device is needed): each exists and answers the exact error the specification
// gives, never a fake success. Native kernels do run (test_native_kernel.cpp). Images, samplers and pipes are in
// test_unsupported_images.cpp. Wrong-kind handles go through the ICD loader to cucl; NULL
// handles, which the loader answers itself, go to cucl through its dispatch table.
#include <array>

#include "unsupported_test_helpers.h"

using namespace cucl_test;
using namespace unsupported_test;

namespace {

TEST_F(Unsupported, DeviceAdvertisesNoneOfTheseFeatures) {
  cl_device_id device = env.device;
  EXPECT_EQ(device_string(device, CL_DEVICE_BUILT_IN_KERNELS), "");
  EXPECT_EQ(info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_PIPE_SUPPORT), cl_bool(CL_FALSE));
  EXPECT_EQ(
      info_value<cl_device_device_enqueue_capabilities>(clGetDeviceInfo, device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES),
      0u);
}

TEST_F(Unsupported, EveryEntryPointIsInTheDispatchTable) {
  const void* entries[] = {
      (void*)cucl.clCreateProgramWithSource, (void*)cucl.clCreateProgramWithIL,
      (void*)cucl.clCreateProgramWithBinary, (void*)cucl.clCreateProgramWithBuiltInKernels,
      (void*)cucl.clLinkProgram, (void*)cucl.clEnqueueNativeKernel, (void*)cucl.clSetDefaultDeviceCommandQueue,
      (void*)cucl.clCreateImage, (void*)cucl.clCreateImageWithProperties, (void*)cucl.clCreateImage2D,
      (void*)cucl.clCreateImage3D, (void*)cucl.clGetSupportedImageFormats, (void*)cucl.clCreateSampler,
      (void*)cucl.clCreateSamplerWithProperties, (void*)cucl.clCreatePipe, (void*)cucl.clSVMAlloc,
      (void*)cucl.clSVMFree, (void*)cucl.clEnqueueSVMMigrateMem, (void*)cucl.clSetKernelExecInfo,
      (void*)cucl.clGetKernelSubGroupInfo, (void*)cucl.clGetKernelSubGroupInfoKHR,
      (void*)cucl.clSetProgramSpecializationConstant};
  for (const void* entry : entries) EXPECT_NE(entry, nullptr);
}

// ---- programs -------------------------------------------------------------------------

TEST_F(Unsupported, CreateProgramWithBinaryRejectsEveryBinary) {
  const unsigned char bytes[] = {1, 2, 3, 4};
  const unsigned char* binaries[] = {bytes};
  size_t lengths[] = {sizeof bytes};
  size_t zero_length[] = {0};
  const unsigned char* no_binary[] = {nullptr};
  cl_device_id devices[] = {env.device};
  cl_device_id stranger[] = {not_a_device()};
  cl_int status[1] = {CL_SUCCESS};
  auto create = [&](cl_context context, cl_uint n, const cl_device_id* list, const size_t* lens,
                    const unsigned char** bins) {
    status[0] = CL_SUCCESS;
    return create_error(
        [&](cl_int* e) { return clCreateProgramWithBinary(context, n, list, lens, bins, status, e); });
  };
  EXPECT_EQ(create(env.context, 1, devices, lengths, binaries), CL_INVALID_BINARY);
  EXPECT_EQ(status[0], CL_INVALID_BINARY);
  EXPECT_EQ(create(env.context, 1, devices, zero_length, binaries), CL_INVALID_VALUE);
  EXPECT_EQ(status[0], CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, devices, lengths, no_binary), CL_INVALID_VALUE);
  EXPECT_EQ(status[0], CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, devices, nullptr, binaries), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, devices, lengths, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, stranger, lengths, binaries), CL_INVALID_DEVICE);
  EXPECT_EQ(status[0], CL_SUCCESS) << "no status is written before the device list is valid";
  EXPECT_EQ(create(env.context, 0, devices, lengths, binaries), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, nullptr, lengths, binaries), CL_INVALID_VALUE);
  EXPECT_EQ(create(not_a_context(), 1, devices, lengths, binaries), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) {
              return cucl.clCreateProgramWithBinary(nullptr, 1, devices, lengths, binaries, nullptr, e);
            }),
            CL_INVALID_CONTEXT);
}

TEST_F(Unsupported, CreateProgramWithBuiltInKernelsKnowsNoKernel) {
  cl_device_id devices[] = {env.device};
  cl_device_id stranger[] = {not_a_device()};
  auto create = [&](cl_context context, cl_uint n, const cl_device_id* list, const char* names) {
    return create_error(
        [&](cl_int* e) { return clCreateProgramWithBuiltInKernels(context, n, list, names, e); });
  };
  EXPECT_EQ(create(env.context, 1, devices, "some_kernel"), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, devices, ""), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, devices, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 0, devices, "some_kernel"), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, nullptr, "some_kernel"), CL_INVALID_VALUE);
  EXPECT_EQ(create(env.context, 1, stranger, "some_kernel"), CL_INVALID_DEVICE);
  EXPECT_EQ(create(not_a_context(), 1, devices, "some_kernel"), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) {
              return cucl.clCreateProgramWithBuiltInKernels(nullptr, 1, devices, "some_kernel", e);
            }),
            CL_INVALID_CONTEXT);
}

TEST_F(Unsupported, LinkProgramHasNoInputProgram) {
  cl_program inputs[] = {not_a_program()};
  cl_device_id devices[] = {env.device};
  auto link = [&](cl_context context, cl_uint n, const cl_device_id* list, cl_uint num_inputs,
                  const cl_program* input_list) {
    return create_error([&](cl_int* e) {
      return clLinkProgram(context, n, list, nullptr, num_inputs, input_list, nullptr, nullptr, e);
    });
  };
  EXPECT_EQ(link(env.context, 0, nullptr, 1, inputs), CL_INVALID_PROGRAM);
  EXPECT_EQ(link(env.context, 1, devices, 1, inputs), CL_INVALID_PROGRAM);
  EXPECT_EQ(link(env.context, 1, nullptr, 1, inputs), CL_INVALID_VALUE);
  EXPECT_EQ(link(env.context, 0, devices, 1, inputs), CL_INVALID_VALUE);
  EXPECT_EQ(link(env.context, 0, nullptr, 0, inputs), CL_INVALID_VALUE);
  EXPECT_EQ(link(env.context, 0, nullptr, 1, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link(env.context, 0, nullptr, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link(not_a_context(), 0, nullptr, 1, inputs), CL_INVALID_CONTEXT);
  EXPECT_EQ(create_error([&](cl_int* e) {
              return cucl.clLinkProgram(nullptr, 0, nullptr, nullptr, 1, inputs, nullptr, nullptr, e);
            }),
            CL_INVALID_CONTEXT);
}

// Every call on a cl_program, with a handle that cannot be a program.
void expect_no_program(const cl_icd_dispatch& api, cl_program program, cl_device_id device) {
  size_t size = 0;
  cl_uint count = 0;
  const char* name = "k";
  EXPECT_EQ(api.clRetainProgram(program), CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clReleaseProgram(program), CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clCompileProgram(program, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof count, &count, &size),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, 0, nullptr, &size),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(create_error([&](cl_int* e) { return api.clCreateKernel(program, name, e); }), CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clCreateKernel(program, name, nullptr), nullptr);
  EXPECT_EQ(api.clCreateKernelsInProgram(program, 0, nullptr, &count), CL_INVALID_PROGRAM);
  EXPECT_EQ(api.clSetProgramReleaseCallback(program, [](cl_program, void*) {}, nullptr), CL_INVALID_PROGRAM);
  cl_uint value = 1;
  EXPECT_EQ(api.clSetProgramSpecializationConstant(program, 0, sizeof value, &value), CL_INVALID_PROGRAM);
}

TEST_F(Unsupported, ProgramCallsFindNoProgram) {
  expect_no_program(cucl, nullptr, env.device);
  expect_no_program(cucl, not_a_program(), env.device);
  EXPECT_EQ(clRetainProgram(not_a_program()), CL_INVALID_PROGRAM) << "through the loader";
  EXPECT_EQ(clBuildProgram(not_a_program(), 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
}

// ---- kernels ---------------------------------------------------------------------------

void expect_no_kernel(const cl_icd_dispatch& api, cl_kernel kernel, cl_device_id device) {
  size_t size = 0;
  cl_uint value = 0;
  size_t local[] = {1, 1, 1};
  EXPECT_EQ(api.clRetainKernel(kernel), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clReleaseKernel(kernel), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clSetKernelArg(kernel, 0, sizeof value, &value), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof value, &value, &size), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, 0, nullptr, &size), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                        local, sizeof size, &size, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelSubGroupInfo(kernel, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof size, &size,
                                        nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(api.clGetKernelSubGroupInfoKHR(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                           local, sizeof size, &size, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(create_error([&](cl_int* e) { return api.clCloneKernel(kernel, e); }), CL_INVALID_KERNEL);
  EXPECT_EQ(api.clSetKernelArgSVMPointer(kernel, 0, &value), CL_INVALID_KERNEL);
  cl_bool fine_grain = CL_FALSE;
  EXPECT_EQ(api.clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof fine_grain,
                                    &fine_grain),
            CL_INVALID_KERNEL);
}

TEST_F(Unsupported, KernelCallsFindNoKernel) {
  expect_no_kernel(cucl, nullptr, env.device);
  expect_no_kernel(cucl, not_a_kernel(), env.device);
  EXPECT_EQ(clRetainKernel(not_a_kernel()), CL_INVALID_KERNEL) << "through the loader";
}

TEST_F(Unsupported, EnqueueKernelChecksTheQueueThenTheKernel) {
  size_t global[] = {1};
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, not_a_kernel(), 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(cucl.clEnqueueNDRangeKernel(env.queue, nullptr, 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clEnqueueNDRangeKernel(not_a_queue(), not_a_kernel(), 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(cucl.clEnqueueNDRangeKernel(nullptr, nullptr, 1, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueTask(env.queue, not_a_kernel(), 0, nullptr, nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(cucl.clEnqueueTask(env.queue, nullptr, 0, nullptr, nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(clEnqueueTask(not_a_queue(), not_a_kernel(), 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(cucl.clEnqueueTask(nullptr, nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Unsupported, NoReplaceableDefaultDeviceQueue) {
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(env.context, env.device, env.queue), CL_INVALID_OPERATION);
  // The device is checked before the queue, and already answers CL_INVALID_OPERATION.
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(env.context, env.device, not_a_queue()), CL_INVALID_OPERATION);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(env.context, not_a_device(), env.queue), CL_INVALID_DEVICE);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(env.context, nullptr, env.queue), CL_INVALID_DEVICE);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(not_a_context(), env.device, env.queue), CL_INVALID_CONTEXT);
  EXPECT_EQ(cucl.clSetDefaultDeviceCommandQueue(nullptr, env.device, env.queue), CL_INVALID_CONTEXT);
}

// ---- shared virtual memory: what needs no SVM device (test_svm*.cpp has the rest) ----------

TEST_F(Unsupported, SVMAllocWithoutAContextFailsLikeMalloc) {
  EXPECT_EQ(clSVMAlloc(not_a_context(), CL_MEM_READ_WRITE, 1024, 0), nullptr);
  EXPECT_EQ(cucl.clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 1024, 0), nullptr);
}

TEST_F(Unsupported, SVMFreeOfWhatNoSVMAllocReturnedDoesNothing) {
  int not_svm = 42;
  cl_uint context_refs = ref_count(env.context);
  clSVMFree(env.context, nullptr);
  clSVMFree(env.context, &not_svm);
  cucl.clSVMFree(nullptr, nullptr);
  EXPECT_EQ(not_svm, 42);
  EXPECT_EQ(ref_count(env.context), context_refs);
}

void expect_svm_commands(const cl_icd_dispatch& api, cl_command_queue queue, cl_int expected) {
  std::array<unsigned char, 64> a{}, b{};
  void* pointers[] = {a.data()};
  const void* const_pointers[] = {a.data()};
  size_t sizes[] = {a.size()};
  unsigned char pattern = 7;
  EXPECT_EQ(api.clEnqueueSVMFree(queue, 1, pointers, nullptr, nullptr, 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMMemcpy(queue, CL_TRUE, a.data(), b.data(), a.size(), 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMMemFill(queue, a.data(), &pattern, 1, a.size(), 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a.data(), a.size(), 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMUnmap(queue, a.data(), 0, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMMigrateMem(queue, 1, const_pointers, sizes, 0, 0, nullptr, nullptr), expected);
  // The queue is checked before every argument.
  EXPECT_EQ(api.clEnqueueSVMMemcpy(queue, CL_TRUE, nullptr, nullptr, 1, 1, nullptr, nullptr), expected);
  EXPECT_EQ(api.clEnqueueSVMMigrateMem(queue, 0, nullptr, nullptr, 0, 0, nullptr, nullptr), expected);
  EXPECT_EQ(a[0], 0) << "nothing ran";
}

TEST_F(Unsupported, SVMCommandsCheckTheQueueFirst) {
  expect_svm_commands(cucl, not_a_queue(), CL_INVALID_COMMAND_QUEUE);
  expect_svm_commands(cucl, nullptr, CL_INVALID_COMMAND_QUEUE);
}

}  // namespace
