// OpenCL allows fp32 division 2.5 ulp and sqrt 3 ulp unless a program is built with
// -cl-fp32-correctly-rounded-divide-sqrt. LLVM 15's NVPTX back end always emits the
// correctly rounded div.rn.f32 and sqrt.rn.f32, which took 1.85x and 1.45x the time of
// NVIDIA's OpenCL for a chain of them on an H100. This pass, run on the program's own code
// before the builtins are linked in (whose exact algorithms divide and take roots on
// purpose), makes its divisions PTX's div.full.f32 (at most 2 ulp over the full range) and
// its sqrt calls sqrt.approx.f32; with `flush_denormals`, their .ftz forms. A division by
// a power of two stays as it is (the optimizer makes it an exact multiplication).
#pragma once

namespace llvm {
class Module;
}

namespace cucl::backend::cuda {

void use_fast_fp32_divide_and_sqrt(llvm::Module& module, bool flush_denormals);

}  // namespace cucl::backend::cuda
