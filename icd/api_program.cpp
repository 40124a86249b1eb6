// Programs and kernels. These are the answers until the program/kernel issues land: no
// device has a compiler, a linker, an IL, a binary format, built-in kernels or on-device
// queues, so no cl_program or cl_kernel object can exist. Native kernels (host functions)
// need none of that and do run on the host device. Every other call validates what the
// specification checks before the missing object, then reports the error the
// specification gives for it; none of them ever claims success.
#include <algorithm>
#include <vector>

#include "icd/entry.h"
#include "platform/context.h"
#include "platform/device.h"
#include "platform/enqueue.h"
#include "platform/native_kernel.h"
#include "platform/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

// No program or kernel object exists, so every handle of these kinds is invalid.
cl_int no_program() { return CL_INVALID_PROGRAM; }
cl_int no_kernel() { return CL_INVALID_KERNEL; }

template <class Handle>
Handle create_fails(cl_int* errcode_ret, cl_int code) {
  if (errcode_ret) *errcode_ret = code;
  return nullptr;
}

// A device list that must name at least one device, each in `context`.
void check_device_list(const Context& context, cl_uint num_devices, const cl_device_id* device_list) {
  check(num_devices != 0 && device_list != nullptr, CL_INVALID_VALUE);
  for (cl_uint i = 0; i < num_devices; ++i) {
    check(context.has_device(lookup<Device>(device_list[i]).get()), CL_INVALID_DEVICE);
  }
}

// Each device's CL_INVALID_VALUE for a missing binary, else CL_INVALID_BINARY: cucl has no
// binary format yet, so no binary is valid for any device.
std::vector<cl_int> binary_statuses(cl_uint num_devices, const size_t* lengths, const unsigned char** binaries) {
  std::vector<cl_int> statuses(num_devices, CL_INVALID_BINARY);
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!lengths || !binaries || lengths[i] == 0 || !binaries[i]) statuses[i] = CL_INVALID_VALUE;
  }
  return statuses;
}

}  // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* /*lengths*/, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    lookup<Context>(context);
    check(count != 0 && strings != nullptr, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < count; ++i) check(strings[i] != nullptr, CL_INVALID_VALUE);
    // The specification lets this call fail only for a bad context or strings, or for
    // lack of resources; CL_COMPILER_NOT_AVAILABLE belongs to clBuildProgram, which needs
    // a program object cucl cannot make yet. CL_OUT_OF_RESOURCES is the listed error that
    // says what is true: the implementation has no resources to hold a program.
    fail(CL_OUT_OF_RESOURCES);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* /*il*/, size_t /*length*/,
                                                          cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    lookup<Context>(context);
    fail(CL_INVALID_OPERATION);  // no device lists an IL (CL_DEVICE_IL_VERSION is "")
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    auto owner = lookup<Context>(context);
    check_device_list(*owner, num_devices, device_list);
    auto statuses = binary_statuses(num_devices, lengths, binaries);
    if (binary_status) std::copy(statuses.begin(), statuses.end(), binary_status);
    for (cl_int status : statuses) check(status != CL_INVALID_VALUE, CL_INVALID_VALUE);
    fail(CL_INVALID_BINARY);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id* device_list,
                                                                      const char* kernel_names, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    auto owner = lookup<Context>(context);
    check(num_devices != 0 && device_list != nullptr, CL_INVALID_VALUE);
    check(kernel_names != nullptr, CL_INVALID_VALUE);
    check_device_list(*owner, num_devices, device_list);
    // CL_DEVICE_BUILT_IN_KERNELS is empty on every device: no name in the list (not even
    // the empty name of "") is supported.
    fail(CL_INVALID_VALUE);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program) { return no_program(); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program) { return no_program(); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program, void(CL_CALLBACK*)(cl_program, void*),
                                                            void*) {
  return no_program();
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program, cl_uint, size_t, const void*) {
  return no_program();
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program, cl_uint, const cl_device_id*, const char*,
                                               void(CL_CALLBACK*)(cl_program, void*), void*) {
  return no_program();
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program, cl_uint, const cl_device_id*, const char*, cl_uint,
                                                 const cl_program*, const char**,
                                                 void(CL_CALLBACK*)(cl_program, void*), void*) {
  return no_program();
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* /*options*/,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  void(CL_CALLBACK*)(cl_program, void*), void*, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    lookup<Context>(context);
    check((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
    check(num_input_programs != 0 && input_programs != nullptr, CL_INVALID_VALUE);
    fail(CL_INVALID_PROGRAM);  // none of input_programs can be a program object
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program, cl_program_info, size_t, void*, size_t*) {
  return no_program();
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, size_t, void*,
                                                      size_t*) {
  return no_program();
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program, const char*, cl_int* errcode_ret) {
  return create_fails<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program, cl_uint, cl_kernel*, cl_uint*) {
  return no_program();
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel, cl_int* errcode_ret) {
  return create_fails<cl_kernel>(errcode_ret, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel) { return no_kernel(); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel) { return no_kernel(); }
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel, cl_uint, size_t, const void*) { return no_kernel(); }

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel, cl_kernel_info, size_t, void*, size_t*) {
  return no_kernel();
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void*, size_t*) {
  return no_kernel();
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t,
                                                         void*, size_t*) {
  return no_kernel();
}

// The kernel is checked before the device (and before CL_INVALID_OPERATION for a device
// without sub-groups), so no device argument can change the answer.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t,
                                                        const void*, size_t, void*, size_t*) {
  return no_kernel();
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel, cl_uint,
                                                       const size_t*, const size_t*, const size_t*, cl_uint,
                                                       const cl_event*, cl_event*) {
  return guard([&] {
    lookup<Queue>(command_queue);
    fail(CL_INVALID_KERNEL);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel, cl_uint, const cl_event*,
                                              cl_event*) {
  return guard([&] {
    lookup<Queue>(command_queue);
    fail(CL_INVALID_KERNEL);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                                                      void* args, size_t cb_args, cl_uint num_mem_objects,
                                                      const cl_mem* mem_list, const void** args_mem_loc,
                                                      cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                      cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto spec = native_kernel(*queue, user_func, args, cb_args, num_mem_objects, mem_list, args_mem_loc);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event);
  });
}

// The specification checks the device before the queue: a device without a replaceable
// default on-device queue answers CL_INVALID_OPERATION whatever queue is given.
CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue /*command_queue*/) {
  return guard([&] {
    auto owner = lookup<Context>(context);
    check(owner->has_device(lookup<Device>(device).get()), CL_INVALID_DEVICE);
    fail(CL_INVALID_OPERATION);  // CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0 on every device
  });
}
