// The OpenCL 3.1 entry points Debian's (2023) headers lack, declared from the OpenCL 3.1
// API specification.
#pragma once

#include <CL/cl.h>

#ifndef CL_VERSION_3_1
extern "C" CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSize(cl_command_queue command_queue,
                                                                             cl_kernel kernel, cl_uint work_dim,
                                                                             const size_t* global_work_offset,
                                                                             const size_t* global_work_size,
                                                                             size_t* suggested_local_work_size);
#endif
