#include <string>

#include "backends/backend.h"
#include "backends/host/host_device.h"
#include "base/debug_log.h"
#include "base/settings.h"
#if CUCL_HAVE_CUDA
#include "backends/cuda/cuda_device.h"
#endif

namespace cucl::backend {
namespace {

// CUCL_DEVICES=host|cuda|all (default all) hides the CUDA devices or the host device.
struct DeviceSelection {
  bool host = true;
  bool cuda = true;
};

DeviceSelection selected_devices() {
  const std::string choice = settings::text(settings::Name::CUCL_DEVICES);
  if (choice == "host") return {true, false};
  if (choice == "cuda") return {false, true};
  if (choice != "all") debug_log("CUCL_DEVICES=" + choice + " is not host, cuda or all: using all");
  return {};
}

}  // namespace

std::vector<std::unique_ptr<Device>> discover_devices() {
  DeviceSelection selection = selected_devices();
  std::vector<std::unique_ptr<Device>> gpus;
#if CUCL_HAVE_CUDA
  if (selection.cuda) gpus = cuda::discover_cuda_devices();
#else
  if (selection.cuda) debug_log("no CUDA devices: this cucl was built without the CUDA backend");
#endif
  if (!selection.cuda) debug_log("CUDA devices hidden by CUCL_DEVICES");
  std::vector<std::unique_ptr<Device>> devices;
  if (selection.host) {
    devices.push_back(std::make_unique<host::HostDevice>());
  } else if (gpus.empty()) {
    // A platform with no device at all is of no use to anyone.
    debug_log("CUCL_DEVICES=cuda but no CUDA device was found: keeping the host device");
    devices.push_back(std::make_unique<host::HostDevice>());
  } else {
    debug_log("host device hidden by CUCL_DEVICES");
  }
  for (auto& gpu : gpus) devices.push_back(std::move(gpu));
  return devices;
}

}  // namespace cucl::backend
