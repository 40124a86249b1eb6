// Creating images (clCreateImage, clCreateImageWithProperties, clCreateImage2D/3D) with every
// check the specification lists, clGetSupportedImageFormats, and pipes, which no device
// supports (CL_DEVICE_PIPE_SUPPORT is false).
#pragma once

#include <CL/cl.h>

#include "platform/memory/image.h"

namespace cucl {

Ref<Image> create_image(Context& context, const cl_mem_properties* properties, cl_mem_flags flags,
                        const cl_image_format* format, const cl_image_desc* desc, void* host_ptr);
// clCreateImage2D and clCreateImage3D (depth 0 for 2D): their own error rules (pitches are
// CL_INVALID_IMAGE_SIZE there), then clCreateImage's.
struct LegacyImage {
  size_t width, height, depth;  // depth 0 for clCreateImage2D
  size_t row_pitch, slice_pitch;
};
Ref<Image> create_legacy_image(Context& context, cl_mem_flags flags, const cl_image_format* format,
                               const LegacyImage& image, void* host_ptr);

// clGetSupportedImageFormats: the formats every device of the context with images supports
// (they all support the same ones).
void supported_image_formats(const Context& context, cl_mem_flags flags, cl_mem_object_type image_type,
                             cl_uint num_entries, cl_image_format* image_formats, cl_uint* num_image_formats);

// Whether `device` can hold `image` (its sizes within the device's limits, its format one it
// supports): CL_INVALID_OPERATION without images, CL_INVALID_IMAGE_SIZE,
// CL_IMAGE_FORMAT_NOT_SUPPORTED. Image commands and kernel launches check this.
void check_device_takes(const Device& device, const Image& image);

// clCreatePipe: CL_INVALID_OPERATION. Any handle is not a pipe (CL_INVALID_MEM_OBJECT).
[[noreturn]] void reject_pipe(const Context& context);
[[noreturn]] void lookup_pipe(cl_mem handle);

}  // namespace cucl
