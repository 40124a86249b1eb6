// The option strings of clBuildProgram, clCompileProgram and clLinkProgram (OpenCL 3.0 API
// 5.8.6 "Compiler Options" and 5.8.7 "Linker Options"): validated, turned into flags, and
// translated into the arguments clang's cc1 takes for the front-end run.
#pragma once

#include <CL/cl.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cucl::compiler {

enum class OptionsUse { Build, Compile, Link };  // clBuildProgram, clCompileProgram, clLinkProgram

struct BuildOptions {
  // For clang's cc1: -D and -I in the order given, the -cl-* options clang knows, -w, -Werror,
  // -cl-std and the debug-info flags. The caller adds the target, the -O level (opt_disable)
  // and kernel argument metadata itself. Options whose effect depends on the target
  // (denorms_are_zero) or that clang 15 lacks (no_subgroup_ifp) are flags only. Empty for Link.
  std::vector<std::string> clang_args;
  std::optional<cl_version> cl_std;  // from -cl-std=CLx.y, as CL_MAKE_VERSION(x, y, 0)
  // Each flag is set by its option or by an option that the spec says implies it
  // (-cl-fast-relaxed-math, -cl-unsafe-math-optimizations).
  bool kernel_arg_info = false;
  bool opt_disable = false;
  bool debug_info = false;
  bool denorms_are_zero = false;
  bool fast_relaxed_math = false;
  bool mad_enable = false;
  bool no_signed_zeros = false;
  bool unsafe_math = false;
  bool finite_math_only = false;
  bool single_precision_constant = false;
  bool fp32_correctly_rounded_divide_sqrt = false;
  bool uniform_work_group_size = false;
  bool no_subgroup_ifp = false;
  bool create_library = false;
  bool enable_link_options = false;
  std::string text;  // the options as given (CL_PROGRAM_BUILD_OPTIONS)
};

// Throws cucl::Error with CL_INVALID_BUILD_OPTIONS (Build), CL_INVALID_COMPILER_OPTIONS
// (Compile) or CL_INVALID_LINKER_OPTIONS (Link) for an option that is unknown, not valid
// for the use, or lacks its argument.
BuildOptions parse_build_options(std::string_view text, OptionsUse use);

// The options that govern code generation of what clLinkProgram makes from `inputs` (each
// compiled object's compile options, or each library's own result of this function) and the
// parsed link options. As 5.8.7 allows, the link options' math options are applied to every
// compiled object, and to a library only if it was created with -enable-link-options. The
// result has a relaxation (fast math, denormals to zero, uniform work-groups...) only where
// every input has it, since it applies to the whole program; a requirement (argument info,
// debug info, no optimisation, correctly rounded divide and sqrt) where any input has it.
// cl_std is kept where all inputs agree. text, create_library and enable_link_options come
// from link_options; clang_args is empty.
BuildOptions combine_link_options(std::span<const BuildOptions* const> inputs,
                                  const BuildOptions& link_options);

}  // namespace cucl::compiler
