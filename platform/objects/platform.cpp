#include "platform/objects/platform.h"

#include "base/error.h"

namespace cucl {
namespace {

constexpr cl_device_type kKnownDeviceTypes =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
    CL_DEVICE_TYPE_CUSTOM;

}  // namespace

Platform& Platform::instance() {
  // Never destroyed: worker threads and late API calls may outlive static destruction.
  static Platform* platform = new Platform();
  return *platform;
}

Registry& live_handles() { return Platform::instance().registry(); }

Platform::Platform()
    : Object(ObjectKind::Platform), compile_cache_(compiler::cache_settings_from_environment()) {
  publish(registry_);
  for (auto& backend_device : backend::discover_devices()) {
    auto* device = new Device(std::move(backend_device));
    device->publish(registry_);
    devices_.push_back(device);
  }
}

std::vector<Device*> Platform::devices_of_type(cl_device_type type) const {
  check(type == CL_DEVICE_TYPE_ALL || ((type & kKnownDeviceTypes) != 0 && (type & ~kKnownDeviceTypes) == 0),
        CL_INVALID_DEVICE_TYPE);
  std::vector<Device*> found;
  for (size_t i = 0; i < devices_.size(); ++i) {
    // The first device (the host device) is the default device.
    bool is_default = i == 0 && (type & CL_DEVICE_TYPE_DEFAULT);
    if ((devices_[i]->type() & type) || is_default) found.push_back(devices_[i]);
  }
  return found;
}

}  // namespace cucl
