// Command queues.
#include "icd/entry.h"
#include "platform/info/info.h"
#include "platform/queue/queue_rules.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context,
                                                                             cl_device_id device,
                                                                             const cl_queue_properties* properties,
                                                                             cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto cucl_context = lookup<Context>(context);
    auto cucl_device = lookup<Device>(device);
    return publish<cl_command_queue>(create_queue(*cucl_context, *cucl_device, properties));
  });
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto cucl_context = lookup<Context>(context);
    auto cucl_device = lookup<Device>(device);
    return publish<cl_command_queue>(create_legacy_queue(*cucl_context, *cucl_device, properties));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return cucl::icd::retain<Queue>(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  // Commands are handed to the device as they become ready, so the implicit flush is
  // already done.
  return cucl::icd::release<Queue>(command_queue);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                                      cl_command_queue_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) {
  return cucl::icd::query<Queue>(command_queue, param_name, param_value_size, param_value, param_value_size_ret, queue_info);
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                                          cl_command_queue_properties properties, cl_bool enable,
                                                          cl_command_queue_properties* old_properties) {
  return guard([&] { set_queue_property(*lookup<Queue>(command_queue), properties, enable, old_properties); });
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  return guard([&] { lookup<Queue>(command_queue); });
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  return guard([&] { lookup<Queue>(command_queue)->finish(); });
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue command_queue) {
  return guard([&] {
    auto owner = lookup<Context>(context);
    auto member = lookup<Device>(device);
    set_default_device_command_queue(*owner, *member, command_queue);
  });
}
