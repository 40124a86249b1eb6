// A private variable that never leaves its work-item -- only loaded and stored, its address
// given to nothing -- cannot be seen by anyone else: `volatile` on it promises nothing a
// kernel can observe. Kept volatile, LLVM leaves it in a stack slot read and written at
// every use; NVIDIA's compiler keeps such variables in registers. CLBlast's xgemm declares
// its thread index `volatile` ("to disable caching"), so its main loop read the index from
// local memory on every tile. This pass, run before optimisation, drops `volatile` from the
// loads and stores of such variables, so that they are promoted to registers.
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend {

void drop_volatile_from_private_variables(llvm::Module& module);

}  // namespace cucl::backend
