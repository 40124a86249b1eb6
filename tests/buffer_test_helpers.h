// Helpers shared by the buffer test programs (test_buffer*.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "support/test_support.h"

namespace buffer_test {

// Releases a cl_mem at scope exit.
class Mem {
 public:
  Mem() = default;
  explicit Mem(cl_mem memory) : memory_(memory) {}
  Mem(Mem&& other) noexcept : memory_(std::exchange(other.memory_, nullptr)) {}
  Mem& operator=(Mem&& other) noexcept {
    std::swap(memory_, other.memory_);
    return *this;
  }
  ~Mem() {
    if (memory_) {
      EXPECT_EQ(clReleaseMemObject(memory_), CL_SUCCESS);
    }
  }
  operator cl_mem() const { return memory_; }
  cl_mem get() const { return memory_; }
  const cl_mem* address() const { return &memory_; }  // for clSetKernelArg
  // Gives up ownership (for tests that release by hand).
  cl_mem release() { return std::exchange(memory_, nullptr); }

 private:
  cl_mem memory_ = nullptr;
};

inline Mem make_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr = nullptr) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_mem memory = clCreateBuffer(context, flags, size, host_ptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_NE(memory, nullptr);
  return Mem(memory);
}

inline cl_mem create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int* status) {
  cl_buffer_region region{origin, size};
  return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, status);
}

inline Mem make_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
  cl_int status = CL_OUT_OF_RESOURCES;
  Mem memory(create_sub_buffer(parent, flags, origin, size, &status));
  EXPECT_EQ(status, CL_SUCCESS);
  return memory;
}

// The error clCreateSubBuffer reports for these arguments (and that it returns no object).
inline cl_int sub_buffer_error(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
  return cucl_test::create_error(
      [&](cl_int* status) { return create_sub_buffer(parent, flags, origin, size, status); });
}

// The error clCreateBuffer reports for these arguments (and that it returns no object).
inline cl_int buffer_error(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr = nullptr) {
  return cucl_test::create_error(
      [&](cl_int* status) { return clCreateBuffer(context, flags, size, host_ptr, status); });
}

// Bytes that differ from their neighbours and from other seeds.
inline std::vector<uint8_t> pattern(size_t size, uint8_t seed = 1) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 8));
  return bytes;
}

inline std::vector<uint8_t> read_all(cl_command_queue queue, cl_mem memory, size_t size) {
  std::vector<uint8_t> bytes(size, 0xEE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, memory, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr), CL_SUCCESS);
  return bytes;
}

inline void write_all(cl_command_queue queue, cl_mem memory, const std::vector<uint8_t>& bytes) {
  EXPECT_EQ(clEnqueueWriteBuffer(queue, memory, CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
}

// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: the smallest sub-buffer origin step.
inline size_t base_align(cl_device_id device) {
  return cucl_test::info_value<cl_uint>(clGetDeviceInfo, device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
}

// A context, an in-order queue and the device's sub-buffer alignment.
class BufferFixture : public ::testing::Test {
 protected:
  cucl_test::Env env;
  size_t align = base_align(env.device);
};

}  // namespace buffer_test
