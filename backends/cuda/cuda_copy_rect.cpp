// clEnqueue{Read,Write,Copy}BufferRect: one cuMemcpy3DAsync where the pitches describe a
// 3D array the driver accepts, one cuMemcpy2DAsync per slice or one copy per row otherwise.
#include <cstring>

#include "backends/cuda/cuda_execute.h"
#include "backends/cuda/cuda_memory.h"

namespace cucl::backend::cuda {
namespace {

// One end of the copy as the driver sees it.
struct End {
  CUmemorytype type;
  CUdeviceptr device = 0;  // memory
  char* host = nullptr;    // application memory, or registered memory's host view
  size_t row_pitch, slice_pitch;

  End(const Location& location, size_t row, size_t slice) : row_pitch(row), slice_pitch(slice) {
    if (location.memory) {
      auto& memory = *static_cast<CudaMemory*>(location.memory);
      type = CU_MEMORYTYPE_DEVICE;
      device = memory.device_address(location.offset);
      host = memory.host_address(location.offset);
    } else {
      type = CU_MEMORYTYPE_HOST;
      host = static_cast<char*>(location.host) + location.offset;
    }
  }
  size_t at(size_t y, size_t z) const { return z * slice_pitch + y * row_pitch; }
  // Slices made of whole rows, as a CUDA 3D array has.
  bool whole_rows() const { return row_pitch != 0 && slice_pitch % row_pitch == 0; }
};

void set_source(CUDA_MEMCPY3D& copy, const End& end, size_t y, size_t z) {
  copy.srcMemoryType = end.type;
  if (end.type == CU_MEMORYTYPE_DEVICE) copy.srcDevice = end.device + end.at(y, z);
  else copy.srcHost = end.host + end.at(y, z);
  copy.srcPitch = end.row_pitch;
}

void set_destination(CUDA_MEMCPY3D& copy, const End& end, size_t y, size_t z) {
  copy.dstMemoryType = end.type;
  if (end.type == CU_MEMORYTYPE_DEVICE) copy.dstDevice = end.device + end.at(y, z);
  else copy.dstHost = end.host + end.at(y, z);
  copy.dstPitch = end.row_pitch;
}

}  // namespace

Pending enqueue_copy_rect(CudaContext& context, CUstream stream, const op::CopyRect& rect) {
  const size_t width = rect.region[0], height = rect.region[1], depth = rect.region[2];
  if (width == 0 || height == 0 || depth == 0) return Pending::Nothing;
  End src(rect.src, rect.src_row_pitch, rect.src_slice_pitch);
  End dst(rect.dst, rect.dst_row_pitch, rect.dst_slice_pitch);
  const CudaDriver& driver = context.driver();

  if (src.host && dst.host) {  // both ends in host memory
    for (size_t z = 0; z < depth; ++z) {
      for (size_t y = 0; y < height; ++y) std::memmove(dst.host + dst.at(y, z), src.host + src.at(y, z), width);
    }
    return Pending::Nothing;
  }

  const bool pitches_fit = src.row_pitch <= context.max_pitch() && dst.row_pitch <= context.max_pitch();
  if (pitches_fit && (depth == 1 || (src.whole_rows() && dst.whole_rows()))) {
    CUDA_MEMCPY3D copy{};
    set_source(copy, src, 0, 0);
    set_destination(copy, dst, 0, 0);
    copy.srcHeight = depth == 1 ? height : src.slice_pitch / src.row_pitch;
    copy.dstHeight = depth == 1 ? height : dst.slice_pitch / dst.row_pitch;
    copy.WidthInBytes = width;
    copy.Height = height;
    copy.Depth = depth;
    context.check(driver.cuMemcpy3DAsync(&copy, stream), "cuMemcpy3DAsync");
    return Pending::StreamWork;
  }
  for (size_t z = 0; z < depth; ++z) {
    if (pitches_fit) {
      CUDA_MEMCPY3D copy{};
      set_source(copy, src, 0, z);
      set_destination(copy, dst, 0, z);
      copy.srcHeight = copy.dstHeight = height;
      copy.WidthInBytes = width;
      copy.Height = height;
      copy.Depth = 1;
      context.check(driver.cuMemcpy3DAsync(&copy, stream), "cuMemcpy3DAsync");
      continue;
    }
    for (size_t y = 0; y < height; ++y) {
      CUdeviceptr to = dst.type == CU_MEMORYTYPE_DEVICE ? dst.device + dst.at(y, z)
                                                         : reinterpret_cast<CUdeviceptr>(dst.host + dst.at(y, z));
      CUdeviceptr from = src.type == CU_MEMORYTYPE_DEVICE ? src.device + src.at(y, z)
                                                           : reinterpret_cast<CUdeviceptr>(src.host + src.at(y, z));
      context.check(driver.cuMemcpyAsync(to, from, width, stream), "cuMemcpyAsync");
    }
  }
  return Pending::StreamWork;
}

}  // namespace cucl::backend::cuda
