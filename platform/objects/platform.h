// The one cucl platform: the process-wide singleton that owns the handle registry and the
// devices. It is the only global state of the library.
#pragma once

#include <string>
#include <vector>

#include "platform/compiler/compile_cache.h"
#include "platform/objects/device.h"
#include "platform/objects/object.h"

namespace cucl {

class Platform final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Platform;
  static constexpr cl_int kInvalidHandle = CL_INVALID_PLATFORM;
  static constexpr const char* kName = "cucl";
  static constexpr const char* kVendor = "cucl project";
  static constexpr const char* kVersion = "OpenCL 3.1 cucl 0.1.0";
  static constexpr const char* kIcdSuffix = "CUCL";

  static Platform& instance();

  Registry& registry() { return registry_; }
  const std::vector<Device*>& devices() const { return devices_; }
  // The devices clGetDeviceIDs and clCreateContextFromType find for `type`: those of a type
  // it names, and the default device (the first, the host device) for
  // CL_DEVICE_TYPE_DEFAULT. CL_INVALID_DEVICE_TYPE unless `type` is CL_DEVICE_TYPE_ALL or
  // names known types only; the list may be empty.
  std::vector<Device*> devices_of_type(cl_device_type type) const;
  const compiler::CompileCache& compile_cache() const { return compile_cache_; }
  cl_platform_id id() { return reinterpret_cast<cl_platform_id>(handle()); }

 private:
  Platform();

  Registry registry_;
  std::vector<Device*> devices_;  // never freed: root devices live as long as the process
  compiler::CompileCache compile_cache_;
};

}  // namespace cucl
