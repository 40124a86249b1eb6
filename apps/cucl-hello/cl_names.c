#include "cl_names.h"

#include <CL/cl_ext.h>

#define NAME(code) \
  case code: return #code

const char* cl_error_name(cl_int status) {
  switch (status) {
    NAME(CL_SUCCESS);
    NAME(CL_DEVICE_NOT_FOUND);
    NAME(CL_DEVICE_NOT_AVAILABLE);
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAME(CL_OUT_OF_RESOURCES);
    NAME(CL_OUT_OF_HOST_MEMORY);
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
    NAME(CL_MAP_FAILURE);
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAME(CL_INVALID_VALUE);
    NAME(CL_INVALID_DEVICE_TYPE);
    NAME(CL_INVALID_PLATFORM);
    NAME(CL_INVALID_DEVICE);
    NAME(CL_INVALID_CONTEXT);
    NAME(CL_INVALID_QUEUE_PROPERTIES);
    NAME(CL_INVALID_COMMAND_QUEUE);
    NAME(CL_INVALID_HOST_PTR);
    NAME(CL_INVALID_MEM_OBJECT);
    NAME(CL_INVALID_BUFFER_SIZE);
    NAME(CL_INVALID_EVENT_WAIT_LIST);
    NAME(CL_INVALID_EVENT);
    NAME(CL_INVALID_OPERATION);
    NAME(CL_INVALID_PROPERTY);
    NAME(CL_PLATFORM_NOT_FOUND_KHR);
    default: return "an OpenCL error";
  }
}

const char* cl_device_type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  if (type & CL_DEVICE_TYPE_CUSTOM) return "custom";
  return "unknown type";
}
