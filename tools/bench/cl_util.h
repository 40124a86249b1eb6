// OpenCL plumbing for cucl-bench: failing calls become exceptions naming the call, and
// handles are released by RAII.
#pragma once

#include <CL/cl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {

// An OpenCL call returned an error; what() names the call and the status.
class ClError : public std::runtime_error {
 public:
  ClError(const std::string& call, cl_int status);
  cl_int status() const { return status_; }

 private:
  cl_int status_;
};

const char* error_name(cl_int status);

// Throws ClError unless status is CL_SUCCESS. `call` is the call's source text.
void check(cl_int status, const char* call);

// BENCH_CL(clFinish(q)): run the call and throw, naming it, if it fails.
#define BENCH_CL(expr) ::bench::check((expr), #expr)

template <typename Handle, cl_int (*Release)(Handle)>
struct Releaser {
  void operator()(Handle h) const {
    if (h) Release(h);
  }
};
template <typename Handle, cl_int (*Release)(Handle)>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, Releaser<Handle, Release>>;

using Context = Owned<cl_context, clReleaseContext>;
using Queue = Owned<cl_command_queue, clReleaseCommandQueue>;
using Buffer = Owned<cl_mem, clReleaseMemObject>;
using Image = Owned<cl_mem, clReleaseMemObject>;
using Program = Owned<cl_program, clReleaseProgram>;
using Kernel = Owned<cl_kernel, clReleaseKernel>;
using Event = Owned<cl_event, clReleaseEvent>;

// One clSVMAlloc allocation (CL_MEM_READ_WRITE, coarse grain), freed with its context still
// alive.
class SvmAllocation {
 public:
  SvmAllocation(cl_context context, std::size_t bytes)
      : context_(context), pointer_(clSVMAlloc(context, CL_MEM_READ_WRITE, bytes, 0)) {
    if (!pointer_) throw ClError("clSVMAlloc", CL_OUT_OF_RESOURCES);
  }
  ~SvmAllocation() { clSVMFree(context_, pointer_); }
  SvmAllocation(const SvmAllocation&) = delete;
  SvmAllocation& operator=(const SvmAllocation&) = delete;
  void* get() const { return pointer_; }

 private:
  cl_context context_;
  void* pointer_;
};

std::string platform_string(cl_platform_id platform, cl_platform_info param);
std::string device_string(cl_device_id device, cl_device_info param);
// Whether CL_DEVICE_EXTENSIONS names `extension`.
bool lists_extension(cl_device_id device, const std::string& extension);

template <typename T>
T device_value(cl_device_id device, cl_device_info param) {
  T value{};
  BENCH_CL(clGetDeviceInfo(device, param, sizeof value, &value, nullptr));
  return value;
}

std::vector<cl_platform_id> platforms();
std::vector<cl_device_id> devices(cl_platform_id platform);

}  // namespace bench
