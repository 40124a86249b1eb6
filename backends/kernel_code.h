// Device code at the backend boundary: code generation from LLVM bitcode, loading code,
// and the launch of one kernel. platform/ owns the program and kernel objects and every
// rule about them; a backend only turns bitcode into code and runs it.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cucl::backend {

// The flags of a build that change code generation, from the OpenCL build options.
struct CodegenOptions {
  bool optimize = true;            // false for -cl-opt-disable
  bool denorms_are_zero = false;   // -cl-denorms-are-zero
  bool unsafe_math = false;        // -cl-unsafe-math-optimizations (or -cl-fast-relaxed-math)
  bool finite_math_only = false;   // -cl-finite-math-only (or -cl-fast-relaxed-math)
  bool no_signed_zeros = false;    // -cl-no-signed-zeros
  bool mad_enable = false;         // -cl-mad-enable
  bool correctly_rounded_divide_sqrt = false;  // -cl-fp32-correctly-rounded-divide-sqrt
};

struct CodegenResult {
  bool ok = false;
  std::string log;     // diagnostics for CL_PROGRAM_BUILD_LOG (may be set on success too)
  std::string native;  // the device code, in the backend's own format
};

// One kernel of loaded device code.
class KernelCode {
 public:
  virtual ~KernelCode() = default;
  // The largest work-group this kernel can run with (CL_KERNEL_WORK_GROUP_SIZE).
  virtual size_t max_work_group_size() const = 0;
  // Bytes of kernel-scope __local variables (part of CL_KERNEL_LOCAL_MEM_SIZE).
  virtual uint64_t static_local_memory() const = 0;
  virtual uint64_t private_memory() const = 0;
  // The work-group size this kernel runs best with, an upper bound for the product of the
  // local sizes cucl picks for a NULL local_work_size; 0 when the device has no preference.
  virtual size_t preferred_work_group_size() const { return 0; }
  // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE where it is this kernel's own (the host's
  // vector width); 0: the device's.
  virtual size_t preferred_work_group_size_multiple() const { return 0; }
};

// A program's device code, ready to launch.
class LoadedProgram {
 public:
  virtual ~LoadedProgram() = default;
  // Null when the code has no kernel of that name.
  virtual const KernelCode* kernel(std::string_view name) const = 0;
};

struct NDRange {
  cl_uint work_dim = 1;
  std::array<size_t, 3> global_offset{0, 0, 0};
  std::array<size_t, 3> global_size{1, 1, 1};
  std::array<size_t, 3> local_size{1, 1, 1};  // the enqueued size; edge groups may be smaller
};

}  // namespace cucl::backend
