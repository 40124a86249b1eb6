// Coarse-grain SVM in a context whose only device is a GPU, of at least the driver's
// granularity: device memory for kernels and a host copy for the host at one address
// (backends/cuda/cuda_svm_view.h). Maps copy the device's bytes to the host's, unmaps copy
// them back, kernels and SVM commands use the device's.
#include <cstdio>
#include <cstring>
#include <string>

#include "svm_test_helpers.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace svm_test;

namespace {

constexpr size_t kLarge = 8 << 20;  // over the H100's 2 MiB granularity

// Whether the host reaches `pointer` through the view's host memory (a memfd mapping).
bool in_a_dual_view(const void* pointer) {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return false;
  const auto address = reinterpret_cast<unsigned long>(pointer);
  bool found = false;
  char line[512];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0;
    if (std::sscanf(line, "%lx-%lx", &start, &end) == 2 && start <= address && address < end) {
      found = std::strstr(line, "memfd:cucl-svm") != nullptr;
      break;
    }
  }
  std::fclose(maps);
  return found;
}

class CudaSvmViews : public cuda_test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    if (!(svm_capabilities(gpu) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) GTEST_SKIP() << "the GPU has no SVM";
  }
  void map(void* pointer, size_t size, cl_map_flags flags) {
    ASSERT_EQ(clEnqueueSVMMap(queue(), CL_TRUE, flags, pointer, size, 0, nullptr, nullptr), CL_SUCCESS);
  }
  void unmap(void* pointer) {
    ASSERT_EQ(clEnqueueSVMUnmap(queue(), pointer, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  }
};

TEST_F(CudaSvmViews, MapsSeeKernelWritesAndKernelsSeeWritesMadeWhileMapped) {
  SvmPointer svm(context(), CL_MEM_READ_WRITE, kLarge);
  ASSERT_NE(svm.get(), nullptr);
  EXPECT_TRUE(in_a_dual_view(svm.get()));
  const size_t n = kLarge / sizeof(cl_int);
  cl_int* data = svm.as<cl_int>();
  map(data, kLarge, CL_MAP_WRITE_INVALIDATE_REGION);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<cl_int>(i);
  unmap(data);

  BuiltProgram program(*env, "kernel void step(global int* data) { size_t i = get_global_id(0); data[i] = data[i] * 2 + 1; }");
  cl_kernel kernel = program.kernel("step");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, data), CL_SUCCESS);
  run_1d(queue(), kernel, n);
  run_1d(queue(), kernel, n);

  // A part that starts and ends inside pages.
  const size_t first = (1 << 20) / 4 + 1, count = (3 << 20) / 4 + 3;
  map(data + first, count * sizeof(cl_int), CL_MAP_READ);
  for (size_t i = first; i < first + count; ++i) ASSERT_EQ(data[i], static_cast<cl_int>(4 * i + 3)) << "at " << i;
  unmap(data + first);

  const size_t written = (5 << 20) / 4, written_count = (1 << 20) / 4;
  map(data + written, written_count * sizeof(cl_int), CL_MAP_WRITE);
  for (size_t i = written; i < written + written_count; ++i) data[i] = -static_cast<cl_int>(i);
  unmap(data + written);
  run_1d(queue(), kernel, n);

  map(data, kLarge, CL_MAP_READ);
  for (size_t i = 0; i < n; ++i) {
    const bool rewritten = i >= written && i < written + written_count;
    const cl_int expected = rewritten ? -2 * static_cast<cl_int>(i) + 1 : static_cast<cl_int>(8 * i + 7);
    ASSERT_EQ(data[i], expected) << "at " << i;
  }
  unmap(data);
}

// The pointers the host stores while mapped lead the GPU to the same nodes.
TEST_F(CudaSvmViews, AListBuiltWhileMappedIsWalkedByAKernel) {
  struct Node {
    cl_int value;
    cl_int pad;
    Node* next;
  };
  SvmPointer svm(context(), CL_MEM_READ_WRITE, kLarge);
  SvmPointer result(context(), CL_MEM_READ_WRITE, sizeof(cl_long));
  ASSERT_TRUE(svm.get() && result.get());
  const size_t stride = 4099 * sizeof(Node), count = kLarge / stride;
  char* base = svm.as<char>();
  map(base, kLarge, CL_MAP_WRITE_INVALIDATE_REGION);
  cl_long expected = 0;
  for (size_t k = 0; k < count; ++k) {  // in reverse order of address: the walk jumps backwards
    auto* node = reinterpret_cast<Node*>(base + (count - 1 - k) * stride);
    node->value = static_cast<cl_int>(k * 7 + 1);
    node->next = k + 1 < count ? reinterpret_cast<Node*>(base + (count - 2 - k) * stride) : nullptr;
    expected += node->value;
  }
  unmap(base);
  BuiltProgram program(*env,
                       "typedef struct node { int value; int pad; global struct node* next; } node;\n"
                       "kernel void walk(global node* head, global long* sum) {\n"
                       "  long total = 0;\n"
                       "  for (global node* n = head; n; n = n->next) total += n->value;\n"
                       "  *sum = total;\n"
                       "}\n");
  cl_kernel kernel = program.kernel("walk");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, base + (count - 1) * stride), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, result.get()), CL_SUCCESS);
  run_1d(queue(), kernel, 1);
  cl_long sum = 0;
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, &sum, result.get(), sizeof sum, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(sum, expected);
}

// A CL_MEM_USE_HOST_PTR buffer inside a view is the view's memory: kernels writing the buffer
// write the allocation, and the buffer's maps hand out the SVM address with the device's bytes.
TEST_F(CudaSvmViews, ABufferInsideAViewIsItsMemory) {
  SvmPointer svm(context(), CL_MEM_READ_WRITE, kLarge);
  ASSERT_NE(svm.get(), nullptr);
  const size_t offset = 4096, n = (1 << 20) / sizeof(cl_int);
  auto* inside = reinterpret_cast<cl_int*>(svm.as<char>() + offset);
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context(), CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), inside, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  BuiltProgram program(*env, "kernel void k(global int* out) { out[get_global_id(0)] = (int)get_global_id(0) * 5; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  set_args(kernel, buffer);
  run_1d(queue(), kernel, n);
  map(inside, n * sizeof(cl_int), CL_MAP_READ);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(inside[i], static_cast<cl_int>(i * 5)) << "at " << i;
  unmap(inside);

  const size_t first = 16, count = 256;
  auto* mapped = static_cast<cl_int*>(clEnqueueMapBuffer(queue(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                         first * sizeof(cl_int), count * sizeof(cl_int), 0, nullptr,
                                                         nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(mapped, inside + first);
  for (size_t i = 0; i < count; ++i) ASSERT_EQ(mapped[i], static_cast<cl_int>((first + i) * 5)) << "at " << i;
  for (size_t i = 0; i < count; ++i) mapped[i] = -1;
  ASSERT_EQ(clEnqueueUnmapMemObject(queue(), buffer, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<cl_int> back(n);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, back.data(), inside, n * sizeof(cl_int), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) {
    const bool rewritten = i >= first && i < first + count;
    ASSERT_EQ(back[i], rewritten ? -1 : static_cast<cl_int>(i * 5)) << "at " << i;
  }
  clReleaseMemObject(buffer);
}

// The host copy is page-locked in chunks (SvmDualView::kHostChunk, 64 MiB): maps across their
// boundaries copy every byte.
TEST_F(CudaSvmViews, MapsAcrossHostChunksCopyEveryByte) {
  const size_t size = 200 << 20, boundary = 64 << 20;
  SvmPointer svm(context(), CL_MEM_READ_WRITE, size);
  ASSERT_NE(svm.get(), nullptr);
  const std::vector<uint8_t> bytes = cuda_test::position_pattern(size, 5);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, svm.get(), bytes.data(), size, 0, nullptr, nullptr), CL_SUCCESS);
  map(svm.get(), size, CL_MAP_READ);
  EXPECT_EQ(std::memcmp(svm.get(), bytes.data(), size), 0);
  unmap(svm.get());
  uint8_t* across = svm.as<uint8_t>() + boundary - 100;
  map(across, 300, CL_MAP_WRITE);
  EXPECT_EQ(std::memcmp(across, bytes.data() + boundary - 100, 300), 0);
  std::memset(across, 0x5a, 300);
  unmap(across);
  std::vector<uint8_t> back(size);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue(), CL_TRUE, back.data(), svm.get(), size, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint8_t> expected = bytes;
  std::memset(expected.data() + boundary - 100, 0x5a, 300);
  EXPECT_TRUE(back == expected);
}

// Freeing a view gives its device memory back: three times the card's memory in turn.
TEST_F(CudaSvmViews, FreedViewsGiveTheirMemoryBack) {
  cl_ulong global = 0, max_alloc = 0;
  ASSERT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr), CL_SUCCESS);
  const size_t size = std::min<cl_ulong>(max_alloc, global / 4);
  const cl_uint pattern = 0x1234;
  for (cl_ulong allocated = 0; allocated < 3 * global; allocated += size) {
    SvmPointer svm(context(), CL_MEM_READ_WRITE, size);
    ASSERT_NE(svm.get(), nullptr) << "after " << allocated << " bytes";
    ASSERT_EQ(clEnqueueSVMMemFill(queue(), svm.get(), &pattern, sizeof pattern, size, 0, nullptr, nullptr),
              CL_SUCCESS);
    map(svm.as<char>() + size - 4096, 4096, CL_MAP_READ);
    EXPECT_EQ(*reinterpret_cast<cl_uint*>(svm.as<char>() + size - 4), pattern);
    unmap(svm.as<char>() + size - 4096);
  }
}

// Fine-grain allocations stay managed memory: the host reaches them without maps.
TEST_F(CudaSvmViews, FineGrainAllocationsAreNotViews) {
  if (!(svm_capabilities(gpu) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) GTEST_SKIP() << "no fine-grain SVM";
  SvmPointer fine(context(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, kLarge);
  ASSERT_NE(fine.get(), nullptr);
  EXPECT_FALSE(in_a_dual_view(fine.get()));
}

}  // namespace
