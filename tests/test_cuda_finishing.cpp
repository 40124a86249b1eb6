// Commands nothing names (no event, no wait list, not blocking) are finished by whichever thread
// gets to them first: the stream's completion thread, or their own submitter at its next
// enqueue (backends/cuda/cuda_completion.h). Either way what they hold goes once they are done:
// without the application calling anything more, never inside one of its own later enqueues,
// before any later command's event completes, with several threads enqueuing to one queue, and
// when the queue is released first.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "support/kernel_support.h"
#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace buffer_test;
using namespace cuda_test;

namespace {

constexpr const char* kSource = R"CL(
kernel void add_one(global uint* counter) { counter[get_global_id(0)] += 1; }
)CL";

// Set on the application's thread while it is inside one of the test's enqueue calls.
thread_local bool inside_enqueue = false;

// What a buffer's destructor callback saw.
struct Freed {
  std::atomic<bool> freed{false};
  std::atomic<bool> inside_enqueue{false};
};

void CL_CALLBACK note_freed(cl_mem, void* user_data) {
  auto* freed = static_cast<Freed*>(user_data);
  freed->inside_enqueue.store(inside_enqueue);
  freed->freed.store(true);
}

// A 4-byte buffer whose destruction `freed` records.
cl_mem watched_buffer(cl_context context, Freed& freed) {
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, nullptr, &status);
  EXPECT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clSetMemObjectDestructorCallback(buffer, note_freed, &freed), CL_SUCCESS);
  return buffer;
}

// Waits up to two seconds, calling nothing of OpenCL, for every one of `freed` to be set.
bool all_freed_soon(const std::vector<std::unique_ptr<Freed>>& freed) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (const auto& one : freed) {
    while (!one->freed.load()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  return true;
}

void write_word(cl_command_queue queue, cl_mem buffer) {
  static const cl_uint value = 7;
  inside_enqueue = true;
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
  inside_enqueue = false;
}

class CudaFinishing : public GpuTest {};

// A buffer that only direct commands still hold is destroyed on a thread of the implementation
// (or in clReleaseMemObject, when they had already finished), never inside a later enqueue of
// the application: its destructor callback may take a lock the application holds around its
// enqueues.
TEST_F(CudaFinishing, BuffersAreNotDestroyedInsideTheApplicationsLaterEnqueues) {
  Mem word = make_buffer(context(), CL_MEM_READ_WRITE, 4);
  std::vector<std::unique_ptr<Freed>> freed;
  for (int round = 0; round < 50; ++round) {
    freed.push_back(std::make_unique<Freed>());
    cl_mem held = watched_buffer(context(), *freed.back());
    for (int i = 0; i < 20; ++i) write_word(queue(), held);
    ASSERT_EQ(clReleaseMemObject(held), CL_SUCCESS);  // the writes' holds are the last
    for (int i = 0; i < 500; ++i) write_word(queue(), word);
  }
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  ASSERT_TRUE(all_freed_soon(freed));
  for (size_t round = 0; round < freed.size(); ++round) {
    EXPECT_FALSE(freed[round]->inside_enqueue.load()) << "round " << round;
  }
}

// Completing a command that has an event (here a blocking read) comes after every command before
// it has finished, the commands nothing names included: what they alone held is gone by then.
TEST_F(CudaFinishing, AnEventCompletesOnlyAfterEveryEarlierCommandHasLetGo) {
  Mem word = make_buffer(context(), CL_MEM_READ_WRITE, 4);
  cl_uint value = 0;
  for (int round = 0; round < 300; ++round) {
    Freed freed;
    cl_mem held = watched_buffer(context(), freed);
    write_word(queue(), held);
    ASSERT_EQ(clReleaseMemObject(held), CL_SUCCESS);  // the write's hold is the last
    ASSERT_EQ(clEnqueueReadBuffer(queue(), word, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_TRUE(freed.freed.load()) << "round " << round;
  }
}

// clFinish may return before the commands nothing names are finished (their end is seen on the
// device). A USE_HOST_PTR buffer they hold, released right after it, with its memory unmapped and
// new memory mapped at the same address: a buffer made there uses the new pages, not a
// registration of the old ones that the released buffer may still keep. One page leaves the
// least time between clFinish and the new buffer.
void check_buffers_over_remapped_memory(cl_context context, cl_command_queue queue, size_t bytes, int rounds) {
  Mem result = make_buffer(context, CL_MEM_READ_WRITE, bytes);
  std::vector<unsigned char> read(bytes);
  int rounds_run = 0;
  for (int round = 0; round < rounds; ++round) {
    void* first = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(first, MAP_FAILED);
    std::memset(first, 0x11, bytes);
    cl_int status = CL_SUCCESS;
    cl_mem old_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, first, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    const cl_uchar old_pattern = 0x22;
    // A command nothing names.
    ASSERT_EQ(clEnqueueFillBuffer(queue, old_buffer, &old_pattern, 1, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    ASSERT_EQ(clReleaseMemObject(old_buffer), CL_SUCCESS);
    ASSERT_EQ(munmap(first, bytes), 0);
    void* second = mmap(first, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (second == MAP_FAILED) continue;  // something else took the address meanwhile
    ASSERT_EQ(second, first);
    ++rounds_run;
    const auto new_pattern = static_cast<unsigned char>(0x40 + round % 64);
    std::memset(second, new_pattern, bytes);
    cl_mem new_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, second, &status);
    ASSERT_EQ(status, CL_SUCCESS) << "round " << round;
    ASSERT_EQ(clEnqueueCopyBuffer(queue, new_buffer, result, 0, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue, result, CL_TRUE, 0, bytes, read.data(), 0, nullptr, nullptr), CL_SUCCESS)
        << "round " << round;
    size_t wrong = 0;
    for (unsigned char byte : read) wrong += byte != new_pattern;
    EXPECT_EQ(wrong, 0u) << "round " << round << ": the copy read " << int(read[0]) << ", not " << int(new_pattern);
    ASSERT_EQ(clReleaseMemObject(new_buffer), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    ASSERT_EQ(munmap(second, bytes), 0);
    if (wrong) break;
  }
  EXPECT_GT(rounds_run, rounds / 2);  // the address came back in most rounds
}

// The application may free a USE_HOST_PTR buffer's memory once clFinish has returned and it has
// released the buffer: the commands that held it must be finished by then, so that the buffer
// (and the driver's registration of that memory) is gone when clReleaseMemObject returns.
TEST_F(CudaFinishing, AUseHostPtrBufferReleasedAfterClFinishIsGoneWhenReleaseReturns) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* memory = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  int still_there = 0;
  for (int round = 0; round < 1000; ++round) {
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, page, memory, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    Freed freed;
    ASSERT_EQ(clSetMemObjectDestructorCallback(buffer, note_freed, &freed), CL_SUCCESS);
    const cl_uchar pattern = 0x5a;
    // A command nothing names.
    ASSERT_EQ(clEnqueueFillBuffer(queue(), buffer, &pattern, 1, 0, page, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
    ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    if (!freed.freed.load()) {
      ++still_there;
      // The callback writes to `freed`: it must have come before `freed` goes.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (!freed.freed.load()) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "round " << round << ": never freed";
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
  }
  EXPECT_EQ(still_there, 0) << "of 1000 buffers released right after clFinish";
  EXPECT_EQ(munmap(memory, page), 0);
}

TEST_F(CudaFinishing, ABufferOverMemoryMappedWhereAReleasedOneWasUsesTheNewPages) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  check_buffers_over_remapped_memory(context(), queue(), page, 2000);
  check_buffers_over_remapped_memory(context(), queue(), 1 << 20, 200);
}

// Once the application stops calling, what its last commands hold is let go all the same.
TEST_F(CudaFinishing, ABufferIsFreedAfterItsLastCommandsWithoutAnotherCall) {
  std::vector<std::unique_ptr<Freed>> freed;
  freed.push_back(std::make_unique<Freed>());
  cl_mem held = watched_buffer(context(), *freed.back());
  for (int i = 0; i < 1000; ++i) write_word(queue(), held);
  ASSERT_EQ(clReleaseMemObject(held), CL_SUCCESS);
  EXPECT_TRUE(all_freed_soon(freed));
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
}

// Two threads enqueue kernels and writes to one queue, each with its own kernel and counter:
// every command runs once, and every buffer they released goes.
TEST_F(CudaFinishing, TwoThreadsEnqueuingToOneQueueHaveAllTheirCommandsFinished) {
  constexpr int kThreads = 2, kLaunches = 4000;
  BuiltProgram program(*env, kSource);
  ASSERT_TRUE(program);
  const std::vector<cl_uint> zero(1, 0);
  std::vector<Mem> counters;
  std::vector<cl_kernel> kernels;
  for (int t = 0; t < kThreads; ++t) {
    counters.push_back(make_buffer(context(), CL_MEM_COPY_HOST_PTR, 4, const_cast<cl_uint*>(zero.data())));
    kernels.push_back(program.kernel("add_one"));
    ASSERT_NE(kernels.back(), nullptr);
    set_args(kernels.back(), static_cast<cl_mem>(counters.back()));
  }
  std::vector<std::unique_ptr<Freed>> freed;
  for (int t = 0; t < kThreads * (kLaunches / 100); ++t) freed.push_back(std::make_unique<Freed>());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const size_t one = 1;
      for (int i = 0; i < kLaunches; ++i) {
        inside_enqueue = true;
        EXPECT_EQ(clEnqueueNDRangeKernel(queue(), kernels[t], 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
                  CL_SUCCESS);
        inside_enqueue = false;
        if (i % 100 == 0) {
          cl_mem held = watched_buffer(context(), *freed[t * (kLaunches / 100) + i / 100]);
          write_word(queue(), held);
          EXPECT_EQ(clReleaseMemObject(held), CL_SUCCESS);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(clFinish(queue()), CL_SUCCESS);
  for (int t = 0; t < kThreads; ++t) {
    cl_uint count = 0;
    ASSERT_EQ(clEnqueueReadBuffer(queue(), counters[t], CL_TRUE, 0, 4, &count, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(count, static_cast<cl_uint>(kLaunches)) << "thread " << t;
  }
  EXPECT_TRUE(all_freed_soon(freed));
}

// A queue released while its direct commands are still pending finishes them, and what they
// hold goes; the context and its other queue go on working.
TEST_F(CudaFinishing, AQueueReleasedWithCommandsPendingLetsTheirBuffersGo) {
  cl_int status = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueueWithProperties(context(), gpu, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  std::vector<std::unique_ptr<Freed>> freed;
  freed.push_back(std::make_unique<Freed>());
  cl_mem held = watched_buffer(context(), *freed.back());
  for (int i = 0; i < 1000; ++i) write_word(other, held);
  ASSERT_EQ(clReleaseMemObject(held), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(other), CL_SUCCESS);
  EXPECT_TRUE(all_freed_soon(freed));
  Mem word = make_buffer(context(), CL_MEM_READ_WRITE, 4);
  write_word(queue(), word);
  cl_uint value = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queue(), word, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(value, 7u);
}

}  // namespace
