// The ICD handle structs: the only thing an application or the loader ever sees of an
// object. cl_khr_icd requires the dispatch table pointer to be the first member.
#pragma once

#include <CL/cl_icd.h>

struct IcdHandle {
  const cl_icd_dispatch* dispatch;
};

#define CUCL_DECLARE_HANDLE(name) \
  struct name : IcdHandle {}

CUCL_DECLARE_HANDLE(_cl_platform_id);
CUCL_DECLARE_HANDLE(_cl_device_id);
CUCL_DECLARE_HANDLE(_cl_context);
CUCL_DECLARE_HANDLE(_cl_command_queue);
CUCL_DECLARE_HANDLE(_cl_mem);
CUCL_DECLARE_HANDLE(_cl_program);
CUCL_DECLARE_HANDLE(_cl_kernel);
CUCL_DECLARE_HANDLE(_cl_event);
CUCL_DECLARE_HANDLE(_cl_sampler);
CUCL_DECLARE_HANDLE(_cl_command_buffer_khr);
CUCL_DECLARE_HANDLE(_cl_mutable_command_khr);

#undef CUCL_DECLARE_HANDLE

namespace cucl {
// The loader's table as of OpenCL 3.1: Debian's cl_icd.h ends with OpenCL 3.0's entries, and
// OpenCL 3.1 appends clGetKernelSuggestedLocalWorkSize.
struct DispatchTable {
  cl_icd_dispatch through_3_0;
  void* clGetKernelSuggestedLocalWorkSize;
};
// Defined by icd/dispatch.cpp: the table every handle points to.
extern const DispatchTable kDispatchTable;
}  // namespace cucl
