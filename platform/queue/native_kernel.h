#pragma once

#include "platform/queue/command.h"
#include "platform/queue/queue.h"

namespace cucl {

using NativeFunction = void(CL_CALLBACK*)(void*);

// clEnqueueNativeKernel: checks the arguments and builds a command that calls `function`
// on a host thread with a private copy of `args`, in which each pointer listed in
// `args_mem_loc` is replaced by the address of the matching buffer's memory.
CommandSpec native_kernel(Queue& queue, NativeFunction function, const void* args, size_t args_size,
                          cl_uint num_mem_objects, const cl_mem* mem_list, const void** args_mem_loc);

}  // namespace cucl
