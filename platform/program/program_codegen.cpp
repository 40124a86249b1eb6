#include "platform/program/program_codegen.h"

#include "platform/compiler/content_hash.h"
#include "platform/compiler/kernel_metadata.h"

namespace cucl {

backend::CodegenOptions codegen_options(const compiler::BuildOptions& options) {
  backend::CodegenOptions codegen;
  codegen.optimize = !options.opt_disable;
  codegen.denorms_are_zero = options.denorms_are_zero;
  codegen.unsafe_math = options.unsafe_math || options.fast_relaxed_math;
  codegen.finite_math_only = options.finite_math_only || options.fast_relaxed_math;
  codegen.no_signed_zeros = options.no_signed_zeros || options.fast_relaxed_math;
  codegen.mad_enable = options.mad_enable || options.fast_relaxed_math;
  codegen.correctly_rounded_divide_sqrt = options.fp32_correctly_rounded_divide_sqrt;
  return codegen;
}

bool load_executable(Device& device, ProgramBuild& build) {
  std::string error;
  build.loaded = device.backend().load_program(build.native, error);
  if (!build.loaded) {
    build.log += "error: the device could not load its code: " + error + "\n";
    return false;
  }
  build.metadata = std::make_shared<const compiler::ProgramMetadata>(compiler::read_program_metadata(build.ir));
  for (const compiler::KernelMetadata& kernel : build.metadata->kernels) {
    if (!build.loaded->kernel(kernel.name)) return false;
  }
  build.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  build.status = CL_BUILD_SUCCESS;
  return true;
}

bool make_executable(Device& device, ProgramBuild& build, const backend::CodegenOptions& options) {
  backend::CodegenResult code = device.backend().generate_code(build.ir, options);
  build.log += code.log;
  if (code.ok) {
    build.native = std::move(code.native);
    if (load_executable(device, build)) return true;
  }
  build.status = CL_BUILD_ERROR;
  build.loaded.reset();
  build.metadata.reset();
  build.native.clear();
  return false;
}

compiler::ProgramBinary program_binary(const Device& device, const ProgramBuild& build) {
  compiler::ProgramBinary binary;
  binary.type = build.binary_type;
  binary.target = device.description().compiler.code_target;
  binary.options = build.options;
  binary.ir = build.ir;
  binary.native = build.native;
  binary.kernel_arg_info = build.kernel_arg_info;
  return binary;
}

std::string build_cache_key(const Device& device, std::string_view kind, std::string_view options,
                            std::string_view input) {
  const auto& compiler = device.description().compiler;
  // The tag changes whenever the same input may build differently (predefined macros,
  // code generation), so that no program cached by an earlier cucl is taken for it.
  return compiler::content_hash({"cucl-build-9", kind, compiler.triple, compiler.code_target,
                                 compiler.compiler_identity, options, input});
}

}  // namespace cucl
