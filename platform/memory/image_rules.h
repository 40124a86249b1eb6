// Images, samplers and pipes: their argument rules. CL_DEVICE_IMAGE_SUPPORT and
// CL_DEVICE_PIPE_SUPPORT are false on every device, so no image, sampler or pipe object can
// exist yet. Each reject_* call checks what the specification checks before the missing
// feature, then throws the error it gives for it.
#pragma once

#include <CL/cl.h>

namespace cucl {

class Context;

// Bytes per pixel of `format`, or 0 when it is not a valid image format descriptor.
size_t pixel_size(const cl_image_format& format);
// clCreateImage2D/3D's pitch rules: 0 without host_ptr; with it, 0 (meaning `count` units)
// or at least that and a multiple of `unit` (CL_INVALID_IMAGE_SIZE). Returns the pitch in
// effect.
size_t checked_pitch(size_t pitch, size_t count, size_t unit, const void* host_ptr);
bool is_image_type(cl_mem_object_type type);

// clCreateSampler's values (CL_INVALID_VALUE).
void check_sampler_values(cl_bool normalized_coords, cl_addressing_mode addressing_mode, cl_filter_mode filter_mode);
// The sampler properties of the core specification (the cl_khr_mipmap_image ones are not
// supported), each at most once, with valid values (CL_INVALID_VALUE).
void check_sampler_properties(const cl_sampler_properties* properties);

// clCreateImage, clCreateImageWithProperties: the specification checks image support right
// after the context (CL_INVALID_OPERATION).
[[noreturn]] void reject_image(const Context& context);

struct LegacyImage {
  size_t width, height, depth;  // depth 0 for clCreateImage2D
  size_t row_pitch, slice_pitch;
};

// clCreateImage2D/3D list CL_INVALID_OPERATION after the checks of their own arguments
// (flags, format, sizes, pitches, host pointer). The checks against device limits and
// supported formats are left out: they only have a meaning for a device that supports
// images.
[[noreturn]] void reject_legacy_image(const Context& context, cl_mem_flags flags, const cl_image_format* format,
                                      const LegacyImage& image, const void* host_ptr);

// clGetSupportedImageFormats: the union of the formats of the context's devices, which is
// none.
void supported_image_formats(const Context& context, cl_mem_flags flags, cl_mem_object_type image_type,
                             cl_uint num_entries, cl_image_format* image_formats, cl_uint* num_image_formats);

// The image, sampler or pipe behind a handle. None can exist yet, so each throws its type's
// invalid-handle error (CL_INVALID_MEM_OBJECT, CL_INVALID_SAMPLER): a buffer is not an
// image or a pipe either. Image commands look their image up after their queue.
[[noreturn]] void lookup_image(cl_mem handle);
[[noreturn]] void lookup_sampler(cl_sampler handle);
[[noreturn]] void lookup_pipe(cl_mem handle);

// clCreateSampler and clCreateSamplerWithProperties: their values, then
// CL_INVALID_OPERATION (no device supports images).
[[noreturn]] void reject_sampler(const Context& context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                                 cl_filter_mode filter_mode);
[[noreturn]] void reject_sampler_with_properties(const Context& context, const cl_sampler_properties* properties);

// clCreatePipe: CL_INVALID_OPERATION (CL_DEVICE_PIPE_SUPPORT is false on every device).
[[noreturn]] void reject_pipe(const Context& context);

}  // namespace cucl
