#include "cl_util.h"

#include <string_view>

namespace bench {

ClError::ClError(const std::string& call, cl_int status)
    : std::runtime_error(call + " failed: " + error_name(status) + " (" + std::to_string(status) + ")"),
      status_(status) {}

const char* error_name(cl_int status) {
  switch (status) {
#define BENCH_NAME(code) \
  case code: return #code;
    BENCH_NAME(CL_SUCCESS)
    BENCH_NAME(CL_DEVICE_NOT_FOUND)
    BENCH_NAME(CL_DEVICE_NOT_AVAILABLE)
    BENCH_NAME(CL_COMPILER_NOT_AVAILABLE)
    BENCH_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    BENCH_NAME(CL_OUT_OF_RESOURCES)
    BENCH_NAME(CL_OUT_OF_HOST_MEMORY)
    BENCH_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    BENCH_NAME(CL_MEM_COPY_OVERLAP)
    BENCH_NAME(CL_BUILD_PROGRAM_FAILURE)
    BENCH_NAME(CL_MAP_FAILURE)
    BENCH_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    BENCH_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    BENCH_NAME(CL_INVALID_VALUE)
    BENCH_NAME(CL_INVALID_DEVICE_TYPE)
    BENCH_NAME(CL_INVALID_PLATFORM)
    BENCH_NAME(CL_INVALID_DEVICE)
    BENCH_NAME(CL_INVALID_CONTEXT)
    BENCH_NAME(CL_INVALID_QUEUE_PROPERTIES)
    BENCH_NAME(CL_INVALID_COMMAND_QUEUE)
    BENCH_NAME(CL_INVALID_HOST_PTR)
    BENCH_NAME(CL_INVALID_MEM_OBJECT)
    BENCH_NAME(CL_INVALID_BUFFER_SIZE)
    BENCH_NAME(CL_INVALID_BINARY)
    BENCH_NAME(CL_INVALID_BUILD_OPTIONS)
    BENCH_NAME(CL_INVALID_PROGRAM)
    BENCH_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    BENCH_NAME(CL_INVALID_KERNEL_NAME)
    BENCH_NAME(CL_INVALID_KERNEL)
    BENCH_NAME(CL_INVALID_ARG_INDEX)
    BENCH_NAME(CL_INVALID_ARG_VALUE)
    BENCH_NAME(CL_INVALID_ARG_SIZE)
    BENCH_NAME(CL_INVALID_KERNEL_ARGS)
    BENCH_NAME(CL_INVALID_WORK_DIMENSION)
    BENCH_NAME(CL_INVALID_WORK_GROUP_SIZE)
    BENCH_NAME(CL_INVALID_WORK_ITEM_SIZE)
    BENCH_NAME(CL_INVALID_GLOBAL_OFFSET)
    BENCH_NAME(CL_INVALID_EVENT_WAIT_LIST)
    BENCH_NAME(CL_INVALID_EVENT)
    BENCH_NAME(CL_INVALID_OPERATION)
    BENCH_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
#undef BENCH_NAME
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL status";
  }
}

void check(cl_int status, const char* call) {
  if (status == CL_SUCCESS) return;
  // Name the function, not the whole argument list.
  std::string_view text(call);
  throw ClError(std::string(text.substr(0, text.find('('))), status);
}

namespace {

// A string query of any object kind, without the terminating NUL.
template <class Handle, class Param, class Getter>
std::string info_string(Getter getter, Handle handle, Param param) {
  size_t size = 0;
  BENCH_CL(getter(handle, param, 0, nullptr, &size));
  std::string value(size, '\0');
  BENCH_CL(getter(handle, param, size, value.data(), nullptr));
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

}  // namespace

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  return info_string(clGetPlatformInfo, platform, param);
}

std::string device_string(cl_device_id device, cl_device_info param) {
  return info_string(clGetDeviceInfo, device, param);
}

bool lists_extension(cl_device_id device, const std::string& extension) {
  const std::string extensions = " " + device_string(device, CL_DEVICE_EXTENSIONS) + " ";
  return extensions.find(" " + extension + " ") != std::string::npos;
}

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  BENCH_CL(clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> result(count);
  BENCH_CL(clGetPlatformIDs(count, result.data(), nullptr));
  return result;
}

std::vector<cl_device_id> devices(cl_platform_id platform) {
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (status == CL_DEVICE_NOT_FOUND) return {};
  check(status, "clGetDeviceIDs");
  std::vector<cl_device_id> result(count);
  BENCH_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, result.data(), nullptr));
  return result;
}

}  // namespace bench
