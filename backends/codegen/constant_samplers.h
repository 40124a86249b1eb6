// Samplers written in the program (`const sampler_t s = CLK_...;`, or a literal passed to
// read_image*): clang calls `__translate_sampler_initializer(i32 bits)` for each use, and so
// does the SPIR-V reader for OpConstantSampler. A sampler reaches the image builtins as a
// pointer-sized value holding its CLK_* bits (libclc-builtins/include/cucl_image.h), so each
// code generator replaces those calls with that value.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace cucl::backend {

inline constexpr const char* kSamplerInitializerFunction = "__translate_sampler_initializer";

void lower_constant_samplers(llvm::Module& module);

}  // namespace cucl::backend
