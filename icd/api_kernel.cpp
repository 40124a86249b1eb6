// Kernels: creation, arguments, queries, and their launch (clEnqueueNDRangeKernel, clEnqueueTask).
#include <CL/cl_ext.h>

#include "icd/entry.h"
#include "icd/opencl_3_1.h"
#include "platform/queue/enqueue.h"
#include "platform/info/info.h"
#include "platform/memory/device_address_rules.h"
#include "platform/memory/svm_rules.h"
#include "platform/program/kernel_rules.h"
#include "platform/program/launch_range.h"
#include "platform/program/ndrange.h"
#include "platform/queue/queue.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  return guard_create(errcode_ret,
                      [&] { return publish<cl_kernel>(create_kernel(lookup<Program>(program), kernel_name)); });
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                                         cl_uint* num_kernels_ret) {
  return guard([&] { create_kernels_in_program(lookup<Program>(program), num_kernels, kernels, num_kernels_ret); });
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto source = lookup<Kernel>(source_kernel);
    return publish<cl_kernel>(make<Kernel>(*source, nullptr));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) { return icd::retain<Kernel>(kernel); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) { return icd::release<Kernel>(kernel); }

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void* arg_value) {
  return guard([&] { lookup<Kernel>(kernel)->set_arg(arg_index, arg_size, arg_value); });
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgDevicePointerEXT(cl_kernel kernel, cl_uint arg_index,
                                                               cl_mem_device_address_ext arg_value) {
  return guard([&] {
    auto target = lookup<Kernel>(kernel);
    target->set_arg_value(arg_index, device_pointer_argument_value(*target, arg_index, arg_value));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                                    size_t param_value_size, const void* param_value) {
  return guard([&] { set_kernel_exec_info(*lookup<Kernel>(kernel), param_name, param_value_size, param_value); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  return icd::query<Kernel>(kernel, param_name, param_value_size, param_value, param_value_size_ret, kernel_info);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void* param_value,
                                                   size_t* param_value_size_ret) {
  return guard([&] {
    auto target = lookup<Kernel>(kernel);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    kernel_arg_info(*target, arg_index, param_name, out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    auto target = lookup<Kernel>(kernel);
    auto member = lookup_optional<Device>(device);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    kernel_work_group_info(*target, member.get(), param_name, out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                        const void* input_value, size_t param_value_size,
                                                        void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    auto target = lookup<Kernel>(kernel);
    auto member = lookup_optional<Device>(device);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    kernel_sub_group_info(*target, member.get(), param_name, input_value_size, input_value, out);
  });
}

// cl_khr_subgroups' name for it: Debian's loader exports it and calls it through the
// dispatch table. Not in the extension-function lookup until a device lists cl_khr_subgroups.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                                           cl_kernel_sub_group_info param_name,
                                                           size_t input_value_size, const void* input_value,
                                                           size_t param_value_size, void* param_value,
                                                           size_t* param_value_size_ret) {
  return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSize(cl_command_queue command_queue, cl_kernel kernel,
                                                                  cl_uint work_dim, const size_t* global_work_offset,
                                                                  const size_t* global_work_size,
                                                                  size_t* suggested_local_work_size) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup<Kernel>(kernel);
    cucl::suggested_local_work_size(*queue, *target, work_dim, global_work_offset, global_work_size,
                                    suggested_local_work_size);
  });
}

// cl_khr_suggested_local_work_size's name for it (OpenCL 3.1 made it core).
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue,
                                                                     cl_kernel kernel, cl_uint work_dim,
                                                                     const size_t* global_work_offset,
                                                                     const size_t* global_work_size,
                                                                     size_t* suggested_local_work_size) {
  return clGetKernelSuggestedLocalWorkSize(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                                           suggested_local_work_size);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                       cl_uint work_dim, const size_t* global_work_offset,
                                                       const size_t* global_work_size, const size_t* local_work_size,
                                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                       cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup<Kernel>(kernel);
    submit(*queue, ndrange_kernel(*queue, *target, work_dim, global_work_offset, global_work_size, local_work_size),
           num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto target = lookup<Kernel>(kernel);
    submit(*queue, task_kernel(*queue, *target), num_events_in_wait_list, event_wait_list, event);
  });
}
