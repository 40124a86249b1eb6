// How a kernel made by the NVPTX code generator (codegen/) is launched: the contract
// between the code generator and the launch (cuda_launch.cpp).
//
// Each OpenCL kernel `k` becomes a PTX entry named `k` whose parameters are the kernel's
// arguments, in order, then one LaunchContext:
// - a __global or __constant pointer: the buffer's device address (8 bytes; 0 for NULL);
// - a __local pointer: a u32 byte offset into the launch's dynamic shared memory, a
//   multiple of kLocalArgumentAlignment; the launch lays the __local arguments out in
//   argument order and asks for their total as dynamic shared memory;
// - any other argument: its bytes, as clSetKernelArg received them;
// - the LaunchContext, by value.
// Kernel-scope __local variables are static shared memory (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cucl::backend::cuda {

constexpr uint32_t kLocalArgumentAlignment = 128;  // every OpenCL C type fits

// The version of this contract, part of the code target (nvptx_code_target): code made for
// another layout of LaunchContext is not loaded (from the cache or a program binary).
// Version 3: a kernel may have a second entry, named with kTexturedEntrySuffix.
constexpr unsigned kLaunchAbiVersion = 3;

// The entry of a kernel for launches whose read-only images of the types textures serve
// (sampled_through_textures: all but 1D buffers) all have a texture for each sampler state
// (codegen/textured_variants.h).
constexpr const char* kTexturedEntrySuffix = "$textured";

// One CUDA launch of (part of) an NDRange. A non-uniform NDRange is launched as up to 8
// regions (full groups and the remainder groups of each dimension); `group_offset` is
// the group id of the region's first block, so get_group_id = group_offset + ctaid.
struct LaunchContext {
  uint64_t global_offset[3];
  uint64_t global_size[3];
  uint64_t enqueued_local_size[3];
  uint64_t num_groups[3];
  uint64_t group_offset[3];
  // global_offset + group_offset * enqueued_local_size: the global id of the region's first
  // work-item, so that get_global_id is global_base + ctaid * enqueued_local_size + tid, a
  // product of two 32-bit values (the enqueued local size fits 32 bits, ctaid does).
  uint64_t global_base[3];
  uint64_t printf_buffer;  // device address of the printf buffer (backends/printf_format.h); 0 if unused
  uint32_t work_dim;
  uint32_t reserved;
};
static_assert(sizeof(LaunchContext) == 160);

// Field indices of LaunchContext as the code generator's LLVM struct type sees it.
enum LaunchContextField : unsigned {
  kGlobalOffset, kGlobalSize, kEnqueuedLocalSize, kNumGroups, kGroupOffset, kGlobalBase, kPrintfBuffer, kWorkDim
};

}  // namespace cucl::backend::cuda
