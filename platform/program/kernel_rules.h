// Creating kernels and setting what a launch uses besides the arguments.
#pragma once

#include "platform/program/kernel.h"

namespace cucl {

// clCreateKernel: CL_INVALID_VALUE for a null name, then the Kernel constructor's rules.
Ref<Kernel> create_kernel(Ref<Program> program, const char* name);

// clCreateKernelsInProgram: publishes one kernel per kernel of the program's executable
// into `kernels` (when given; it must have room for all of them).
void create_kernels_in_program(Ref<Program> program, cl_uint num_kernels, cl_kernel* kernels,
                               cl_uint* num_kernels_ret);

}  // namespace cucl
