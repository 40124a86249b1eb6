#include "platform/platform.h"

namespace cucl {

Platform& Platform::instance() {
  // Never destroyed: worker threads and late API calls may outlive static destruction.
  static Platform* platform = new Platform();
  return *platform;
}

Platform::Platform()
    : Object(ObjectKind::Platform), compile_cache_(compiler::cache_settings_from_environment()) {
  publish(registry_);
  for (auto& backend_device : backend::discover_devices()) {
    auto* device = new Device(std::move(backend_device));
    device->publish(registry_);
    devices_.push_back(device);
  }
}

}  // namespace cucl
