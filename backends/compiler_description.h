// What every cucl device with a compiler reports the same way: the OpenCL C versions,
// the OpenCL C 3.0 features, SPIR-V, the language extensions, generic address space and
// non-uniform groups, program-scope globals and the atomic capabilities.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/device_description.h"

namespace cucl::backend {

struct CompilerSetup {
  std::string triple;
  std::vector<std::string> clang_args;
  std::string code_target;
  std::string_view builtin_library;  // the embedded bitcode (its hash goes into compiler_identity)
  const char* builtin_library_name;  // "builtins", "nvptx-builtins"
  bool all_devices_scope;            // atomics and fences with memory_scope_all_devices work
};

void describe_opencl_c_compiler(DeviceDescription& d, const CompilerSetup& setup);

// cl_ext_float_atomics for float and double (which every device with a compiler has), in
// global and local memory: load, store and exchange, add and sub, min and max, with their
// OpenCL C feature macros. Part of describe_opencl_c_compiler.
void describe_float_atomics(DeviceDescription& d);

// cl_khr_fp16 with `native_width` halves in a native vector: the builtin libraries' half
// overloads, round to nearest, with infinities, NaNs and subnormals (`fma` fused where the
// device has hardware fma).
void describe_half_precision(DeviceDescription& d, cl_uint native_width, bool hardware_fma);

// cl_ext_float_atomics for half, in global and local memory: load, store and exchange, add
// and sub, min and max, with their feature macros. Nothing without cl_khr_fp16: call after
// describe_half_precision.
void describe_half_atomics(DeviceDescription& d);

// OpenCL 3.1 for a device that has everything 3.1 requires (a compiler, sub-groups, SPIR-V
// up to 1.4, the extensions 3.1 promotes), which then also accepts OpenCL C 3.1. Call last.
void report_opencl_3_1_where_complete(DeviceDescription& d);

// Images read and written by the builtin libraries' software image functions (any format of
// platform/memory/image_format.h, every image type, read-write images, 3D writes, 2D images
// from buffers), with limits that keep the largest image within `max_mem_alloc_size`.
void describe_software_images(DeviceDescription& d);

// Sub-groups of `width` work-items (the last of a group partial) with every sub-group
// extension the builtin libraries implement; cl_khr_subgroups only with independent forward
// progress. Call after max_work_group_size is known.
void describe_sub_groups(DeviceDescription& d, cl_uint width, bool independent_forward_progress);

}  // namespace cucl::backend
