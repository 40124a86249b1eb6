// The device memory of a released buffer serves the next buffer of its size
// (backends/cuda/cuda_device_allocations.h), and only once every command that used the
// released buffer has ended: a kernel still writing it never writes the new buffer. Buffers
// released right after a clFinish leave room for the next ones although their last commands
// may not have been finished by the stream's thread yet (cuda_finishing_threads.h). The
// program runs alone (RUN_SERIAL): one test takes most of the card's memory.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "event_test_helpers.h"
#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

// churn: each work-item writes an odd number after `steps` dependent steps, long after it
// started. address_of: where a buffer is in the GPU's memory.
constexpr const char* kSource = R"(
kernel void address_of(global uint* buffer, global ulong* out) { out[0] = (ulong)buffer; }
kernel void churn(global uint* out, uint steps) {
  uint x = get_global_id(0);
  for (uint i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x | 1u;
}
)";

class CudaBufferReuse : public GpuTest {};

TEST_F(CudaBufferReuse, AReleasedBufferServesTheNextBufferOfItsSize) {
  constexpr size_t kSize = 1 << 20;
  BuiltProgram program(*env, kSource);
  ASSERT_TRUE(program);
  cl_kernel address_of = program.kernel("address_of");
  // Also a live buffer throughout (memory is allocated at its first use, address()'s first launch).
  Mem where = make_buffer(context(), 0, sizeof(cl_ulong));
  auto address = [&](cl_mem buffer) {
    set_args(address_of, buffer, where.get());
    const size_t one = 1;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue(), address_of, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    cl_ulong value = 0;
    EXPECT_EQ(clEnqueueReadBuffer(queue(), where, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr), CL_SUCCESS);
    return value;
  };
  cl_ulong released_address = 0;
  {
    Mem released = make_buffer(context(), 0, kSize);
    write_all(queue(), released, pattern(kSize, 3));
    released_address = address(released);
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  Mem other_size = make_buffer(context(), 0, kSize + 4096);
  EXPECT_NE(address(other_size), released_address);
  Mem same_size = make_buffer(context(), 0, kSize);
  EXPECT_EQ(address(same_size), released_address);
  // And it is a buffer like any other.
  const auto data = pattern(kSize, 8);
  write_all(queue(), same_size, data);
  EXPECT_EQ(read_all(queue(), same_size, kSize), data);
}

TEST_F(CudaBufferReuse, ABufferReleasedWhileAKernelWritesItIsNotReusedBeforeTheKernelEnds) {
  constexpr size_t kItems = 1 << 14, kSize = kItems * sizeof(cl_uint);
  BuiltProgram program(*env, kSource);
  ASSERT_TRUE(program);
  cl_kernel churn = program.kernel("churn");
  cl_command_queue other = make_queue(context(), gpu, 0);
  Mem anchor = make_buffer(context(), 0, 4096);
  write_all(queue(), anchor, pattern(4096, 5));  // memory is allocated at first use: now there is a live one
  for (int round = 0; round < 3; ++round) {
    {
      Mem written = make_buffer(context(), 0, kSize);
      set_args(churn, written.get(), cl_uint{1} << 22);  // some milliseconds
      ASSERT_EQ(clEnqueueNDRangeKernel(queue(), churn, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
      ASSERT_EQ(clFlush(queue()), CL_SUCCESS);
    }  // released while the kernel runs
    Mem fresh = make_buffer(context(), 0, kSize);
    const cl_uint zero = 0;
    ASSERT_EQ(clEnqueueFillBuffer(other, fresh, &zero, sizeof zero, 0, kSize, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(other), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    std::vector<cl_uint> back(kItems, 1);
    ASSERT_EQ(clEnqueueReadBuffer(other, fresh, CL_TRUE, 0, kSize, back.data(), 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(back, std::vector<cl_uint>(kItems, 0)) << "round " << round;
  }
  EXPECT_EQ(clReleaseCommandQueue(other), CL_SUCCESS);
}

// Each round takes 60 % of the card in buffers of at most CL_DEVICE_MAX_MEM_ALLOC_SIZE, writes
// each with a command nothing names, waits with clFinish (which may return before the stream's
// thread has finished those commands and let go of the buffers) and releases them: the next
// round's buffers fit only once this round's have gone.
TEST_F(CudaBufferReuse, BuffersReleasedRightAfterAFinishLeaveRoomForTheNextRound) {
  const cl_ulong global = info_value<cl_ulong>(clGetDeviceInfo, gpu, CL_DEVICE_GLOBAL_MEM_SIZE);
  const cl_ulong max_alloc = info_value<cl_ulong>(clGetDeviceInfo, gpu, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const cl_ulong round_bytes = global / 10 * 6;
  const cl_uint marker = 0x5eed;
  for (int round = 0; round < 6; ++round) {
    std::vector<Mem> buffers;
    for (cl_ulong taken = 0; taken < round_bytes;) {
      const size_t size = static_cast<size_t>(std::min(max_alloc, round_bytes - taken));
      buffers.push_back(make_buffer(context(), 0, size));
      ASSERT_EQ(clEnqueueWriteBuffer(queue(), buffers.back(), CL_FALSE, size - sizeof marker, sizeof marker, &marker,
                                     0, nullptr, nullptr),
                CL_SUCCESS)
          << "round " << round << ", buffer " << buffers.size();
      taken += size;
    }
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    cl_uint back = 0;
    const size_t last = info_value<size_t>(clGetMemObjectInfo, buffers.back().get(), CL_MEM_SIZE);
    ASSERT_EQ(clEnqueueReadBuffer(queue(), buffers.back(), CL_TRUE, last - sizeof back, sizeof back, &back, 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(back, marker) << "round " << round;
  }
}

}  // namespace
