// The SVM commands (clEnqueueSVM*), each built after its checks as a CommandSpec for
// submit(). Every one first needs a queue whose device supports SVM (CL_INVALID_OPERATION).
#pragma once

#include <CL/cl.h>

#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

using SvmFreeCallback = void(CL_CALLBACK*)(cl_command_queue queue, cl_uint num_svm_pointers, void* svm_pointers[],
                                           void* user_data);

// clEnqueueSVMFree: the callback with a copy of the list, or clSVMFree of each pointer, in
// the queue's order. CL_INVALID_VALUE when the count and the list disagree.
CommandSpec svm_free_command(Queue& queue, cl_uint num_svm_pointers, void* const* svm_pointers,
                             SvmFreeCallback free_function, void* user_data);

// clEnqueueSVMMemcpy (and clCommandSVMMemcpyKHR): CL_INVALID_VALUE for a NULL end,
// CL_MEM_COPY_OVERLAP.
CommandSpec svm_memcpy(Queue& queue, void* dst, const void* src, size_t size);

// clEnqueueSVMMemFill (and clCommandSVMMemFillKHR): CL_INVALID_VALUE for a NULL pointer or
// pattern, a pattern size that is not a power of two up to 128, a pointer not aligned to it,
// a size that is not a multiple of it.
CommandSpec svm_mem_fill(Queue& queue, void* pointer, const void* pattern, size_t pattern_size, size_t size);

// clEnqueueSVMMap: CL_INVALID_VALUE for NULL, a size of 0 or bad flags. The memory is the
// host's already; on a GPU the pages of managed memory move towards the host, and a dual
// view's device copy is copied to its host copy (op::SharedMove). Once it is submitted, the
// caller notes the map (SvmAllocations::note_map) for the unmap to find.
CommandSpec svm_map(Queue& queue, cl_map_flags flags, void* pointer, size_t size);
// clEnqueueSVMUnmap: CL_INVALID_VALUE for NULL. What the last map of `pointer` covered moves
// back towards the GPU (copied back only where the map let the host write).
CommandSpec svm_unmap(Queue& queue, void* pointer);

// clEnqueueSVMMigrateMem: CL_INVALID_VALUE for an empty list, bad flags, or a range that
// leaves its allocation. A size of 0 (or no sizes) means the whole allocation.
CommandSpec svm_migrate(Queue& queue, cl_uint num_svm_pointers, const void** svm_pointers, const size_t* sizes,
                        cl_mem_migration_flags flags);

}  // namespace cucl
