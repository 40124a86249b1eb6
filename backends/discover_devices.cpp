#include <string>

#include "backends/backend.h"
#include "backends/device_selection.h"
#include "backends/host/host_device.h"
#include "base/debug_log.h"
#include "base/settings.h"
#if CUCL_HAVE_CUDA
#include "backends/cuda/cuda_device.h"
#endif

namespace cucl::backend {

std::vector<std::unique_ptr<Device>> discover_devices() {
  const std::string choice = settings::text(settings::Name::CUCL_DEVICES);
  const DeviceSelection selection = parse_device_selection(choice);
  for (const std::string& unknown : selection.unknown) {
    debug_log("CUCL_DEVICES: '" + unknown + "' is not all, host, cuda or cuda:N: ignored");
  }
  std::vector<std::unique_ptr<Device>> gpus;
#if CUCL_HAVE_CUDA
  if (selection.wants_any_gpu()) gpus = cuda::discover_cuda_devices(selection);
#else
  if (selection.wants_any_gpu()) debug_log("no CUDA devices: this cucl was built without the CUDA backend");
#endif
  if (!selection.wants_any_gpu()) debug_log("CUDA devices hidden by CUCL_DEVICES");
  std::vector<std::unique_ptr<Device>> devices;
  if (selection.host) {
    devices.push_back(std::make_unique<host::HostDevice>());
  } else if (gpus.empty()) {
    // A platform with no device at all is of no use to anyone.
    debug_log("CUCL_DEVICES=" + choice + " selects no GPU that was found: keeping the host device");
    devices.push_back(std::make_unique<host::HostDevice>());
  } else {
    debug_log("host device hidden by CUCL_DEVICES");
  }
  for (auto& gpu : gpus) devices.push_back(std::move(gpu));
  return devices;
}

}  // namespace cucl::backend
