// Contexts.
#include <algorithm>

#include "icd/entry.h"
#include "platform/context_rules.h"
#include "platform/info.h"
#include "platform/platform.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                                    const cl_device_id* devices, ContextNotify pfn_notify,
                                                    void* user_data, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    check(devices && num_devices, CL_INVALID_VALUE);
    std::vector<Device*> members;
    for (cl_uint i = 0; i < num_devices; ++i) {
      auto device = lookup<Device>(devices[i]);
      // Duplicates are ignored, as the spec says.
      if (std::find(members.begin(), members.end(), device.get()) == members.end()) members.push_back(device.get());
    }
    return publish<cl_context>(create_context(std::move(members), properties, pfn_notify, user_data));
  });
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties,
                                                            cl_device_type device_type, ContextNotify pfn_notify,
                                                            void* user_data, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    context_properties(properties);  // property errors come before device-type errors
    cl_uint count = 0;
    cl_int status = clGetDeviceIDs(Platform::instance().id(), device_type, 0, nullptr, &count);
    check(status == CL_SUCCESS, status);
    std::vector<cl_device_id> ids(count);
    clGetDeviceIDs(Platform::instance().id(), device_type, count, ids.data(), nullptr);
    std::vector<Device*> members;
    for (cl_device_id id : ids) {
      Device* device = lookup<Device>(id).get();
      if (device->backend().available()) members.push_back(device);
    }
    check(!members.empty(), CL_DEVICE_NOT_AVAILABLE);
    return publish<cl_context>(create_context(std::move(members), properties, pfn_notify, user_data));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return cucl::icd::retain<Context>(context);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return cucl::icd::release<Context>(context);
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return cucl::icd::query<Context>(context, param_name, param_value_size, param_value, param_value_size_ret, context_info);
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                               void(CL_CALLBACK* pfn_notify)(cl_context, void*),
                                                               void* user_data) {
  return guard([&] {
    auto cucl_context = lookup<Context>(context);
    check(pfn_notify != nullptr, CL_INVALID_VALUE);
    cucl_context->add_destructor_callback(pfn_notify, user_data);
  });
}
