#include "platform/info/info.h"
#include "platform/memory/image.h"

namespace cucl {

void image_info(Image& image, cl_image_info param, InfoWriter& out) {
  const ImageGeometry& g = image.geometry();
  // The dimensions an image's type does not have read 0, as do the slice pitches of 1D and 2D images.
  const bool has_height = g.dimensions() == 3 || g.type == CL_MEM_OBJECT_IMAGE2D;
  const bool layered = g.dimensions() == 3 || g.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  MemObject* buffer = image.source() && image.source()->type() == CL_MEM_OBJECT_BUFFER ? image.source() : nullptr;
  switch (param) {
    case CL_IMAGE_FORMAT: return out.scalar(g.format);
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar(g.pixel_size);
    case CL_IMAGE_ROW_PITCH: return out.scalar(g.reported_row_pitch());
    case CL_IMAGE_SLICE_PITCH: return out.scalar(layered ? g.slice_pitch : size_t{0});
    case CL_IMAGE_WIDTH: return out.scalar(g.width);
    case CL_IMAGE_HEIGHT: return out.scalar(has_height ? g.height : size_t{0});
    case CL_IMAGE_DEPTH: return out.scalar(g.type == CL_MEM_OBJECT_IMAGE3D ? g.depth : size_t{0});
    case CL_IMAGE_ARRAY_SIZE: return out.scalar(g.is_array() ? g.array_size : size_t{0});
    case CL_IMAGE_BUFFER: return out.scalar(buffer ? buffer->id() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS: return out.scalar(cl_uint{0});
    case CL_IMAGE_NUM_SAMPLES: return out.scalar(cl_uint{0});
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl
