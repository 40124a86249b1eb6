// Image formats: the channel orders and data types the specification defines, a format's
// pixel size, the formats a device with images supports (clGetSupportedImageFormats), and a
// pixel made from a fill colour (clEnqueueFillImage).
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <vector>

namespace cucl {

// Bytes per pixel of `format`, or 0 when it is not a valid image format descriptor.
size_t pixel_size(const cl_image_format& format);
bool is_image_type(cl_mem_object_type type);

// Every format a device with images supports in kernels with the access `flags` allow
// (CL_MEM_READ_ONLY, ..._WRITE_ONLY, ..._READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE), for every
// image type: the specification's required formats and more, all read and written by the
// image builtins in software. sRGB formats are read-only (no cl_khr_srgb_image_writes).
std::vector<cl_image_format> supported_image_formats(cl_mem_flags flags);
bool supports_image_format(const cl_image_format& format, cl_mem_flags flags);

// One pixel of `format` holding `color` (four floats for normalized and floating-point
// formats, four cl_int or cl_uint for the integer ones), converted as a kernel's
// write_image{f,i,ui} would: rounded to nearest even and saturated; sRGB from linear.
std::array<uint8_t, 16> fill_pixel(const cl_image_format& format, const void* color);

}  // namespace cucl
