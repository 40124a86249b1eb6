#include "backends/cuda/cuda_driver.h"

#include <dlfcn.h>

#include <algorithm>

namespace cucl::backend::cuda {
namespace {

using GetProcAddress = decltype(&::cuGetProcAddress_v2);
using DriverGetVersion = decltype(&::cuDriverGetVersion);

// The driver ABI we ask for: what the headers describe, or older when the driver is older
// (every entry point of CUCL_CUDA_ENTRY_POINTS kept its signature from CUDA 12.0 to the
// headers' version).
constexpr int kOldestDriver = 12000;
constexpr int kDriver12_3 = 12030;  // CUCL_CUDA_ENTRY_POINTS_SINCE_12_3

}  // namespace

bool is_context_lost_error(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
      return true;
    default:
      return false;
  }
}

std::string CudaDriver::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName) cuGetErrorName(result, &name);
  if (cuGetErrorString) cuGetErrorString(result, &text);
  std::string description = name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (text) description += std::string(": ") + text;
  return description;
}

std::shared_ptr<const CudaDriver> load_cuda_driver(std::string& why_not) {
  // The library stays loaded for the life of the process: the driver keeps threads and
  // exit handlers of its own, and unloading it under them is not safe.
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* error = dlerror();
    why_not = std::string("cannot load libcuda.so.1 (") + (error ? error : "not found") + ")";
    return nullptr;
  }
  auto get_version = reinterpret_cast<DriverGetVersion>(dlsym(library, "cuDriverGetVersion"));
  auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(library, "cuGetProcAddress_v2"));
  if (!get_version || !get_proc) {
    why_not = "libcuda.so.1 is older than CUDA 12 (no cuGetProcAddress_v2)";
    return nullptr;
  }
  auto driver = std::make_shared<CudaDriver>();
  if (get_version(&driver->version) != CUDA_SUCCESS || driver->version < kOldestDriver) {
    why_not = "the CUDA driver is older than CUDA 12 (version " + std::to_string(driver->version) + ")";
    return nullptr;
  }
  const int requested = std::min(driver->version, CUDA_VERSION);
  std::string missing;
  // The entry point, or null when the driver has none.
  auto look_up = [&](const char* name, auto& member) {
    void* function = nullptr;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc(name, &function, requested, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
        found != CU_GET_PROC_ADDRESS_SUCCESS || !function) {
      return;
    }
    member = reinterpret_cast<std::remove_reference_t<decltype(member)>>(function);
  };
  auto resolve = [&](const char* name, auto& member) {
    look_up(name, member);
    if (!member) missing += missing.empty() ? name : std::string(", ") + name;
  };
#define CUCL_CUDA_RESOLVE(name) resolve(#name, driver->name);
  CUCL_CUDA_ENTRY_POINTS(CUCL_CUDA_RESOLVE)
#undef CUCL_CUDA_RESOLVE
  if (driver->version >= kDriver12_3) {
#define CUCL_CUDA_LOOK_UP(name) look_up(#name, driver->name);
    CUCL_CUDA_ENTRY_POINTS_SINCE_12_3(CUCL_CUDA_LOOK_UP)
#undef CUCL_CUDA_LOOK_UP
  }
  if (!missing.empty()) {
    why_not = "the CUDA driver lacks " + missing;
    return nullptr;
  }
  if (CUresult result = driver->cuInit(0); result != CUDA_SUCCESS) {
    why_not = "cuInit failed: " + driver->describe(result);
    return nullptr;
  }
  return driver;
}

}  // namespace cucl::backend::cuda
