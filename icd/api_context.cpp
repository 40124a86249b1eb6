// Contexts.
#include "icd/entry.h"
#include "platform/objects/context_rules.h"
#include "platform/info/info.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                                    const cl_device_id* devices, ContextNotify pfn_notify,
                                                    void* user_data, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_context>(create_context(properties, num_devices, devices, pfn_notify, user_data));
  });
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties,
                                                            cl_device_type device_type, ContextNotify pfn_notify,
                                                            void* user_data, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_context>(create_context_from_type(properties, device_type, pfn_notify, user_data));
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
  return guard([&] { lookup<Context>(context)->add_destructor_callback(pfn_notify, user_data); });
}
