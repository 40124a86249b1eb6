#include "backends/backend.h"
#include "backends/host/host_device.h"

namespace cucl::backend {

std::vector<std::unique_ptr<Device>> discover_devices() {
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(std::make_unique<host::HostDevice>());
  return devices;
}

}  // namespace cucl::backend
