// Turns each OpenCL kernel of a module (builtins linked in) into the host device's entry
// points (backends/host/work_group_abi.h): `<kernel>.cucl_wg` runs a whole work-group as
// a loop nest over its work-items, which LLVM can vectorise; kernels that contain a
// barrier get `<kernel>.cucl_wi` instead, one work-item, run as a fiber.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace cucl::backend::host {

// Returns an empty string on success, else a build-log message (e.g. for recursion).
std::string lower_work_groups(llvm::Module& module);

// After optimisation: writes each kernel's stack use into its `<kernel>.cucl_info` record.
// Returns an error line for each kernel whose use passes kMaxPrivateMemoryBytes, else empty.
std::string record_private_memory(llvm::Module& module);

}  // namespace cucl::backend::host
