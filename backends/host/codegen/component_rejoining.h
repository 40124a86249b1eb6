// The builtin libraries apply many functions of OpenCL vectors component by component
// (mad(float4) is four scalar fmas: extract each component, compute, insert the result).
// The whole-function vectoriser (work_item_vectorizer.h) would carry each component of every
// work-item through shuffles of its own. This joins such a component-wise computation back
// into one operation on the vectors (four fmas of components i of x -> one fma of x), before
// the vectoriser runs.
#pragma once

namespace llvm {
class Function;
}

namespace cucl::backend::host {

// Returns whether anything was joined.
bool rejoin_component_operations(llvm::Function& function);

}  // namespace cucl::backend::host
