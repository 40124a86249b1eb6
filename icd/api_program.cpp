// Programs: creation from source, IL and binaries, build, compile, link and their
// queries. Kernels and their launch are in api_kernel.cpp.
#include <CL/cl_ext.h>

#include "icd/entry.h"
#include "platform/queue/enqueue.h"
#include "platform/info/info.h"
#include "platform/queue/native_kernel.h"
#include "platform/program/program_create.h"
#include "platform/program/program_rules.h"
#include "platform/queue/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

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

// cl_khr_il_program's name for it, found through clGetExtensionFunctionAddressForPlatform.
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                             cl_int* errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
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
    create_program_with_built_in_kernels(*lookup<Context>(context), num_devices, device_list, kernel_names);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) { return icd::retain<Program>(program); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) { return icd::release<Program>(program); }

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                            void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                            void* user_data) {
  return guard([&] { set_program_release_callback(*lookup<Program>(program), pfn_notify, user_data); });
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void* spec_value) {
  return guard([&] { lookup<Program>(program)->set_specialization_constant(spec_id, spec_size, spec_value); });
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, ProgramNotify pfn_notify, void* user_data) {
  return guard([&] {
    build_program(*lookup<Program>(program), num_devices, device_list, options, pfn_notify, user_data);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id* device_list, const char* options,
                                                 cl_uint num_input_headers, const cl_program* input_headers,
                                                 const char** header_include_names, ProgramNotify pfn_notify,
                                                 void* user_data) {
  return guard([&] {
    compile_program(*lookup<Program>(program), num_devices, device_list, options, num_input_headers, input_headers,
                    header_include_names, pfn_notify, user_data);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* options,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  ProgramNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
  cl_int link_error = CL_SUCCESS;
  cl_program linked = nullptr;
  cl_int status = guard([&] {
    linked = link_program(lookup<Context>(context), num_devices, device_list, options, num_input_programs,
                          input_programs, pfn_notify, user_data, link_error);
  });
  if (status == CL_SUCCESS) status = link_error;
  if (errcode_ret) *errcode_ret = status;
  return linked;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return guard([&] {
    program_info(*lookup<Program>(program), param_name, param_value_size, param_value, param_value_size_ret);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    auto target = lookup<Program>(program);
    auto member = lookup<Device>(device);
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
