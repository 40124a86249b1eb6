// A cl_device_id: the platform's view of one backend device. Root devices live as long as
// the platform; their reference count is always 1.
#pragma once

#include <memory>

#include "backends/backend.h"
#include "platform/objects/object.h"

namespace cucl {

class Device final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Device;
  static constexpr cl_int kInvalidHandle = CL_INVALID_DEVICE;

  explicit Device(std::unique_ptr<backend::Device> backend)
      : Object(ObjectKind::Device), backend_(std::move(backend)) {}

  backend::Device& backend() const { return *backend_; }
  const backend::DeviceDescription& description() const { return backend_->description(); }
  cl_device_type type() const { return description().type; }
  // CL_DEVICE_AVAILABLE: whether the device can still run work.
  bool available() const { return backend_->available(); }
  // The device's clock in ns (clGetDeviceAndHostTimer's device timestamp).
  uint64_t timer_ns() const { return backend_->device_timer_ns(); }
  cl_device_id id() { return reinterpret_cast<cl_device_id>(handle()); }

 private:
  std::unique_ptr<backend::Device> backend_;
};

}  // namespace cucl
