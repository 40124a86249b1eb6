// Shared virtual memory on every device: clSVMAlloc and clSVMFree, the SVM commands in
// order with buffer commands, buffers on SVM pointers, and every error code.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "svm_test_helpers.h"

using namespace cucl_test;
using namespace svm_test;

namespace {

class Svm : public SvmDeviceTest {};

TEST_P(Svm, AllocationsHonourTheirAlignmentAndHoldTheirBytes) {
  for (cl_uint alignment : {0u, 1u, 16u, 128u, 1024u, 4096u}) {
    SvmPointer svm(env.context, CL_MEM_READ_WRITE, 1000, alignment);
    ASSERT_NE(svm.get(), nullptr) << "alignment " << alignment;
    const uintptr_t expected = alignment ? alignment : 128;  // 0: the largest type, long16
    EXPECT_EQ(reinterpret_cast<uintptr_t>(svm.get()) % expected, 0u) << "alignment " << alignment;
    const unsigned char pattern = 0x5a;
    ASSERT_EQ(clEnqueueSVMMemFill(env.queue, svm.get(), &pattern, 1, 1000, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, svm.get(), 1000, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(svm.as<unsigned char>()[0], 0x5a);
    EXPECT_EQ(svm.as<unsigned char>()[999], 0x5a);
    ASSERT_EQ(clEnqueueSVMUnmap(env.queue, svm.get(), 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  }
}

TEST_P(Svm, AllocFailsLikeMallocOnEveryBadRequest) {
  cl_ulong max_alloc = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_SVM_ATOMICS, 64, 0), nullptr) << "atomics without fine grain";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0), nullptr) << "two access flags";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, 0), nullptr) << "two access flags";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_USE_HOST_PTR, 64, 0), nullptr) << "not an SVM flag";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 0, 0), nullptr) << "size 0";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, max_alloc + 1, 0), nullptr) << "above the largest allocation";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 64, 3), nullptr) << "alignment not a power of two";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 64, 8192), nullptr) << "alignment above a page";
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr) << "no context";
  for (auto [flags, needs] : {std::pair{CL_MEM_SVM_FINE_GRAIN_BUFFER, CL_DEVICE_SVM_FINE_GRAIN_BUFFER},
                              std::pair{CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                        CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS}}) {
    SvmPointer svm(env.context, flags, 64);
    EXPECT_EQ(svm.get() != nullptr, has(needs)) << "flags " << flags << ": made exactly where the device has them";
  }
  SvmPointer still(env.context, CL_MEM_READ_WRITE, 64);
  EXPECT_NE(still.get(), nullptr) << "the context is still usable";
}

// Far more than the device holds, in turn: each allocation is really given back.
TEST_P(Svm, AllocatingAndFreingFarMoreThanTheDeviceHoldsInALoop) {
  cl_ulong global = 0, max_alloc = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr),
            CL_SUCCESS);
  const bool gpu = [&] {
    cl_device_type type = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    return type == CL_DEVICE_TYPE_GPU;
  }();
  // The host device: 64 x 256 MiB. A GPU: a quarter of its memory, each time, for four
  // times its memory.
  const size_t size = gpu ? std::min<cl_ulong>(global / 4, max_alloc) : std::min<cl_ulong>(256ull << 20, max_alloc);
  const int rounds = gpu ? 16 : 64;
  for (int round = 0; round < rounds; ++round) {
    void* svm = clSVMAlloc(env.context, CL_MEM_READ_WRITE, size, 0);
    ASSERT_NE(svm, nullptr) << "round " << round;
    // A GPU fills all of it, so that its pages are the card's (a lost allocation would leave
    // too little free for the next ones); the host device, whose leak the sanitizer build
    // finds, fills 4 MiB at either end.
    const cl_uint pattern = round;
    const size_t edge = std::min<size_t>(size / 2, 4 << 20);
    if (gpu) {
      ASSERT_EQ(clEnqueueSVMMemFill(env.queue, svm, &pattern, 4, size, 0, nullptr, nullptr), CL_SUCCESS);
    } else {
      ASSERT_EQ(clEnqueueSVMMemFill(env.queue, svm, &pattern, 4, edge, 0, nullptr, nullptr), CL_SUCCESS);
      ASSERT_EQ(clEnqueueSVMMemFill(env.queue, static_cast<char*>(svm) + size - edge, &pattern, 4, edge, 0, nullptr,
                                    nullptr),
                CL_SUCCESS);
    }
    cl_uint last = 0;
    ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, &last, static_cast<char*>(svm) + size - 4, 4, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(last, pattern);
    clSVMFree(env.context, svm);
  }
}

TEST_P(Svm, CommandsRunInQueueOrderWithBufferCommands) {
  const size_t n = 4096;
  SvmPointer a(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  SvmPointer b(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_TRUE(a.get() && b.get());
  DeviceBuffer buffer(env.context, n * sizeof(cl_int));
  const cl_int seven = 7, nine = 9;
  std::vector<cl_int> host(n, -1);
  // fill a -> copy a to b -> fill the second half of b -> write b into a buffer -> read back.
  ASSERT_EQ(clEnqueueSVMMemFill(env.queue, a.get(), &seven, 4, n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_FALSE, b.get(), a.get(), n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemFill(env.queue, b.as<cl_int>() + n / 2, &nine, 4, n * 2, 0, nullptr, nullptr), CL_SUCCESS);
  const void* migrate[] = {b.get()};
  ASSERT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, migrate, nullptr, 0, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer.get(), CL_FALSE, 0, n * 4, b.get(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, migrate, nullptr, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto values = read_buffer<cl_int>(env.queue, buffer.get(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], i < n / 2 ? 7 : 9) << "at " << i;
  // And back: the buffer into the SVM memory, seen through a map.
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer.get(), CL_FALSE, 0, n * 4, a.get(), 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event mapped = nullptr;
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, a.get(), n * 4, 0, nullptr, &mapped),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &mapped), CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_MAP));
  clReleaseEvent(mapped);
  EXPECT_EQ(a.as<cl_int>()[n - 1], 9);
  a.as<cl_int>()[0] = 42;
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, a.get(), 0, nullptr, nullptr), CL_SUCCESS);
  cl_int first = 0;
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, &first, a.get(), 4, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(first, 42);
}

struct FreeRecord {
  std::atomic<int> calls{0};
  cl_command_queue queue = nullptr;
  std::vector<void*> pointers;
  cl_context context = nullptr;
};

void CL_CALLBACK record_and_free(cl_command_queue queue, cl_uint count, void* pointers[], void* user_data) {
  auto* record = static_cast<FreeRecord*>(user_data);
  record->queue = queue;
  record->pointers.assign(pointers, pointers + count);
  for (cl_uint i = 0; i < count; ++i) clSVMFree(record->context, pointers[i]);
  record->calls++;
}

TEST_P(Svm, EnqueuedFreeRunsInOrderWithACallbackOrWithout) {
  FreeRecord record;
  record.context = env.context;
  void* a = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 256, 0);
  void* b = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 256, 0);
  ASSERT_TRUE(a && b);
  cl_event user = clCreateUserEvent(env.context, nullptr);
  void* both[] = {a, b};
  cl_event freed = nullptr;
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 2, both, record_and_free, &record, 1, &user, &freed), CL_SUCCESS);
  both[0] = both[1] = nullptr;  // the command keeps its own copy of the list
  EXPECT_EQ(record.calls.load(), 0) << "waits for its event";
  clSetUserEventStatus(user, CL_COMPLETE);
  ASSERT_EQ(clWaitForEvents(1, &freed), CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(freed, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_FREE));
  clReleaseEvent(freed);
  clReleaseEvent(user);
  EXPECT_EQ(record.calls.load(), 1);
  EXPECT_EQ(record.queue, env.queue);
  EXPECT_EQ(record.pointers, (std::vector<void*>{a, b}));

  // Without a callback: clSVMFree after the commands before it.
  void* c = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 1 << 20, 0);
  ASSERT_NE(c, nullptr);
  const cl_uint pattern = 3;
  ASSERT_EQ(clEnqueueSVMMemFill(env.queue, c, &pattern, 4, 1 << 20, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 1, &c, nullptr, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr), CL_SUCCESS)
      << "an empty list";
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
}

TEST_P(Svm, ABufferOnAnSvmPointerUsesThatMemory) {
  const size_t n = 1024;
  SvmPointer svm(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
  ASSERT_NE(svm.get(), nullptr);
  cl_int status = CL_SUCCESS;
  // From the middle of the allocation to its end.
  cl_mem buffer = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 2, svm.as<cl_int>() + n / 2, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_bool uses = CL_FALSE;
  ASSERT_EQ(clGetMemObjectInfo(buffer, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr), CL_SUCCESS);
  EXPECT_EQ(uses, cl_bool(CL_TRUE));
  const cl_buffer_region region{256, 256};
  cl_mem sub = clCreateSubBuffer(buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr), CL_SUCCESS);
  EXPECT_EQ(uses, cl_bool(CL_TRUE));
  const cl_int five = 5;
  ASSERT_EQ(clEnqueueFillBuffer(env.queue, buffer, &five, 4, 0, n * 2, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  std::vector<cl_int> seen(n);
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, seen.data(), svm.get(), n * 4, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_NE(seen[n / 2 - 1], 5) << "before the buffer";
  EXPECT_EQ(seen[n / 2], 5);
  EXPECT_EQ(seen[n - 1], 5);
  clReleaseMemObject(sub);
  clReleaseMemObject(buffer);

  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 4 + 4, svm.get(), &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_BUFFER_SIZE) << "past the allocation's end";
  std::vector<char> plain(64);
  buffer = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, plain.size(), plain.data(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clGetMemObjectInfo(buffer, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr), CL_SUCCESS);
  EXPECT_EQ(uses, cl_bool(CL_FALSE));
  clReleaseMemObject(buffer);
}

TEST_P(Svm, CommandsAnswerEveryErrorCode) {
  SvmPointer svm(env.context, CL_MEM_READ_WRITE, 1024);
  ASSERT_NE(svm.get(), nullptr);
  char* p = svm.as<char>();
  const cl_int pattern = 1;
  const cl_event null_event = nullptr;
  // clEnqueueSVMFree
  void* list[] = {p};
  EXPECT_EQ(clEnqueueSVMFree(nullptr, 1, list, nullptr, nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 0, list, nullptr, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 1, list, nullptr, nullptr, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 1, list, nullptr, nullptr, 1, &null_event, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // clEnqueueSVMMemcpy
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, nullptr, p, 4, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, nullptr, 4, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p + 8, p, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 8, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p, 1, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 16, 16, 0, nullptr, nullptr), CL_SUCCESS) << "adjacent";
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 16, 16, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  cl_event failed = clCreateUserEvent(env.context, nullptr);
  clSetUserEventStatus(failed, -1);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 16, 16, 1, &failed, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(failed);
  Env other(env.device);
  cl_event foreign = clCreateUserEvent(other.context, nullptr);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_FALSE, p, p + 16, 16, 1, &foreign, nullptr), CL_INVALID_CONTEXT);
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  // clEnqueueSVMMemFill
  auto fill = [&](void* at, const void* what, size_t pattern_size, size_t size) {
    return clEnqueueSVMMemFill(env.queue, at, what, pattern_size, size, 0, nullptr, nullptr);
  };
  EXPECT_EQ(fill(nullptr, &pattern, 4, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(p, nullptr, 4, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(p, &pattern, 0, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(p, &pattern, 3, 12), CL_INVALID_VALUE);
  EXPECT_EQ(fill(p, &pattern, 256, 256), CL_INVALID_VALUE);
  EXPECT_EQ(fill(p + 2, &pattern, 4, 16), CL_INVALID_VALUE) << "not aligned to the pattern";
  EXPECT_EQ(fill(p, &pattern, 4, 18), CL_INVALID_VALUE) << "not a multiple of the pattern";
  const cl_long16 wide{};
  EXPECT_EQ(fill(p, &wide, 128, 256), CL_SUCCESS);
  // clEnqueueSVMMap and Unmap
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, nullptr, 16, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p, 16, 0, nullptr,
                            nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, 1u << 7, p, 16, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(env.queue, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(nullptr, p, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  // clEnqueueSVMMigrateMem
  const void* pointers[] = {p + 512};
  const size_t too_long[] = {1024};
  const size_t fits[] = {512};
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 0, pointers, nullptr, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, nullptr, nullptr, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, pointers, nullptr, 1u << 5, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, pointers, too_long, 0, 0, nullptr, nullptr), CL_INVALID_VALUE)
      << "leaves the allocation";
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, pointers, fits, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                   nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Svm, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
