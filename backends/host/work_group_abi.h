// The calling convention between the host device's generated code and the C++ that
// runs it. The code generator lays out the same structure in LLVM IR
// (backends/host/codegen/work_group_lowering.cpp): keep the two in step.
#pragma once

#include <cstdint>

namespace cucl::backend::host {

struct WorkGroupContext {
  uint64_t group_id[3];
  uint64_t local_size[3];           // this group's size (smaller at the edge of a non-uniform range)
  uint64_t enqueued_local_size[3];
  uint64_t global_size[3];
  uint64_t global_offset[3];
  uint64_t num_groups[3];
  uint32_t work_dim;
  uint32_t reserved;
  char* local_memory;  // this group's __local arena: kernel-scope variables, then __local arguments
  void* scheduler;     // the FiberGroup running a kernel with barriers
  char* printf_buffer; // the launch's printf records (backends/printf_format.h), or null
  // Where a generic pointer may point, for to_global/to_local/to_private and get_fence:
  // the __local arena is [local_memory, local_memory + local_memory_bytes), private
  // memory (the stack the work-items run on) is [private_low, private_high).
  uint64_t local_memory_bytes;
  char* private_low;
  char* private_high;
  // A kernel whose barriers split it into regions (KernelInfoRecord::region_*_bytes): where
  // its work-items keep what they carry from one region to the next.
  char* region_state;
};

// Field numbers of WorkGroupContext, for the IR side.
enum WorkGroupContextField : unsigned {
  kGroupId, kLocalSize, kEnqueuedLocalSize, kGlobalSize, kGlobalOffset, kNumGroups, kWorkDim, kReserved,
  kLocalMemory, kScheduler, kPrintfBuffer, kLocalMemoryBytes, kPrivateLow, kPrivateHigh, kRegionState
};

// `args[i]` points to argument i's value: the pointer for a buffer or __local argument, the
// bytes of a by-value argument.
using WorkGroupFunction = void (*)(void* const* args, const WorkGroupContext* context);
using WorkItemFunction = void (*)(void* const* args, const WorkGroupContext* context, uint64_t x, uint64_t y,
                                  uint64_t z);

// Described by the generated `<kernel>.cucl_info` constant.
struct KernelInfoRecord {
  uint64_t local_memory_bytes;  // kernel-scope __local variables
  uint32_t has_barriers;        // 1: run as fibers through <kernel>.cucl_wi, else <kernel>.cucl_wg
  uint32_t uses_printf;         // 1: the launch needs a printf buffer
  uint64_t private_memory_bytes;  // the entry point's stack allocations, after optimisation
  // A <kernel>.cucl_wg whose barriers split it into regions needs WorkGroupContext::region_state
  // of region_item_bytes per work-item plus region_row_bytes per row of the group; both 0 otherwise.
  uint64_t region_item_bytes;
  uint64_t region_row_bytes;
  uint32_t vector_width;  // work-items the vector form runs at once; 1 without one
  uint32_t reserved;
};

// The most work-items of a group, and of each of its dimensions: the code generator takes
// every local id to be below it.
inline constexpr uint64_t kMaxWorkGroupSize = 4096;

// A work-item's private memory beyond this fails the build (each runs on a stack that size).
inline constexpr uint64_t kMaxPrivateMemoryBytes = uint64_t{256} << 20;

inline constexpr const char* kWorkGroupSuffix = ".cucl_wg";
inline constexpr const char* kWorkItemSuffix = ".cucl_wi";
inline constexpr const char* kInfoSuffix = ".cucl_info";
inline constexpr const char* kBarrierFunction = "cucl_host_barrier";
// The program's printf call sites (encode_printf_table) and their size in bytes.
inline constexpr const char* kPrintfTable = "cucl_printf_table";
inline constexpr const char* kPrintfTableSize = "cucl_printf_table_size";

}  // namespace cucl::backend::host
