// Turns each OpenCL kernel of a module (builtins linked in) into the host device's entry
// points (backends/host/work_group_abi.h): `<kernel>.cucl_wg` runs a whole work-group as
// a loop nest over its work-items, vectorised across them where it can be; kernels that contain a
// barrier get `<kernel>.cucl_wi` instead, one work-item, run as a fiber.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace cucl::backend::host {

// Returns an empty string on success, else a build-log message (e.g. for recursion).
// `vectorize`: barrier-free kernels also get a vector form that runs several work-items
// at once (work_item_vectorizer.h).
std::string lower_work_groups(llvm::Module& module, bool vectorize);

// After optimisation: writes each kernel's stack use into its `<kernel>.cucl_info` record.
// Returns an error line for each kernel whose use passes kMaxPrivateMemoryBytes, else empty.
std::string record_private_memory(llvm::Module& module);

}  // namespace cucl::backend::host
