// cl_khr_command_buffer as version 0.9.8 (1.0) defines it, where Debian's (2023) headers
// have an older version: the names they lack, and the entry points with their 0.9.8
// parameters (every record call takes a properties list). Written from the extension's
// specification. A file that includes this must not see the older prototypes of
// <CL/cl_ext.h>: it defines CL_NO_PROTOTYPES before including any OpenCL header.
#pragma once

#include <CL/cl_ext.h>

typedef cl_properties cl_command_properties_khr;

#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif
#ifndef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2
#endif

// The version this implementation follows (CL_DEVICE_EXTENSIONS_WITH_VERSION).
#define CUCL_COMMAND_BUFFER_VERSION CL_MAKE_VERSION(0, 9, 8)
