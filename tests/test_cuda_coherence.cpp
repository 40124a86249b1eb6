// Buffers shared by the host device and a GPU in one context: whatever one device's
// command writes, a command on the other that is ordered after it (by events, a blocking
// call or a finish) sees, whether it is a read, a copy, a map, a native kernel or a kernel.
#include <algorithm>
#include <array>
#include <cstring>

#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

// A context with the host device and a GPU, one in-order queue on each.
class MixedCoherence : public MixedContextTest {
 protected:
  // A sub-buffer origin step that suits both devices.
  size_t sub_buffer_step() const { return std::max(base_align(devices[0]), base_align(devices[1])); }
};

std::vector<uint8_t> read_range(cl_command_queue queue, cl_mem buffer, size_t offset, size_t size) {
  std::vector<uint8_t> bytes(size, 0xEE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, offset, size, bytes.data(), 0, nullptr, nullptr), CL_SUCCESS);
  return bytes;
}

void write_range(cl_command_queue queue, cl_mem buffer, size_t offset, const std::vector<uint8_t>& bytes) {
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, offset, bytes.size(), bytes.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
}

std::vector<uint8_t> concat(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  std::vector<uint8_t> both = a;
  both.insert(both.end(), b.begin(), b.end());
  return both;
}

TEST_F(MixedCoherence, HalvesWrittenOnEachDeviceAreBothSeenByBoth) {
  constexpr size_t kHalf = 3 << 19;  // large enough for the GPU's staged transfers
  Mem buffer = make_buffer(context, 0, 2 * kHalf);
  auto first = pattern(kHalf, 1), second = pattern(kHalf, 2);
  write_range(host_queue(), buffer, 0, first);
  write_range(gpu_queue(), buffer, kHalf, second);
  auto expected = concat(first, second);
  EXPECT_EQ(read_all(host_queue(), buffer, 2 * kHalf), expected);
  EXPECT_EQ(read_all(gpu_queue(), buffer, 2 * kHalf), expected);
  // A small read in the middle, after a small write on the other device.
  std::vector<uint8_t> patch(16, 0x5A);
  write_range(host_queue(), buffer, kHalf - 8, patch);
  std::copy(patch.begin(), patch.end(), expected.begin() + kHalf - 8);
  EXPECT_EQ(read_range(gpu_queue(), buffer, kHalf - 32, 64),
            std::vector<uint8_t>(expected.begin() + kHalf - 32, expected.begin() + kHalf + 32));
}

TEST_F(MixedCoherence, CopyOnTheGpuOfWhatTheHostDeviceWrote) {
  constexpr size_t kSize = 1 << 16;
  Mem a = make_buffer(context, 0, kSize), b = make_buffer(context, 0, kSize);
  auto data = pattern(kSize, 3);
  write_all(host_queue(), a, data);
  ASSERT_EQ(clEnqueueCopyBuffer(gpu_queue(), a, b, 0, 0, kSize, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  EXPECT_EQ(read_all(host_queue(), b, kSize), data);
}

TEST_F(MixedCoherence, FillOnTheGpuIsSeenThroughAMapOnTheHostDevice) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(host_queue(), buffer, pattern(kSize, 4));
  uint32_t value = 0xA5A5F00D;
  ASSERT_EQ(clEnqueueFillBuffer(gpu_queue(), buffer, &value, sizeof value, 256, kSize - 512, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  cl_int status = CL_OUT_OF_RESOURCES;
  auto* mapped = static_cast<uint8_t*>(
      clEnqueueMapBuffer(host_queue(), buffer, CL_TRUE, CL_MAP_READ, 0, kSize, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  auto expected = pattern(kSize, 4);
  for (size_t i = 256; i < kSize - 256; i += 4) std::memcpy(&expected[i], &value, 4);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), mapped));
  ASSERT_EQ(clEnqueueUnmapMemObject(host_queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
}

TEST_F(MixedCoherence, WritesThroughAHostDeviceMapAreSeenByTheGpu) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(gpu_queue(), buffer, pattern(kSize, 5));
  cl_int status = CL_OUT_OF_RESOURCES;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapBuffer(host_queue(), buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                          1024, 2048, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  std::memset(mapped, 0x77, 2048);
  ASSERT_EQ(clEnqueueUnmapMemObject(host_queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  auto expected = pattern(kSize, 5);
  std::fill(expected.begin() + 1024, expected.begin() + 3072, 0x77);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), expected);
}

TEST_F(MixedCoherence, MapOnTheGpuUnmappedOnTheHostDevicesQueue) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(host_queue(), buffer, pattern(kSize, 6));
  cl_int status = CL_OUT_OF_RESOURCES;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapBuffer(gpu_queue(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                          0, kSize, 0, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  auto expected = pattern(kSize, 6);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), mapped));
  std::memset(mapped + 100, 0x33, 100);
  std::fill(expected.begin() + 100, expected.begin() + 200, 0x33);
  ASSERT_EQ(clEnqueueUnmapMemObject(host_queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), expected);
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), expected);
}

TEST_F(MixedCoherence, RectWriteOnTheGpuKeepsTheGapsTheHostDeviceWrote) {
  constexpr size_t kRow = 64, kRows = 16;
  Mem buffer = make_buffer(context, 0, kRow * kRows);
  auto expected = pattern(kRow * kRows, 7);
  write_all(host_queue(), buffer, expected);
  std::vector<uint8_t> rows(16 * kRows, 0x44);
  const size_t buffer_origin[3] = {8, 0, 0}, host_origin[3] = {0, 0, 0}, region[3] = {16, kRows, 1};
  ASSERT_EQ(clEnqueueWriteBufferRect(gpu_queue(), buffer, CL_TRUE, buffer_origin, host_origin, region, kRow, 0, 16, 0,
                                     rows.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t r = 0; r < kRows; ++r) std::fill_n(expected.begin() + r * kRow + 8, 16, 0x44);
  EXPECT_EQ(read_all(host_queue(), buffer, kRow * kRows), expected);
}

TEST_F(MixedCoherence, EventsOrderCommandsAcrossTheQueues) {
  constexpr size_t kSize = 1 << 20;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(gpu_queue(), buffer, pattern(kSize, 8));  // the GPU's copy is current
  auto data = pattern(kSize, 9);
  std::vector<uint8_t> back(kSize, 0);
  cl_event gate = user_event(context), write = nullptr, read = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(host_queue(), buffer, CL_FALSE, 0, kSize, data.data(), 1, &gate, &write), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(gpu_queue(), buffer, CL_FALSE, 0, kSize, back.data(), 1, &write, &read), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  EXPECT_EQ(back, data);
  for (cl_event event : {gate, write, read}) clReleaseEvent(event);
}

TEST_F(MixedCoherence, MigrateMovesTheCurrentCopy) {
  constexpr size_t kSize = 1 << 20;
  Mem buffer = make_buffer(context, 0, kSize);
  auto data = pattern(kSize, 10);
  write_all(host_queue(), buffer, data);
  cl_mem objects[] = {buffer};
  cl_event migrated = nullptr;
  ASSERT_EQ(clEnqueueMigrateMemObjects(gpu_queue(), 1, objects, 0, 0, nullptr, &migrated), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &migrated), CL_SUCCESS);
  clReleaseEvent(migrated);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), data);
  // To the host: a hint, with nothing to move for the host device's queue to see.
  ASSERT_EQ(clEnqueueMigrateMemObjects(host_queue(), 1, objects, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), data);
}

TEST_F(MixedCoherence, MigrateWithUndefinedContentMakesTheTargetCurrent) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(gpu_queue(), buffer, pattern(kSize, 11));
  cl_mem objects[] = {buffer};
  ASSERT_EQ(clEnqueueMigrateMemObjects(host_queue(), 1, objects, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                       nullptr),
            CL_SUCCESS);
  // The contents are undefined now; what is written afterwards, on either device, is not.
  auto front = pattern(kSize / 2, 12), back = pattern(kSize / 2, 13);
  write_range(host_queue(), buffer, 0, front);
  write_range(gpu_queue(), buffer, kSize / 2, back);
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), concat(front, back));
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), concat(front, back));
}

TEST_F(MixedCoherence, SubBuffersWrittenOnDifferentDevicesAtTheSameTime) {
  const size_t step = sub_buffer_step();
  const size_t part = std::max<size_t>(step, 1 << 16);
  Mem parent = make_buffer(context, 0, 2 * part);
  Mem low = make_sub_buffer(parent, 0, 0, part), high = make_sub_buffer(parent, 0, part, part);
  auto low_data = pattern(part, 14), high_data = pattern(part, 15);
  // Disjoint sub-buffers may be written concurrently, with no order between the commands.
  ASSERT_EQ(clEnqueueWriteBuffer(host_queue(), low, CL_FALSE, 0, part, low_data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(gpu_queue(), high, CL_FALSE, 0, part, high_data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  ASSERT_EQ(clFinish(gpu_queue()), CL_SUCCESS);
  auto expected = concat(low_data, high_data);
  EXPECT_EQ(read_all(host_queue(), parent, 2 * part), expected);
  EXPECT_EQ(read_all(gpu_queue(), parent, 2 * part), expected);
  EXPECT_EQ(read_all(gpu_queue(), low, part), low_data);
  EXPECT_EQ(read_all(host_queue(), high, part), high_data);
}

TEST_F(MixedCoherence, CopyHostPtrContentsAreOnBothDevices) {
  constexpr size_t kSize = 1 << 16;
  auto data = pattern(kSize, 16);
  Mem buffer = make_buffer(context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), data);
  EXPECT_EQ(read_all(host_queue(), buffer, kSize), data);
}

TEST_F(MixedCoherence, UseHostPtrBufferWrittenOnTheHostDeviceIsReadOnTheGpu) {
  constexpr size_t kSize = 1 << 20;
  std::vector<uint8_t> storage = pattern(kSize, 17);
  Mem buffer = make_buffer(context, CL_MEM_USE_HOST_PTR, kSize, storage.data());
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), pattern(kSize, 17));
  auto data = pattern(kSize, 18);
  write_all(host_queue(), buffer, data);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), data);
  write_all(gpu_queue(), buffer, pattern(kSize, 19));
  cl_int status = CL_OUT_OF_RESOURCES;
  void* mapped = clEnqueueMapBuffer(host_queue(), buffer, CL_TRUE, CL_MAP_READ, 0, kSize, 0, nullptr, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(mapped, storage.data());  // USE_HOST_PTR maps at the application's memory
  EXPECT_EQ(storage, pattern(kSize, 19));
  ASSERT_EQ(clEnqueueUnmapMemObject(host_queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
}

struct NativeArgs {
  uint8_t* data;
  size_t size;
};

void CL_CALLBACK add_one(void* args) {
  auto* native = static_cast<NativeArgs*>(args);
  for (size_t i = 0; i < native->size; ++i) ++native->data[i];
}

TEST_F(MixedCoherence, NativeKernelOnTheHostDeviceSeesAndChangesTheGpusData) {
  constexpr size_t kSize = 1 << 16;
  Mem buffer = make_buffer(context, 0, kSize);
  write_all(gpu_queue(), buffer, std::vector<uint8_t>(kSize, 41));
  NativeArgs args{nullptr, kSize};
  cl_mem objects[] = {buffer};
  const void* locations[] = {&args.data};
  ASSERT_EQ(clEnqueueNativeKernel(host_queue(), add_one, &args, sizeof args, 1, objects, locations, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(host_queue()), CL_SUCCESS);
  EXPECT_EQ(read_all(gpu_queue(), buffer, kSize), std::vector<uint8_t>(kSize, 42));
}

TEST_F(MixedCoherence, KernelsOnEachDeviceSeeTheOthersWrites) {
  for (cl_device_id device : devices) {
    if (!info_value<cl_bool>(clGetDeviceInfo, device, CL_DEVICE_COMPILER_AVAILABLE)) {
      GTEST_SKIP() << device_string(device, CL_DEVICE_NAME) << " has no compiler yet";
    }
  }
  const char* source = R"(
    kernel void add(global int* data, int value) { data[get_global_id(0)] += value; }
    kernel void add_from(global int* data, constant int* from) {
      size_t i = get_global_id(0);
      data[i] += from[i];
    }
  )";
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 2, devices.data(), "", nullptr, nullptr), CL_SUCCESS)
      << build_log(program, devices[0]) << build_log(program, devices[1]);
  cl_kernel add = clCreateKernel(program, "add", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_kernel add_from = clCreateKernel(program, "add_from", &status);
  ASSERT_EQ(status, CL_SUCCESS);

  constexpr size_t kCount = 4096;
  Mem data = make_buffer(context, 0, kCount * sizeof(cl_int));
  std::vector<cl_int> ones(kCount, 1);
  Mem from = make_buffer(context, CL_MEM_COPY_HOST_PTR, kCount * sizeof(cl_int), ones.data());
  std::vector<cl_int> zeros(kCount, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(host_queue(), data, CL_TRUE, 0, kCount * sizeof(cl_int), zeros.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  // host +10, GPU +100, host +1000, GPU + from (1): each on the result of the one before.
  const std::array<std::pair<cl_command_queue, cl_int>, 3> steps{
      {{host_queue(), 10}, {gpu_queue(), 100}, {host_queue(), 1000}}};
  for (const auto& [queue, value] : steps) {
    cl_mem memory = data;
    set_args(add, memory, value);
    run_1d(queue, add, kCount);
  }
  cl_mem memory = data, constant = from;
  set_args(add_from, memory, constant);
  run_1d(gpu_queue(), add_from, kCount);
  EXPECT_EQ(read_buffer<cl_int>(host_queue(), data, kCount), std::vector<cl_int>(kCount, 1111));
  EXPECT_EQ(read_buffer<cl_int>(gpu_queue(), data, kCount), std::vector<cl_int>(kCount, 1111));
  // A sub-buffer as the argument: only its part changes.
  Mem half = make_sub_buffer(data, 0, 0, kCount / 2 * sizeof(cl_int));
  cl_mem half_memory = half;
  set_args(add, half_memory, cl_int{1});
  run_1d(gpu_queue(), add, kCount / 2);
  auto result = read_buffer<cl_int>(host_queue(), data, kCount);
  EXPECT_EQ(std::count(result.begin(), result.begin() + kCount / 2, 1112), static_cast<long>(kCount / 2));
  EXPECT_EQ(std::count(result.begin() + kCount / 2, result.end(), 1111), static_cast<long>(kCount / 2));
  clReleaseKernel(add);
  clReleaseKernel(add_from);
  clReleaseProgram(program);
}

}  // namespace
