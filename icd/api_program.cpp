// Programs: creation from source, IL and binaries, build, compile, link and their
// queries. Kernels and their launch are in api_kernel.cpp.
#include <vector>

#include "icd/entry.h"
#include "platform/context.h"
#include "platform/device.h"
#include "platform/enqueue.h"
#include "platform/info.h"
#include "platform/native_kernel.h"
#include "platform/program_build.h"
#include "platform/program_create.h"
#include "platform/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

namespace {

void check_notify(ProgramNotify notify, void* user_data) {
  check(notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
}

// Builds run synchronously; the callback, when given, hears of the end before the call returns.
template <class Body>
void notify_after(ProgramNotify notify, void* user_data, cl_program program, Body&& body) {
  try {
    body();
  } catch (...) {
    if (notify) notify(program, user_data);
    throw;
  }
  if (notify) notify(program, user_data);
}

}  // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* lengths, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_program>(create_program_with_source(lookup<Context>(context), count, strings, lengths));
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                          cl_int* errcode_ret) {
  return guard_create(errcode_ret,
                      [&] { return publish<cl_program>(create_program_with_il(lookup<Context>(context), il, length)); });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_program>(create_program_with_binary(lookup<Context>(context), num_devices, device_list, lengths,
                                                          binaries, binary_status));
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id* device_list,
                                                                      const char* kernel_names, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&]() -> cl_program {
    auto owner = lookup<Context>(context);
    check(num_devices != 0 && device_list != nullptr, CL_INVALID_VALUE);
    check(kernel_names != nullptr, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; ++i) {
      check(owner->has_device(lookup<Device>(device_list[i]).get()), CL_INVALID_DEVICE);
    }
    // CL_DEVICE_BUILT_IN_KERNELS is empty on every device: no name in the list (not even
    // the empty name of "") is supported.
    fail(CL_INVALID_VALUE);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) { return icd::retain<Program>(program); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) { return icd::release<Program>(program); }

// No device runs program-scope global destructors, so there is nothing to call back.
CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                            void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                            void* /*user_data*/) {
  return guard([&] {
    lookup<Program>(program);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    fail(CL_INVALID_OPERATION);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void* spec_value) {
  return guard([&] { lookup<Program>(program)->set_specialization_constant(spec_id, spec_size, spec_value); });
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, ProgramNotify pfn_notify, void* user_data) {
  return guard([&] {
    auto target = lookup<Program>(program);
    check_notify(pfn_notify, user_data);
    auto devices = build_devices(*target, num_devices, device_list);
    notify_after(pfn_notify, user_data, program, [&] { build_program(*target, devices, options); });
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id* device_list, const char* options,
                                                 cl_uint num_input_headers, const cl_program* input_headers,
                                                 const char** header_include_names, ProgramNotify pfn_notify,
                                                 void* user_data) {
  return guard([&] {
    auto target = lookup<Program>(program);
    check_notify(pfn_notify, user_data);
    auto devices = build_devices(*target, num_devices, device_list);
    if (num_input_headers == 0) {
      check(input_headers == nullptr && header_include_names == nullptr, CL_INVALID_VALUE);
    } else {
      check(input_headers != nullptr && header_include_names != nullptr, CL_INVALID_VALUE);
    }
    std::vector<std::pair<std::string, Ref<Program>>> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      check(header_include_names[i] != nullptr, CL_INVALID_VALUE);
      headers.emplace_back(header_include_names[i], lookup<Program>(input_headers[i]));
      check(&headers.back().second->context() == &target->context(), CL_INVALID_CONTEXT);
    }
    notify_after(pfn_notify, user_data, program, [&] { compile_program(*target, devices, options, headers); });
  });
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* options,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  ProgramNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
  cl_int link_error = CL_SUCCESS;
  cl_program linked = nullptr;
  cl_int status = guard([&] {
    auto owner = lookup<Context>(context);
    check((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
    check(num_input_programs != 0 && input_programs != nullptr, CL_INVALID_VALUE);
    check_notify(pfn_notify, user_data);
    std::vector<Ref<Program>> inputs;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      inputs.push_back(lookup<Program>(input_programs[i]));
      check(&inputs.back()->context() == owner.get(), CL_INVALID_CONTEXT);
    }
    std::vector<Device*> devices = owner->devices();
    if (device_list) {
      devices.clear();
      for (cl_uint i = 0; i < num_devices; ++i) {
        Device* device = lookup<Device>(device_list[i]).get();
        check(owner->has_device(device), CL_INVALID_DEVICE);
        devices.push_back(device);
      }
    }
    auto program = link_programs(owner, devices, options, inputs, link_error);
    linked = publish<cl_program>(program);
    if (pfn_notify) pfn_notify(linked, user_data);
  });
  if (status == CL_SUCCESS) status = link_error;
  if (errcode_ret) *errcode_ret = status;
  return linked;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  if (param_name == CL_PROGRAM_BINARIES) {
    return guard([&] {
      program_binaries(*lookup<Program>(program), param_value_size, param_value, param_value_size_ret);
    });
  }
  return icd::query<Program>(program, param_name, param_value_size, param_value, param_value_size_ret, program_info);
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    auto target = lookup<Program>(program);
    auto member = lookup<Device>(device);
    check(target->has_device(member.get()), CL_INVALID_DEVICE);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    program_build_info(*target, *member, param_name, out);
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
