/* Readable names for OpenCL status codes and device types, for cucl-hello's report. */
#pragma once

#include <CL/cl.h>

const char* cl_error_name(cl_int status);
const char* cl_device_type_name(cl_device_type type);
