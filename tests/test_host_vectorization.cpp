// Kernels of the shapes a whole-function vectoriser (consecutive work-items of dimension 0
// run together as one vector work-item, the rest of a work-group by a scalar loop) could
// miscompile: loops with uniform and per-work-item trip counts, early returns, divergent
// branches and switches, helper functions, private arrays, every shape of memory access,
// 32-bit ids far from 0, atomics, vector types, math builtins, division by zero and
// oversized shifts, 2D and 3D ranges, and local memory with and without barriers. Every
// result is checked against a reference computed here: exactly where the operations are
// exact, within the specification's ulp limit where they are not. Global sizes that are and
// are not multiples of 8 and 16 and local sizes given and left to the implementation reach
// the remainder of a work-group; outputs are longer than the range and their tails must keep
// their fill. The file is built twice (tests/CMakeLists.txt): test_host_vectorization, and
// test_host_vectorization_off, which runs with CUCL_HOST_VECTORIZE=0 (the scalar path), so
// both paths meet the same references. Every device runs them.
#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "support/builtin_reference.h"
#include "support/range_checks.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

class HostVectorization : public DeviceTest {};

// ---------------------------------------------------------------- helpers

// Multiples of 8 and 16 and not, one work-item, groups smaller than 8, groups of 8 + 16 and
// 7 * 16 + 13. Each local size divides its global size (the programs are OpenCL C 1.2).
constexpr Range1d kRanges[] = {{1000, 0}, {37, 0},   {1, 0},   {133, 7},  {1000, 40},
                               {96, 24},  {256, 16}, {17, 17}, {1000, 125}};

// ---------------------------------------------------------------- control flow

// A loop every work-item runs n times (n a kernel argument, the same for all) carrying a value
// of its own: mad by exact operands (fused or not, the same value), a correctly rounded fma,
// and 32-bit integers that wrap.
TEST_P(HostVectorization, UniformLoopCarriesEachWorkItemsValue) {
  BuiltProgram program(env, R"(
    kernel void loops(global float* exact, global float* fused, global uint* wrapped,
                      float a, float b, float c, float d, uint e, uint f, int n) {
      size_t gid = get_global_id(0);
      float x = (float)gid, y = (float)gid * 0.001f;
      uint z = (uint)gid;
      for (int i = 0; i < n; ++i) {
        x = mad(x, a, b);
        y = fma(y, c, d);
        z = z * e + f;
      }
      exact[gid] = x;
      fused[gid] = y;
      wrapped[gid] = z;
    })");
  cl_kernel kernel = program.kernel("loops");
  ASSERT_NE(kernel, nullptr);
  // x * -2 is exact, so mad gives the same value fused or not (up to infinity and past it).
  const float a = -2.0f, b = 3.0f, c = 1.0001f, d = -0.37f;
  const cl_uint e = 1664525u, f = 1013904223u;
  for (const Range1d& range : kRanges) {
    for (cl_int n : {0, 1, 7, 300}) {
      SCOPED_TRACE(describe(range) + ", n " + std::to_string(n));
      const size_t count = range.global;
      Buffer<float> exact(env, count + kTail, -1.0f), fused(env, count + kTail, -1.0f);
      Buffer<cl_uint> wrapped(env, count + kTail, 7u);
      set_args(kernel, exact.get(), fused.get(), wrapped.get(), a, b, c, d, e, f, n);
      ASSERT_TRUE(run(env, kernel, range));
      EXPECT_TRUE(same_values(exact.read(), expected<float>(count, -1.0f, [&](size_t g) {
        float x = static_cast<float>(g);
        for (int i = 0; i < n; ++i) x = std::fma(x, a, b);
        return x;
      })));
      EXPECT_TRUE(same_values(fused.read(), expected<float>(count, -1.0f, [&](size_t g) {
        float y = static_cast<float>(g) * 0.001f;
        for (int i = 0; i < n; ++i) y = std::fma(y, c, d);
        return y;
      })));
      EXPECT_TRUE(same_values(wrapped.read(), expected<cl_uint>(count, 7u, [&](size_t g) {
        cl_uint z = static_cast<cl_uint>(g);
        for (int i = 0; i < n; ++i) z = z * e + f;
        return z;
      })));
    }
  }
}

// The uniform fma loop in double, and sums of squares of doubles over a range of its own per
// work-item (quarters: every sum is exact, fused or not).
TEST_P(HostVectorization, DoubleLoops) {
  if (!has_fp64(env.device)) GTEST_SKIP() << "the device has no doubles (CL_DEVICE_DOUBLE_FP_CONFIG is 0)";
  BuiltProgram program(env, std::string(kFp64Pragma) + R"(
    kernel void loops(global double* fused, global double* squares, global const double* values,
                      double c, double d, int n) {
      size_t gid = get_global_id(0);
      double y = (double)gid * 0.001;
      for (int i = 0; i < n; ++i) y = fma(y, c, d);
      fused[gid] = y;
      double sum = 0.0;
      int start = (int)(gid % 13), count = (int)(gid % 6);
      for (int k = start; k < start + count; ++k) sum += values[k] * values[k];
      squares[gid] = sum;
    })");
  cl_kernel kernel = program.kernel("loops");
  ASSERT_NE(kernel, nullptr);
  std::vector<double> values(20);
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(k) * 2.25 - 17.5;
  Buffer<double> input(env, values);
  const double c = 1.0000001, d = -0.37;
  for (const Range1d& range : kRanges) {
    for (cl_int n : {0, 5, 300}) {
      SCOPED_TRACE(describe(range) + ", n " + std::to_string(n));
      const size_t count = range.global;
      Buffer<double> fused(env, count + kTail, -1.0), squares(env, count + kTail, -1.0);
      set_args(kernel, fused.get(), squares.get(), input.get(), c, d, n);
      ASSERT_TRUE(run(env, kernel, range));
      EXPECT_TRUE(same_values(fused.read(), expected<double>(count, -1.0, [&](size_t g) {
        double y = static_cast<double>(g) * 0.001;
        for (int i = 0; i < n; ++i) y = std::fma(y, c, d);
        return y;
      })));
      EXPECT_TRUE(same_values(squares.read(), expected<double>(count, -1.0, [&](size_t g) {
        double sum = 0;
        for (size_t k = g % 13; k < g % 13 + g % 6; ++k) sum += values[k] * values[k];
        return sum;
      })));
    }
  }
}

// An outer loop of gid % 3 + 1 trips around an inner one of gid % 7 (0 for some work-items),
// accumulating in an order the result depends on.
TEST_P(HostVectorization, NestedLoopsWithTripCountsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void nested(global const int* in, global uint* out, global float* quarters, int len) {
      int gid = (int)get_global_id(0);
      uint acc = 1u;
      float q = 0.0f;
      int outer = gid % 3 + 1;
      for (int o = 0; o < outer; ++o) {
        int inner = gid % 7;
        for (int i = 0; i < inner; ++i) {
          int v = in[(gid * 3 + o * 5 + i) % len];
          acc = acc * 5u + (uint)v;
          q += (float)v * 0.25f;
        }
        acc ^= (uint)o << 8;
      }
      out[gid] = acc;
      quarters[gid] = q;
    })");
  cl_kernel kernel = program.kernel("nested");
  ASSERT_NE(kernel, nullptr);
  const cl_int len = 101;
  const std::vector<int> in = random_ints(len, -1000, 1000, 1);
  Buffer<int> input(env, in);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<cl_uint> out(env, count + kTail, 3u);
    Buffer<float> quarters(env, count + kTail, -1.0f);
    set_args(kernel, input.get(), out.get(), quarters.get(), len);
    ASSERT_TRUE(run(env, kernel, range));
    struct Result {
      cl_uint acc = 1u;
      float q = 0.0f;
    };
    auto reference = [&](size_t g) {
      const int gid = static_cast<int>(g);
      Result r;
      for (int o = 0; o < gid % 3 + 1; ++o) {
        for (int i = 0; i < gid % 7; ++i) {
          const int v = in[(gid * 3 + o * 5 + i) % len];
          r.acc = r.acc * 5u + static_cast<cl_uint>(v);
          r.q += static_cast<float>(v) * 0.25f;
        }
        r.acc ^= static_cast<cl_uint>(o) << 8;
      }
      return r;
    };
    const std::vector<cl_uint> want_acc = expected<cl_uint>(count, 3u, [&](size_t g) { return reference(g).acc; });
    const std::vector<float> want_q = expected<float>(count, -1.0f, [&](size_t g) { return reference(g).q; });
    EXPECT_TRUE(same_values(out.read(), want_acc));
    EXPECT_TRUE(same_values(quarters.read(), want_q));
  }
}

// `if (gid >= n) return;` with n below the global size (and 0), then a loop that work-items
// leave by continue, break or return at iterations of their own.
TEST_P(HostVectorization, EarlyReturnsAndLoopExitsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void guarded(global int* out, int n) {
      int gid = (int)get_global_id(0);
      if (gid >= n) return;
      out[gid] = gid * 3 + 1;
    }
    kernel void exits(global int* out, global int* where) {
      int gid = (int)get_global_id(0);
      int acc = 0;
      for (int i = 0; i < 12; ++i) {
        if (i % 5 == gid % 5) continue;
        acc += i * (gid % 4 + 1);
        if (acc > 40 + gid % 61) break;
        if (i == gid % 13 + 1) {
          where[gid] = i;
          out[gid] = -acc;
          return;
        }
      }
      out[gid] = acc;
    })");
  cl_kernel guarded = program.kernel("guarded");
  cl_kernel exits = program.kernel("exits");
  ASSERT_NE(guarded, nullptr);
  ASSERT_NE(exits, nullptr);
  for (const Range1d& range : kRanges) {
    const size_t count = range.global;
    for (cl_int n : {0, static_cast<cl_int>(count / 2), static_cast<cl_int>(count) - 5}) {
      if (n < 0) continue;
      SCOPED_TRACE(describe(range) + ", n " + std::to_string(n));
      Buffer<int> out(env, count + kTail, -1);
      set_args(guarded, out.get(), n);
      ASSERT_TRUE(run(env, guarded, range));
      EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t g) {
        return static_cast<int>(g) < n ? static_cast<int>(g) * 3 + 1 : -1;
      })));
    }
    SCOPED_TRACE(describe(range));
    Buffer<int> out(env, count + kTail, -7), where(env, count + kTail, -1);
    set_args(exits, out.get(), where.get());
    ASSERT_TRUE(run(env, exits, range));
    std::vector<int> want_out = expected<int>(count, -7, [](size_t) { return 0; });
    std::vector<int> want_where = expected<int>(count, -1, [](size_t) { return -1; });
    int returned = 0, broke = 0, finished = 0;
    for (size_t g = 0; g < count; ++g) {
      const int gid = static_cast<int>(g);
      int acc = 0, i = 0;
      for (; i < 12; ++i) {
        if (i % 5 == gid % 5) continue;
        acc += i * (gid % 4 + 1);
        if (acc > 40 + gid % 61) break;
        if (i == gid % 13 + 1) {
          want_where[g] = i;
          acc = -acc;
          break;
        }
      }
      want_out[g] = acc;
      (want_where[g] >= 0 ? returned : i < 12 ? broke : finished) += 1;
    }
    if (count == 1000) {  // the loop's three ways out each happen
      EXPECT_GT(returned, 0);
      EXPECT_GT(broke, 0);
      EXPECT_GT(finished, 0);
    }
    EXPECT_TRUE(same_values(out.read(), want_out));
    EXPECT_TRUE(same_values(where.read(), want_where));
  }
}

// `bytes` of memory that end where a page no access is allowed to begins.
class GuardedMemory {
 public:
  explicit GuardedMemory(size_t bytes) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    pages_ = (bytes + page - 1) / page * page + page;
    void* region = mmap(nullptr, pages_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) throw std::bad_alloc();
    region_ = static_cast<char*>(region);
    mprotect(region_ + pages_ - page, page, PROT_NONE);
    data_ = region_ + pages_ - page - bytes;
  }
  ~GuardedMemory() { munmap(region_, pages_); }
  GuardedMemory(const GuardedMemory&) = delete;
  GuardedMemory& operator=(const GuardedMemory&) = delete;
  void* data() const { return data_; }

 private:
  char* region_ = nullptr;
  size_t pages_ = 0;
  char* data_ = nullptr;
};

// A read-only buffer of `data` in the application's memory (CL_MEM_USE_HOST_PTR: the host
// device works in it), ending where an inaccessible page begins: a load past its end faults.
class GuardedBuffer {
 public:
  GuardedBuffer(const Env& env, const std::vector<int>& data) : memory_(data.size() * sizeof(int)) {
    std::memcpy(memory_.data(), data.data(), data.size() * sizeof(int));
    buffer_.reset(clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, data.size() * sizeof(int),
                                 memory_.data(), &status_));
  }
  cl_mem get() const { return buffer_.get(); }
  cl_int status() const { return status_; }

 private:
  GuardedMemory memory_;
  std::unique_ptr<std::remove_pointer_t<cl_mem>, decltype(&clReleaseMemObject)> buffer_{nullptr, &clReleaseMemObject};
  cl_int status_ = CL_SUCCESS;
};

// Loops that work-items leave at iterations of their own and that write no memory, which
// the host runs under a mask (backends/host/codegen/masked_loops.h): an escape loop with a
// uniform and a per-work-item exit (its counter, last value and way out used after it), a
// search whose loads past a work-item's end must not happen (one work-item searches 2^20
// elements while the others stop near the buffer's end: a load for a lane that has left
// would read megabytes past it), and a per-work-item loop around a uniform one.
TEST_P(HostVectorization, LoopsLeftAtIterationsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void escape(global uint* steps, global uint* last, global int* how, uint max) {
      uint gid = (uint)get_global_id(0);
      uint x = gid * 2654435761u + 1u;
      uint i = 0;
      int way = 0;
      while (true) {
        if (i >= max) { way = 1; break; }
        x = x * 1103515245u + 12345u;
        if ((x >> 24) < 8u + gid % 5u) { way = 2; break; }
        ++i;
      }
      steps[gid] = i;
      last[gid] = x;
      how[gid] = way;
    }
    kernel void find(global const int* data, global const int* start, global const int* length,
                     global int* found, int key) {
      int gid = (int)get_global_id(0);
      int s = start[gid], n = length[gid], k = 0;
      while (k < n && data[s + k] != key) ++k;
      found[gid] = k;
    }
    kernel void around(global uint* out, int inner) {
      uint gid = (uint)get_global_id(0);
      uint acc = gid;
      for (uint o = 0; o < gid % 9u; ++o) {
        for (int j = 0; j < inner; ++j) acc = acc * 3u + (uint)j;
        acc ^= o;
      }
      out[gid] = acc;
    })");
  cl_kernel escape = program.kernel("escape");
  cl_kernel find = program.kernel("find");
  cl_kernel around = program.kernel("around");
  ASSERT_NE(escape, nullptr);
  ASSERT_NE(find, nullptr);
  ASSERT_NE(around, nullptr);
  constexpr cl_int kKey = 7;
  constexpr size_t kLong = size_t{1} << 20;
  const size_t data_count = kLong + 64;
  std::vector<int> data = random_ints(data_count, 8, 1000, 3);  // no key but where placed
  for (size_t at : {kLong - 1, data_count - 3, data_count - 40, size_t{100}}) data[at] = kKey;
  GuardedBuffer data_buffer(env, data);  // a load for a lane past its end faults
  ASSERT_EQ(data_buffer.status(), CL_SUCCESS);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    for (cl_uint max : {0u, 5u, 200u}) {
      SCOPED_TRACE("max " + std::to_string(max));
      Buffer<cl_uint> steps(env, count + kTail, 9u), last(env, count + kTail, 9u);
      Buffer<int> how(env, count + kTail, 9);
      set_args(escape, steps.get(), last.get(), how.get(), max);
      ASSERT_TRUE(run(env, escape, range));
      struct Result {
        cl_uint i = 0, x = 0;
        int way = 0;
      };
      auto reference = [&](size_t g) {
        const cl_uint gid = static_cast<cl_uint>(g);
        Result r{0, gid * 2654435761u + 1u, 0};
        while (true) {
          if (r.i >= max) { r.way = 1; break; }
          r.x = r.x * 1103515245u + 12345u;
          if ((r.x >> 24) < 8u + gid % 5u) { r.way = 2; break; }
          ++r.i;
        }
        return r;
      };
      EXPECT_TRUE(same_values(steps.read(), expected<cl_uint>(count, 9u, [&](size_t g) { return reference(g).i; })));
      EXPECT_TRUE(same_values(last.read(), expected<cl_uint>(count, 9u, [&](size_t g) { return reference(g).x; })));
      EXPECT_TRUE(same_values(how.read(), expected<int>(count, 9, [&](size_t g) { return reference(g).way; })));
    }
    std::vector<int> starts(count), lengths(count);
    for (size_t g = 0; g < count; ++g) {
      starts[g] = g == 0 ? 0 : static_cast<int>(data_count - 1 - g % 48);
      lengths[g] = g == 0 ? static_cast<int>(kLong) : static_cast<int>((g * 7) % (data_count - starts[g] + 1));
    }
    Buffer<int> start_buffer(env, starts), length_buffer(env, lengths), found(env, count + kTail, -9);
    set_args(find, data_buffer.get(), start_buffer.get(), length_buffer.get(), found.get(), kKey);
    ASSERT_TRUE(run(env, find, range));
    EXPECT_TRUE(same_values(found.read(), expected<int>(count, -9, [&](size_t g) {
      int k = 0;
      while (k < lengths[g] && data[starts[g] + k] != kKey) ++k;
      return k;
    })));
    for (cl_int inner : {0, 3}) {
      Buffer<cl_uint> out(env, count + kTail, 5u);
      set_args(around, out.get(), inner);
      ASSERT_TRUE(run(env, around, range));
      EXPECT_TRUE(same_values(out.read(), expected<cl_uint>(count, 5u, [&](size_t g) {
        cl_uint acc = static_cast<cl_uint>(g);
        for (cl_uint o = 0; o < g % 9; ++o) {
          for (int j = 0; j < inner; ++j) acc = acc * 3u + static_cast<cl_uint>(j);
          acc ^= o;
        }
        return acc;
      })));
    }
  }
}

// Ifs whose condition differs between work-items, which the host runs under a mask
// (backends/host/codegen/masked_branches.h): a bounds check over data that ends where an
// inaccessible page begins (a load for a lane past n would fault), its value meeting the
// other way's after the if, an if with an else that stores on both sides, stores only where
// the condition holds (the rest keep their fill), and the same in work-groups of a required
// size of 8 (the vector no wider than a row).
TEST_P(HostVectorization, IfsOfEachWorkItem) {
  const std::string source = R"(
    kernel void guarded(global const int* data, global int* inside, global int* merged, int n) {
      int gid = (int)get_global_id(0);
      int v = -1;
      if (gid < n) {
        v = data[gid] * 3;
        inside[gid] = v + gid;
      }
      merged[gid] = v;
    }
    kernel void both(global const int* data, global int* sides, global int* merged, int n) {
      int gid = (int)get_global_id(0);
      int v;
      if (gid < n) {
        v = data[gid] + 1;
        sides[gid] = v * 2;
      } else {
        v = gid * 7;
        sides[gid] = -gid;
      }
      merged[gid] = v;
    }
    kernel void odd(global const int* data, global int* out) {
      int gid = (int)get_global_id(0);
      int d = data[gid];
      if (d & 1) out[gid] = d + gid;
    }
    kernel __attribute__((reqd_work_group_size(8, 1, 1)))
    void rows_of_eight(global const int* data, global int* out, int n) {
      int gid = (int)get_global_id(0);
      if (gid < n) out[gid] = data[gid] - 5;
    })";
  BuiltProgram program(env, source);
  cl_kernel guarded_kernel = program.kernel("guarded");
  cl_kernel both = program.kernel("both");
  cl_kernel odd = program.kernel("odd");
  cl_kernel rows = program.kernel("rows_of_eight");
  ASSERT_NE(guarded_kernel, nullptr);
  ASSERT_NE(both, nullptr);
  ASSERT_NE(odd, nullptr);
  ASSERT_NE(rows, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    for (int n : {0, static_cast<int>(count / 3), static_cast<int>(count) - 1, static_cast<int>(count)}) {
      SCOPED_TRACE("n " + std::to_string(n));
      const std::vector<int> data = random_ints(std::max(n, 1), -1000, 1000, 7);
      GuardedBuffer data_buffer(env, data);
      ASSERT_EQ(data_buffer.status(), CL_SUCCESS);
      Buffer<int> inside(env, count + kTail, 9), merged(env, count + kTail, 9);
      set_args(guarded_kernel, data_buffer.get(), inside.get(), merged.get(), n);
      ASSERT_TRUE(run(env, guarded_kernel, range));
      auto value = [&](size_t g) { return static_cast<int>(g) < n ? data[g] * 3 : -1; };
      EXPECT_TRUE(same_values(merged.read(), expected<int>(count, 9, value)));
      std::vector<int> want_inside = expected<int>(count, 9, [&](size_t g) { return value(g) + static_cast<int>(g); });
      for (size_t g = static_cast<size_t>(std::max(n, 0)); g < count; ++g) want_inside[g] = 9;
      EXPECT_TRUE(same_values(inside.read(), want_inside));
      Buffer<int> sides(env, count + kTail, 8), joined(env, count + kTail, 8);
      set_args(both, data_buffer.get(), sides.get(), joined.get(), n);
      ASSERT_TRUE(run(env, both, range));
      auto chosen = [&](size_t g) { return static_cast<int>(g) < n ? data[g] + 1 : static_cast<int>(g) * 7; };
      EXPECT_TRUE(same_values(joined.read(), expected<int>(count, 8, chosen)));
      EXPECT_TRUE(same_values(sides.read(), expected<int>(count, 8, [&](size_t g) {
        return static_cast<int>(g) < n ? chosen(g) * 2 : -static_cast<int>(g);
      })));
    }
    const std::vector<int> data = random_ints(count, -1000, 1000, 11);
    Buffer<int> data_buffer(env, data), out(env, count + kTail, 4);
    set_args(odd, data_buffer.get(), out.get());
    ASSERT_TRUE(run(env, odd, range));
    std::vector<int> want = expected<int>(count, 4, [&](size_t g) { return data[g] + static_cast<int>(g); });
    for (size_t g = 0; g < count; ++g) {
      if (!(data[g] & 1)) want[g] = 4;
    }
    EXPECT_TRUE(same_values(out.read(), want));
  }
  for (size_t count : {size_t{8}, size_t{64}, size_t{1000}}) {
    SCOPED_TRACE("rows of 8, global " + std::to_string(count));
    const std::vector<int> data = random_ints(count, -1000, 1000, 13);
    Buffer<int> data_buffer(env, data), out(env, count + kTail, 6);
    const int n = static_cast<int>(count) - 3;
    set_args(rows, data_buffer.get(), out.get(), n);
    ASSERT_TRUE(run(env, rows, Range1d{count, 8}));
    std::vector<int> want = expected<int>(count, 6, [&](size_t g) { return data[g] - 5; });
    for (size_t g = static_cast<size_t>(n); g < count; ++g) want[g] = 6;
    EXPECT_TRUE(same_values(out.read(), want));
  }
}

// The CTS math tests' kernel for 3-element vectors: vload3/vstore3 of consecutive float3s
// (through generic pointers in OpenCL C 3.0: an address space cast of each lane's address),
// and a last work-item that reads and writes only the elements its buffer holds. The
// ranges include the CTS's (10923 work-items: a 2 MiB buffer of floats over 16 threads).
TEST_P(HostVectorization, ThreeElementVectorsWithATail) {
  BuiltProgram program(env, R"(
    kernel void doubled3(global float* out, global const float* in, global const float* in2) {
      size_t i = get_global_id(0);
      if (i + 1 < get_global_size(0)) {
        float3 a = vload3(0, in + 3 * i);
        float3 b = vload3(0, in2 + 3 * i);
        vstore3(a + b, 0, out + 3 * i);
      } else {
        size_t parity = i & 1;
        float3 a = (float3)(-7.0f, -7.0f, -7.0f);
        float3 b = (float3)(-7.0f, -7.0f, -7.0f);
        switch (parity) {
          case 0: a.y = in[3 * i + 1]; b.y = in2[3 * i + 1];
          case 1: a.x = in[3 * i]; b.x = in2[3 * i]; break;
        }
        float3 r = a + b;
        switch (parity) {
          case 0: out[3 * i + 1] = r.y;
          case 1: out[3 * i] = r.x; break;
        }
      }
    })", "-cl-std=CL3.0");  // as the CTS builds it: vload3 of the generic address space
  cl_kernel kernel = program.kernel("doubled3");
  ASSERT_NE(kernel, nullptr);
  std::vector<Range1d> ranges(std::begin(kRanges), std::end(kRanges));
  ranges.push_back({10923, 0});  // the CTS math tests' 3-element jobs on 16 threads
  ranges.push_back({87382, 0});
  ranges.push_back({10923, 33});
  ranges.push_back({10923, 331});
  for (const Range1d& range : ranges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    std::vector<float> in(3 * count);
    for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>(k) * 0.5f + 1.0f;
    Buffer<float> input(env, in), out(env, 3 * count + kTail, 3.0f);
    set_args(kernel, out.get(), input.get(), input.get());
    ASSERT_TRUE(run(env, kernel, range));
    std::vector<float> want(3 * count + kTail, 3.0f);
    for (size_t i = 0; i + 1 < count; ++i) {
      for (size_t e = 0; e < 3; ++e) want[3 * i + e] = 2.0f * in[3 * i + e];
    }
    const size_t last = count - 1;
    want[3 * last] = 2.0f * in[3 * last];
    if ((last & 1) == 0) want[3 * last + 1] = 2.0f * in[3 * last + 1];
    EXPECT_TRUE(same_values(out.read(), want));
  }
}

// An address computed inside a loop that work-items leave at iterations of their own and
// used after it: each lane's from the iteration it left in, so consecutive work-items'
// addresses do not step alike even where they did inside the loop.
TEST_P(HostVectorization, AddressesLeavingALoopAtIterationsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void leave(global const int* marks, global int* out, long n) {
      long i = get_global_id(0);  // 64-bit: no run-time check stands behind a wrong step
      long at = i, k = 0;
      while (marks[at] != 0) {
        ++k;
        at = i + k * n;
      }
      out[at] = (int)i;
    })");
  cl_kernel kernel = program.kernel("leave");
  ASSERT_NE(kernel, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    const std::vector<int> steps = random_ints(count, 0, 3, 31);
    std::vector<int> marks(4 * count, 0);
    for (size_t i = 0; i < count; ++i) {
      for (int k = 0; k < steps[i]; ++k) marks[i + static_cast<size_t>(k) * count] = 1;
    }
    Buffer<int> input(env, marks), out(env, 4 * count + kTail, -1);
    set_args(kernel, input.get(), out.get(), static_cast<cl_long>(count));
    ASSERT_TRUE(run(env, kernel, range));
    std::vector<int> expected_out(4 * count + kTail, -1);
    for (size_t i = 0; i < count; ++i) expected_out[i + static_cast<size_t>(steps[i]) * count] = static_cast<int>(i);
    EXPECT_TRUE(same_values(out.read(), expected_out));
  }
}

// if/else on the work-item's parity (and, nested, on gid % 3 and on loaded data), each
// branch storing to a buffer of its own, and values from both branches merged after them.
TEST_P(HostVectorization, BranchesDivergentByWorkItem) {
  BuiltProgram program(env, R"(
    kernel void parity(global const int* in, global int* odd, global int* even, global int* merged,
                       global float* fmerged) {
      int gid = (int)get_global_id(0);
      int x = in[gid];
      int v;
      float f;
      if (gid & 1) {
        odd[gid] = x * 2;
        v = x + 7;
        f = (float)x * 0.5f;
        if (gid % 3 == 0) v -= 100;
      } else {
        even[gid] = x - 5;
        v = x ^ 0x55;
        f = -(float)x;
        if (x > 300) {
          v += x;
          even[gid] += 1;
        }
      }
      merged[gid] = v * 3;
      fmerged[gid] = f + 1.0f;
    })");
  cl_kernel kernel = program.kernel("parity");
  ASSERT_NE(kernel, nullptr);
  const std::vector<int> in = random_ints(1000, -1000, 1000, 2);
  Buffer<int> input(env, in);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<int> odd(env, count + kTail, -1), even(env, count + kTail, -2), merged(env, count + kTail, -3);
    Buffer<float> fmerged(env, count + kTail, -4.0f);
    set_args(kernel, input.get(), odd.get(), even.get(), merged.get(), fmerged.get());
    ASSERT_TRUE(run(env, kernel, range));
    auto branch_value = [&](size_t g) {
      const int x = in[g];
      if (g & 1) return x + 7 - (g % 3 == 0 ? 100 : 0);
      return (x ^ 0x55) + (x > 300 ? x : 0);
    };
    EXPECT_TRUE(same_values(odd.read(), expected<int>(count, -1, [&](size_t g) { return g & 1 ? in[g] * 2 : -1; })));
    EXPECT_TRUE(same_values(even.read(), expected<int>(count, -2, [&](size_t g) {
      return g & 1 ? -2 : in[g] - 5 + (in[g] > 300 ? 1 : 0);
    })));
    EXPECT_TRUE(same_values(merged.read(), expected<int>(count, -3, [&](size_t g) { return branch_value(g) * 3; })));
    EXPECT_TRUE(same_values(fmerged.read(), expected<float>(count, -4.0f, [&](size_t g) {
      const float x = static_cast<float>(in[g]);
      return (g & 1 ? x * 0.5f : -x) + 1.0f;
    })));
  }
}

// switch on gid % 5 with fallthrough, alone and inside a loop that moves the case on.
TEST_P(HostVectorization, SwitchWithFallthroughOnTheWorkItem) {
  BuiltProgram program(env, R"(
    int cases(int k) {
      int r = 0;
      switch (k % 5) {
        case 0: r += 1;
        case 1: r += 10; break;
        case 2: r += 100;
        case 3: r += 1000;
        default: r += 10000;
      }
      return r;
    }
    kernel void switches(global int* once, global int* looped) {
      int gid = (int)get_global_id(0);
      once[gid] = cases(gid);
      int sum = 0;
      for (int k = 0; k < gid % 4 + 1; ++k) {
        switch ((gid + k) % 5) {
          case 4: sum *= 3;
          case 0: sum += k; break;
          case 2: continue;
          default: sum -= gid;
        }
        sum ^= 1;
      }
      looped[gid] = sum;
    })");
  cl_kernel kernel = program.kernel("switches");
  ASSERT_NE(kernel, nullptr);
  auto cases = [](int k) {
    switch (k % 5) {
      case 0: return 11;
      case 1: return 10;
      case 2: return 11100;
      case 3: return 11000;
      default: return 10000;
    }
  };
  auto looped = [](int gid) {
    int sum = 0;
    for (int k = 0; k < gid % 4 + 1; ++k) {
      const int c = (gid + k) % 5;
      if (c == 2) continue;
      if (c == 4) sum = sum * 3 + k;
      else if (c == 0) sum += k;
      else sum -= gid;
      sum ^= 1;
    }
    return sum;
  };
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<int> once(env, count + kTail, -1), loop(env, count + kTail, -1);
    set_args(kernel, once.get(), loop.get());
    ASSERT_TRUE(run(env, kernel, range));
    EXPECT_TRUE(same_values(once.read(), expected<int>(count, -1, [&](size_t g) { return cases(int(g)); })));
    EXPECT_TRUE(same_values(loop.read(), expected<int>(count, -1, [&](size_t g) { return looped(int(g)); })));
  }
}

// Plain OpenCL C functions with loops inside (one marked noinline) called from the kernel:
// trip counts of each work-item, a global pointer argument, stores through a helper.
TEST_P(HostVectorization, HelperFunctionsWithLoops) {
  BuiltProgram program(env, R"(
    int collatz_steps(uint x) {
      int steps = 0;
      while (x != 1u) {
        x = (x & 1u) ? 3u * x + 1u : x / 2u;
        ++steps;
      }
      return steps;
    }
    __attribute__((noinline)) uint fnv(uint h, global const uint* data, int count) {
      for (int k = 0; k < count; ++k) h = (h ^ data[k]) * 16777619u;
      return h;
    }
    void write_pair(global int* out, int gid, int a, int b) {
      out[2 * gid] = a;
      out[2 * gid + 1] = b;
    }
    float halve_below(float x, float limit) {
      int n = 0;
      while (x >= limit) {
        x *= 0.5f;
        ++n;
      }
      return x + (float)n;
    }
    kernel void helpers(global const uint* data, global int* steps, global uint* hashes, global int* pairs,
                        global float* halves) {
      int gid = (int)get_global_id(0);
      int s = collatz_steps((uint)gid + 1u);
      steps[gid] = s;
      hashes[gid] = fnv(2166136261u + (uint)gid, data, gid % 23);
      write_pair(pairs, gid, s * 2, -gid);
      halves[gid] = halve_below((float)gid + 0.75f, 3.0f);
    })");
  cl_kernel kernel = program.kernel("helpers");
  ASSERT_NE(kernel, nullptr);
  std::vector<cl_uint> data(23);
  for (size_t k = 0; k < data.size(); ++k) data[k] = static_cast<cl_uint>(k * 2654435761u);
  Buffer<cl_uint> input(env, data);
  auto collatz = [](cl_uint x) {
    int steps = 0;
    for (; x != 1u; ++steps) x = (x & 1u) ? 3u * x + 1u : x / 2u;
    return steps;
  };
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<int> steps(env, count + kTail, -1), pairs(env, 2 * count + kTail, -1);
    Buffer<cl_uint> hashes(env, count + kTail, 1u);
    Buffer<float> halves(env, count + kTail, -1.0f);
    set_args(kernel, input.get(), steps.get(), hashes.get(), pairs.get(), halves.get());
    ASSERT_TRUE(run(env, kernel, range));
    EXPECT_TRUE(same_values(steps.read(), expected<int>(count, -1, [&](size_t g) { return collatz(g + 1); })));
    EXPECT_TRUE(same_values(hashes.read(), expected<cl_uint>(count, 1u, [&](size_t g) {
      cl_uint h = 2166136261u + static_cast<cl_uint>(g);
      for (size_t k = 0; k < g % 23; ++k) h = (h ^ data[k]) * 16777619u;
      return h;
    })));
    EXPECT_TRUE(same_values(pairs.read(), expected<int>(2 * count, -1, [&](size_t e) {
      const int g = static_cast<int>(e / 2);
      return e % 2 ? -g : collatz(g + 1) * 2;
    })));
    EXPECT_TRUE(same_values(halves.read(), expected<float>(count, -1.0f, [&](size_t g) {
      float x = static_cast<float>(g) + 0.75f;
      int n = 0;
      for (; x >= 3.0f; ++n) x *= 0.5f;
      return x + static_cast<float>(n);
    })));
  }
}

// Private arrays written and read at indices of each work-item, in different orders, and
// a histogram whose bins come from the data.
TEST_P(HostVectorization, PrivateArraysAtIndicesOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void arrays(global const float* in, global float* sums, global float* picks, global int* bins) {
      int gid = (int)get_global_id(0);
      float arr[16];
      int hist[8];
      for (int k = 0; k < 8; ++k) hist[k] = 0;
      for (int k = 0; k < 16; ++k) arr[(gid + k) % 16] = in[gid] + (float)k;
      for (int k = 0; k < 16; ++k) hist[((int)arr[k] + gid) & 7] += k;
      float s = 0.0f;
      for (int k = 0; k < 16; ++k) s += arr[(k * 5 + gid) % 16] * (float)(k + 1);
      sums[gid] = s;
      picks[gid] = arr[(gid * 7) % 16];
      for (int k = 0; k < 8; ++k) bins[gid * 8 + k] = hist[k];
    })");
  cl_kernel kernel = program.kernel("arrays");
  ASSERT_NE(kernel, nullptr);
  std::vector<float> in(1000);
  for (size_t g = 0; g < in.size(); ++g) in[g] = static_cast<float>(g % 100) * 0.25f - 10.0f;  // exact sums
  Buffer<float> input(env, in);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<float> sums(env, count + kTail, -1.0f), picks(env, count + kTail, -1.0f);
    Buffer<int> bins(env, 8 * count + kTail, -1);
    set_args(kernel, input.get(), sums.get(), picks.get(), bins.get());
    ASSERT_TRUE(run(env, kernel, range));
    std::vector<float> want_sums = expected<float>(count, -1.0f, [](size_t) { return 0.0f; });
    std::vector<float> want_picks = want_sums;
    std::vector<int> want_bins = expected<int>(8 * count, -1, [](size_t) { return 0; });
    for (size_t g = 0; g < count; ++g) {
      const int gid = static_cast<int>(g);
      float arr[16];
      for (int k = 0; k < 16; ++k) arr[(gid + k) % 16] = in[g] + static_cast<float>(k);
      for (int k = 0; k < 16; ++k) want_bins[8 * g + ((static_cast<int>(arr[k]) + gid) & 7)] += k;
      float s = 0.0f;
      for (int k = 0; k < 16; ++k) s += arr[(k * 5 + gid) % 16] * static_cast<float>(k + 1);
      want_sums[g] = s;
      want_picks[g] = arr[(gid * 7) % 16];
    }
    EXPECT_TRUE(same_values(sums.read(), want_sums));
    EXPECT_TRUE(same_values(picks.read(), want_picks));
    EXPECT_TRUE(same_values(bins.read(), want_bins));
  }
}

// ---------------------------------------------------------------- memory

// Loads and stores of every shape: consecutive, strided, reversed, gathered and scattered
// through a permutation, uniform loads, a uniform store of uniform values; and stores that
// must leave their neighbours alone: bytes, shorts at a stride of 2, a store under a mask.
TEST_P(HostVectorization, MemoryAccessesOfEveryShape) {
  BuiltProgram program(env, R"(
    kernel void shapes(global const int* in, global const int* perm, global int* consecutive, global int* strided,
                       global int* reversed, global int* gathered, global int* scattered, global int* uniform,
                       global int* common, int n) {
      int gid = (int)get_global_id(0);
      consecutive[gid] = in[gid];
      strided[gid] = in[gid * 3 + 1];
      reversed[gid] = in[n - 1 - gid];
      gathered[gid] = in[perm[gid]];
      scattered[perm[gid]] = in[gid] + 1;
      uniform[gid] = in[0] * 2 + in[n - 1];
      common[0] = 42;
      common[1] = n * 2;
    }
    kernel void narrow(global const uchar* in, global uchar* bytes, global short* every_other, global float* masked) {
      int gid = (int)get_global_id(0);
      bytes[gid] = in[gid] + (uchar)1;
      every_other[2 * gid] = (short)(gid * 3);
      if (gid % 3 != 0) masked[gid] = (float)gid * 0.5f;
    })");
  cl_kernel shapes = program.kernel("shapes");
  cl_kernel narrow = program.kernel("narrow");
  ASSERT_NE(shapes, nullptr);
  ASSERT_NE(narrow, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    const cl_int n = static_cast<cl_int>(count);
    const std::vector<int> in = random_ints(3 * count + 2, -100000, 100000, static_cast<unsigned>(count));
    std::vector<int> perm(count);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(3));
    Buffer<int> input(env, in), permutation(env, perm);
    Buffer<int> consecutive(env, count + kTail, -1), strided(env, count + kTail, -1), reversed(env, count + kTail, -1),
        gathered(env, count + kTail, -1), scattered(env, count + kTail, -1), uniform(env, count + kTail, -1),
        common(env, 2 + kTail, -1);
    set_args(shapes, input.get(), permutation.get(), consecutive.get(), strided.get(), reversed.get(), gathered.get(),
             scattered.get(), uniform.get(), common.get(), n);
    ASSERT_TRUE(run(env, shapes, range));
    EXPECT_TRUE(same_values(consecutive.read(), expected<int>(count, -1, [&](size_t g) { return in[g]; })));
    EXPECT_TRUE(same_values(strided.read(), expected<int>(count, -1, [&](size_t g) { return in[g * 3 + 1]; })));
    EXPECT_TRUE(same_values(reversed.read(), expected<int>(count, -1, [&](size_t g) { return in[count - 1 - g]; })));
    EXPECT_TRUE(same_values(gathered.read(), expected<int>(count, -1, [&](size_t g) { return in[perm[g]]; })));
    std::vector<int> want_scattered = expected<int>(count, -1, [](size_t) { return 0; });
    for (size_t g = 0; g < count; ++g) want_scattered[perm[g]] = in[g] + 1;
    EXPECT_TRUE(same_values(scattered.read(), want_scattered));
    const int uniform_value = in[0] * 2 + in[count - 1];
    EXPECT_TRUE(same_values(uniform.read(), expected<int>(count, -1, [&](size_t) { return uniform_value; })));
    EXPECT_TRUE(same_values(common.read(), expected<int>(2, -1, [&](size_t e) { return e == 0 ? 42 : n * 2; })));

    std::vector<cl_uchar> bytes_in(count);
    for (size_t g = 0; g < count; ++g) bytes_in[g] = static_cast<cl_uchar>(g * 37 + 5);
    Buffer<cl_uchar> bytes_input(env, bytes_in), bytes(env, count + kTail, 0xEE);
    Buffer<cl_short> every_other(env, 2 * count + kTail, -1);
    Buffer<float> masked(env, count + kTail, -1.0f);
    set_args(narrow, bytes_input.get(), bytes.get(), every_other.get(), masked.get());
    ASSERT_TRUE(run(env, narrow, range));
    EXPECT_TRUE(same_values(bytes.read(), expected<cl_uchar>(count, 0xEE, [&](size_t g) {
      return static_cast<cl_uchar>(bytes_in[g] + 1);
    })));
    EXPECT_TRUE(same_values(every_other.read(), expected<cl_short>(2 * count, -1, [](size_t e) {
      return e % 2 ? cl_short{-1} : static_cast<cl_short>(e / 2 * 3);
    })));
    EXPECT_TRUE(same_values(masked.read(), expected<float>(count, -1.0f, [](size_t g) {
      return g % 3 ? static_cast<float>(g) * 0.5f : -1.0f;
    })));
  }
}

// `int i = get_global_id(0)` keeps the id's low 32 bits: with global work offsets whose ids
// cross 2^31 (the int wraps to negative within the range), 2^32 (wraps to 0) or lie past it,
// and uint indices built with multiplications that wrap.
TEST_P(HostVectorization, ThirtyTwoBitIdsFarFromZero) {
  BuiltProgram program(env, R"(
    kernel void int_ids(global const int* in, global int* ids, global int* values, uint first) {
      int i = get_global_id(0);
      uint k = (uint)i - first;
      ids[k] = i;
      values[k] = in[k] * 2 + (i & 7);
    }
    kernel void uint_products(global const int* in, global int* out, uint first, uint n) {
      uint j = (uint)get_global_id(0) - first;
      out[j * 3u] = in[j * 2u];
      out[j * 3u + 1u] = in[(j * 2654435761u) % n];
      out[j * 3u + 2u] = (int)(j * j * 2246822519u);
    })");
  cl_kernel int_ids = program.kernel("int_ids");
  cl_kernel uint_products = program.kernel("uint_products");
  ASSERT_NE(int_ids, nullptr);
  ASSERT_NE(uint_products, nullptr);
  const Range1d ranges[] = {{1000, 0}, {1000, 40}, {37, 0}, {133, 7}, {96, 24}};
  const size_t offsets[] = {0, 0x7fffffffu - 300, 0xfffffff0u, (size_t{1} << 32) + 3, (size_t{5} << 33) - 17};
  for (const Range1d& range : ranges) {
    for (size_t offset : offsets) {
      if (sizeof(size_t) < 8 && offset > 0xffffffffu) continue;
      SCOPED_TRACE(describe(range) + ", offset " + std::to_string(offset));
      const size_t count = range.global;
      const cl_uint first = static_cast<cl_uint>(offset);
      const std::vector<int> in = random_ints(2 * count, -100000, 100000, 4);
      Buffer<int> input(env, in), ids(env, count + kTail, -1), values(env, count + kTail, -1),
          products(env, 3 * count + kTail, -1);
      set_args(int_ids, input.get(), ids.get(), values.get(), first);
      ASSERT_TRUE(run(env, int_ids, range, offset));
      EXPECT_TRUE(same_values(ids.read(), expected<int>(count, -1, [&](size_t k) {
        return static_cast<int>(static_cast<cl_uint>(offset + k));
      })));
      EXPECT_TRUE(same_values(values.read(), expected<int>(count, -1, [&](size_t k) {
        return in[k] * 2 + static_cast<int>((offset + k) & 7);
      })));
      set_args(uint_products, input.get(), products.get(), first, static_cast<cl_uint>(count));
      ASSERT_TRUE(run(env, uint_products, range, offset));
      EXPECT_TRUE(same_values(products.read(), expected<int>(3 * count, -1, [&](size_t e) {
        const cl_uint j = static_cast<cl_uint>(e / 3);
        if (e % 3 == 0) return in[j * 2u];
        if (e % 3 == 1) return in[(j * 2654435761u) % count];
        return static_cast<int>(j * j * 2246822519u);
      })));
    }
  }
}

// Atomics from every work-item: atomic_inc on one counter (its return value picks a slot
// each work-item writes once), atomic_add of the id, atomic_min/max, a compare-and-swap loop,
// and adds to a few counters shared by some lanes of a vector.
TEST_P(HostVectorization, AtomicsFromEveryWorkItem) {
  BuiltProgram program(env, R"(
    kernel void atomics(volatile global int* c, global int* owner, global int* ticket, global int* seen,
                        volatile global int* buckets) {
      int gid = (int)get_global_id(0);
      int t = atomic_inc(&c[0]);
      ticket[gid] = t;
      owner[t] = gid;
      atomic_add(&c[1], gid);
      int key = (gid * 37) % 1009 - 500;
      atomic_min(&c[2], key);
      atomic_max(&c[3], key);
      int old = c[4], expected;
      do {
        expected = old;
        old = atomic_cmpxchg(&c[4], expected, expected + 2 * gid + 1);
      } while (old != expected);
      seen[gid] = expected;
      atomic_add(&buckets[gid % 5], gid);
    })");
  cl_kernel kernel = program.kernel("atomics");
  ASSERT_NE(kernel, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    const int n = static_cast<int>(count);
    Buffer<int> counters(env, {0, 0, INT_MAX, INT_MIN, 0}), owner(env, count + kTail, -1),
        ticket(env, count + kTail, -1), seen(env, count + kTail, -1), buckets(env, 5, 0);
    set_args(kernel, counters.get(), owner.get(), ticket.get(), seen.get(), buckets.get());
    ASSERT_TRUE(run(env, kernel, range));
    int key_min = INT_MAX, key_max = INT_MIN;
    std::vector<int> want_buckets(5, 0);
    for (int g = 0; g < n; ++g) {
      key_min = std::min(key_min, (g * 37) % 1009 - 500);
      key_max = std::max(key_max, (g * 37) % 1009 - 500);
      want_buckets[g % 5] += g;
    }
    EXPECT_TRUE(same_values(counters.read(), {n, n * (n - 1) / 2, key_min, key_max, n * n}));
    EXPECT_TRUE(same_values(buckets.read(), want_buckets));
    // The tickets are 0 .. n-1, each once, and each slot names the work-item that drew it.
    const std::vector<int> tickets = ticket.read(), owners = owner.read();
    std::vector<int> sorted(tickets.begin(), tickets.begin() + n);
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> identity(count);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_TRUE(same_values(sorted, identity)) << "tickets";
    for (int g = 0; g < n && tickets[g] >= 0 && tickets[g] < n; ++g) {
      ASSERT_EQ(owners[tickets[g]], g) << "slot " << tickets[g];
    }
    for (size_t e = count; e < count + kTail; ++e) EXPECT_EQ(owners[e], -1) << e;
    // Each compare-and-swap saw the sum of the odd numbers 2g + 1 of those before it.
    const std::vector<int> seen_values = seen.read();
    std::vector<int> order(identity);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return seen_values[a] < seen_values[b]; });
    int total = 0;
    for (int g : order) {
      ASSERT_EQ(seen_values[g], total) << "work-item " << g;
      total += 2 * g + 1;
    }
  }
}

// ---------------------------------------------------------------- types and builtins

// float4 copies, swizzles and dot products, vload4/vstore4 at aligned and unaligned
// offsets, int2 and char16 element shuffles (one by a mask of each work-item).
TEST_P(HostVectorization, VectorTypesAndShuffles) {
  BuiltProgram program(env, R"(
    kernel void vectors(global const float4* in, global const float* flat, global float4* copy,
                        global float4* swizzled, global float* dots, global float* stored, global float* shifted,
                        global const int2* pairs, global int2* swapped, global const char16* bytes,
                        global char16* shuffled) {
      size_t gid = get_global_id(0);
      float4 v = in[gid];
      copy[gid] = v;
      swizzled[gid] = v.wzyx * 2.0f + (float4)(1.0f, 2.0f, 3.0f, (float)gid);
      dots[gid] = dot(v, (float4)(1.0f, -2.0f, 0.5f, 4.0f));
      float4 a = vload4(gid, flat);
      float4 u = vload4(0, flat + gid * 4 + 1);
      float4 w = vload4(0, flat + gid * 3 + 2);
      vstore4(a + u, gid, stored);
      vstore4(w * 0.5f, 0, shifted + gid * 4 + 1);
      int2 p = pairs[gid];
      swapped[gid] = p.yx + (int2)((int)gid, -(int)gid);
      char16 c = bytes[gid];
      shuffled[2 * gid] = c.sfedcba9876543210;
      shuffled[2 * gid + 1] = shuffle(c, (uchar16)((uchar)gid) +
                                         (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    })");
  cl_kernel kernel = program.kernel("vectors");
  ASSERT_NE(kernel, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    // Quarters of small integers: every sum and product here is exact.
    std::vector<float> values(4 * count + 8);
    for (size_t e = 0; e < values.size(); ++e) values[e] = static_cast<float>(int(e * 7919 % 401) - 200) * 0.25f;
    std::vector<cl_int> pair_values(2 * count);
    for (size_t e = 0; e < pair_values.size(); ++e) pair_values[e] = static_cast<cl_int>(e * 7919 % 200001) - 100000;
    std::vector<cl_char> byte_values(16 * count);
    for (size_t e = 0; e < byte_values.size(); ++e) byte_values[e] = static_cast<cl_char>(e * 31 + e / 16);
    Buffer<float> in(env, values), flat(env, values);
    Buffer<float> copy(env, 4 * count + kTail, -1.0f), swizzled(env, 4 * count + kTail, -1.0f),
        dots(env, count + kTail, -1.0f), stored(env, 4 * count + kTail, -1.0f),
        shifted(env, 4 * count + 1 + kTail, -1.0f);
    Buffer<cl_int> pairs(env, pair_values), swapped(env, 2 * count + kTail, -1);
    Buffer<cl_char> bytes(env, byte_values), shuffled(env, 32 * count + kTail, -1);
    set_args(kernel, in.get(), flat.get(), copy.get(), swizzled.get(), dots.get(), stored.get(), shifted.get(),
             pairs.get(), swapped.get(), bytes.get(), shuffled.get());
    ASSERT_TRUE(run(env, kernel, range));
    const float weights[4] = {1.0f, -2.0f, 0.5f, 4.0f};
    EXPECT_TRUE(same_values(copy.read(), expected<float>(4 * count, -1.0f, [&](size_t e) { return values[e]; })));
    EXPECT_TRUE(same_values(swizzled.read(), expected<float>(4 * count, -1.0f, [&](size_t e) {
      const size_t g = e / 4, k = e % 4;
      return values[4 * g + 3 - k] * 2.0f + (k == 3 ? static_cast<float>(g) : static_cast<float>(k + 1));
    })));
    EXPECT_TRUE(same_values(dots.read(), expected<float>(count, -1.0f, [&](size_t g) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += values[4 * g + k] * weights[k];
      return sum;
    })));
    EXPECT_TRUE(same_values(stored.read(), expected<float>(4 * count, -1.0f, [&](size_t e) {
      return values[e] + values[e + 1];  // a[k] = flat[4g + k], u[k] = flat[4g + 1 + k]
    })));
    EXPECT_TRUE(same_values(shifted.read(), expected<float>(4 * count + 1, -1.0f, [&](size_t e) {
      if (e == 0) return -1.0f;
      const size_t g = (e - 1) / 4, k = (e - 1) % 4;
      return values[g * 3 + 2 + k] * 0.5f;
    })));
    EXPECT_TRUE(same_values(swapped.read(), expected<cl_int>(2 * count, -1, [&](size_t e) {
      const size_t g = e / 2;
      const cl_uint other = static_cast<cl_uint>(pair_values[2 * g + 1 - e % 2]);
      return static_cast<cl_int>(e % 2 ? other - static_cast<cl_uint>(g) : other + static_cast<cl_uint>(g));
    })));
    EXPECT_TRUE(same_values(shuffled.read(), expected<cl_char>(32 * count, -1, [&](size_t e) {
      const size_t g = e / 32, k = e % 16;
      const size_t source = e % 32 < 16 ? 15 - k : (g + k) % 16;  // the mask counts modulo 16
      return byte_values[16 * g + source];
    })));
  }
}

// sin, cos, exp, log, pow, sqrt within their ulp limits (OpenCL C 3.0 7.4: 4, 4, 3, 3, 16,
// 3), fma exact, fmin/fmax exact, native_ forms within 8192 ulp on their domains (the half_
// guarantee cucl gives them), classification, and a builtin chosen by a divergent branch;
// over special values and wide random inputs.
TEST_P(HostVectorization, MathBuiltinsWithinTheirLimits) {
  BuiltProgram program(env, R"(
    kernel void math(global const float* x, global const float* y, global float* out, global int* classes, int n) {
      int i = (int)get_global_id(0);
      float a = x[i], b = y[i];
      out[0 * n + i] = sin(a);
      out[1 * n + i] = cos(a);
      out[2 * n + i] = exp(a);
      out[3 * n + i] = log(a);
      out[4 * n + i] = pow(a, b);
      out[5 * n + i] = sqrt(a);
      out[6 * n + i] = fma(a, b, a);
      out[7 * n + i] = fmin(a, b);
      out[8 * n + i] = fmax(a, b);
      out[9 * n + i] = native_sin(a);
      out[10 * n + i] = native_cos(a);
      out[11 * n + i] = native_exp(a);
      out[12 * n + i] = native_log(a);
      out[13 * n + i] = native_sqrt(a);
      if (a > 1.0f) out[14 * n + i] = log(a);
      else if (isnan(a)) out[14 * n + i] = b;
      else out[14 * n + i] = exp(b);
      classes[i] = isnan(a) | isinf(a) << 1 | isfinite(b) << 2 | signbit(a) << 3 | isless(a, b) << 4;
    })");
  cl_kernel kernel = program.kernel("math");
  ASSERT_NE(kernel, nullptr);
  using L = long double;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // Pairs (x, y): NaN, infinities, signed zeros, pow's special cases, exp's overflow.
  const std::vector<float> special_x = {nan,   inf,    -inf,  0.0f,  -0.0f, 1.0f,  -1.0f,  0.5f,
                                        2.0f,  -2.0f,  10.0f, -10.0f, 3.1415927f, 88.0f, 89.0f, -80.0f,
                                        1e-5f, -1e-5f, 80.0f, 1e5f,   3.0f,  -3.0f, 100.0f};
  const std::vector<float> special_y = {2.0f,  0.5f,   nan,   0.0f,   -0.0f, 1.0f,  -1.0f,  inf,
                                        -inf,  3.0f,   -3.0f, 2.5f,   nan,   -2.0f, 4.0f,   -4.0f,
                                        1.0f,  0.0f,   2.0f,  -1.5f,  inf,   3.0f,  -1.0f};
  const Range1d ranges[] = {{1000, 0}, {1000, 40}, {37, 0}, {133, 7}};
  for (const Range1d& range : ranges) {
    SCOPED_TRACE(describe(range));
    const size_t n = range.global;
    std::vector<float> x(n), y(n);
    Random rng(5);
    for (size_t i = 0; i < n; ++i) {
      if (i < special_x.size()) {
        x[i] = special_x[i];
        y[i] = special_y[i];
        continue;
      }
      x[i] = i % 2 ? random_uniform<float>(rng, -100, 100) : random_log_uniform<float>(rng, 1e-5L, 1e5L, true);
      y[i] = i % 3 ? random_uniform<float>(rng, -4, 4) : static_cast<float>(static_cast<int>(rng() % 9) - 4);
    }
    Buffer<float> xs(env, x), ys(env, y), out(env, 15 * n + kTail, -1.0f);
    Buffer<cl_int> classes(env, n + kTail, -1);
    set_args(kernel, xs.get(), ys.get(), out.get(), classes.get(), static_cast<cl_int>(n));
    ASSERT_TRUE(run(env, kernel, range));
    const std::vector<float> got = out.read();
    for (size_t e = 15 * n; e < got.size(); ++e) EXPECT_EQ(got[e], -1.0f) << "past the range, " << e;

    struct Check {
      const char* name;
      double ulps;
      std::function<L(float, float)> reference;
      std::function<bool(float)> domain;  // native_ forms: inputs outside are not checked
      long double abs_limit = 0;          // also accepted: |got - want| <= abs_limit
    };
    auto finite = [](float a) { return std::isfinite(a); };
    auto positive = [](float a) { return std::isfinite(a) && a > 0; };
    auto moderate = [](float a) { return std::fabs(a) <= 80.0f; };
    const std::vector<Check> checks = {
        {"sin", 4, [](float a, float) { return std::sin(L(a)); }, nullptr},
        {"cos", 4, [](float a, float) { return std::cos(L(a)); }, nullptr},
        {"exp", 3, [](float a, float) { return std::exp(L(a)); }, nullptr},
        {"log", 3, [](float a, float) { return std::log(L(a)); }, nullptr},
        {"pow", 16, [](float a, float b) { return std::pow(L(a), L(b)); }, nullptr},
        {"sqrt", 3, [](float a, float) { return std::sqrt(L(a)); }, nullptr},
        {"fma", 0, [](float a, float b) { return L(std::fma(a, b, a)); }, nullptr},
        {"fmin", 0, [](float a, float b) { return L(std::fmin(a, b)); }, nullptr},
        {"fmax", 0, [](float a, float b) { return L(std::fmax(a, b)); }, nullptr},
        // Near a root of sin or cos, an absolute error of 2^-20 too.
        {"native_sin", 8192, [](float a, float) { return std::sin(L(a)); }, finite, 0x1p-20L},
        {"native_cos", 8192, [](float a, float) { return std::cos(L(a)); }, finite, 0x1p-20L},
        {"native_exp", 8192, [](float a, float) { return std::exp(L(a)); }, moderate},
        {"native_log", 8192, [](float a, float) { return std::log(L(a)); }, positive},
        {"native_sqrt", 8192, [](float a, float) { return std::sqrt(L(a)); }, positive},
    };
    for (size_t c = 0; c < checks.size(); ++c) {
      const Check& check = checks[c];
      const bool either_zero = std::string(check.name).starts_with("fm");  // fmin(-0, +0) may be either zero
      size_t wrong = 0;
      std::ostringstream detail;
      for (size_t i = 0; i < n; ++i) {
        if (check.domain && !check.domain(x[i])) continue;
        const float result = got[c * n + i];
        const L want = check.reference(x[i], y[i]);
        const bool ok = ulp_error<float>(result, want) <= check.ulps || (either_zero && want == 0 && result == 0) ||
                        std::fabs(result - want) <= check.abs_limit;
        if (!ok && wrong++ < 6) {
          detail << "\n  " << check.name << "(" << hex(x[i]) << ", " << hex(y[i]) << ") at " << i << ": got "
                 << hex(result) << ", want " << static_cast<double>(want);
        }
      }
      EXPECT_EQ(wrong, 0u) << check.name << detail.str();
    }
    size_t wrong = 0;
    std::ostringstream detail;
    for (size_t i = 0; i < n; ++i) {
      const float result = got[14 * n + i];
      const bool ok = x[i] > 1.0f           ? ulp_error<float>(result, std::log(L(x[i]))) <= 3
                      : std::isnan(x[i])    ? same_value(result, y[i])
                                            : ulp_error<float>(result, std::exp(L(y[i]))) <= 3;
      if (!ok && wrong++ < 6) {
        detail << "\n  branch at " << i << ": x " << hex(x[i]) << ", y " << hex(y[i]) << ", got " << hex(result);
      }
    }
    EXPECT_EQ(wrong, 0u) << detail.str();
    EXPECT_TRUE(same_values(classes.read(), expected<cl_int>(n, -1, [&](size_t i) {
      return int(std::isnan(x[i])) | int(std::isinf(x[i])) << 1 | int(std::isfinite(y[i])) << 2 |
             int(std::signbit(x[i])) << 3 | int(std::isless(x[i], y[i])) << 4;
    })));
  }
}

// Division and remainder by divisors that are 0 (and INT_MIN / -1) for some work-items must
// not stop the kernel, and the other work-items get exact results; shifts by amounts past the
// width use the amount modulo the width (of the promoted type for scalars, of the element
// for vectors).
TEST_P(HostVectorization, DivisionByZeroInSomeLanesAndOversizedShifts) {
  BuiltProgram program(env, R"(
    kernel void divide(global const int* a, global const int* b, global int* q, global int* r, global uint* uq,
                       global uint* ur, global long* lq) {
      int i = (int)get_global_id(0);
      int d = b[i];
      q[i] = a[i] / d;
      r[i] = a[i] % d;
      uint ud = (uint)(i % 7);
      uq[i] = (uint)a[i] / ud;
      ur[i] = (uint)a[i] % ud;
      lq[i] = (long)a[i] * 1000003L / (long)(i % 5 - 2);
    }
    kernel void shifts(global const int* x, global uint* shl, global int* ashr, global uint* lshr, global ulong* wide,
                       global ushort* promoted, global uchar4* lanes, global int2* pairs) {
      int i = (int)get_global_id(0);
      int v = x[i], s = i * 7 - 300;
      shl[i] = (uint)v << s;
      ashr[i] = v >> s;
      lshr[i] = (uint)v >> s;
      wide[i] = ((ulong)(uint)v * 0x9E3779B97F4A7C15UL) << s;
      ushort h = (ushort)v;
      promoted[i] = h >> s;
      uchar4 c = (uchar4)((uchar)v, (uchar)(v >> 8), (uchar)3, (uchar)255);
      lanes[i] = c << (uchar4)((uchar)s, (uchar)(s + 1), (uchar)(s + 2), (uchar)(s + 3));
      pairs[i] = (int2)(v, ~v) >> (int2)(s, s + 40);
    })");
  cl_kernel divide = program.kernel("divide");
  cl_kernel shifts = program.kernel("shifts");
  ASSERT_NE(divide, nullptr);
  ASSERT_NE(shifts, nullptr);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    std::vector<int> a = random_ints(count, -1000000, 1000000, 6), b = random_ints(count, -50, 50, 7);
    for (size_t i = 0; i < count; ++i) {
      if (i % 4 == 0) b[i] = 0;
      if (i % 18 == 1) a[i] = INT_MIN, b[i] = -1;
      if (b[i] == 0 && i % 4 != 0) b[i] = 3;
    }
    auto undefined = [&](size_t i) { return b[i] == 0 || (a[i] == INT_MIN && b[i] == -1); };
    Buffer<int> as(env, a), bs(env, b), q(env, count + kTail, -1), r(env, count + kTail, -1);
    Buffer<cl_uint> uq(env, count + kTail, 1u), ur(env, count + kTail, 1u);
    Buffer<cl_long> lq(env, count + kTail, -1);
    set_args(divide, as.get(), bs.get(), q.get(), r.get(), uq.get(), ur.get(), lq.get());
    ASSERT_TRUE(run(env, divide, range));
    // The undefined elements get what the kernel left there; the others are exact.
    std::vector<int> got_q = q.read(), got_r = r.read();
    std::vector<cl_uint> got_uq = uq.read(), got_ur = ur.read();
    std::vector<cl_long> got_lq = lq.read();
    EXPECT_TRUE(same_values(got_q, expected<int>(count, -1, [&](size_t i) {
      return undefined(i) ? got_q[i] : a[i] / b[i];
    })));
    EXPECT_TRUE(same_values(got_r, expected<int>(count, -1, [&](size_t i) {
      return undefined(i) ? got_r[i] : a[i] % b[i];
    })));
    EXPECT_TRUE(same_values(got_uq, expected<cl_uint>(count, 1u, [&](size_t i) {
      return i % 7 == 0 ? got_uq[i] : static_cast<cl_uint>(a[i]) / static_cast<cl_uint>(i % 7);
    })));
    EXPECT_TRUE(same_values(got_ur, expected<cl_uint>(count, 1u, [&](size_t i) {
      return i % 7 == 0 ? got_ur[i] : static_cast<cl_uint>(a[i]) % static_cast<cl_uint>(i % 7);
    })));
    EXPECT_TRUE(same_values(got_lq, expected<cl_long>(count, -1, [&](size_t i) {
      const cl_long d = static_cast<cl_long>(i % 5) - 2;
      return d == 0 ? got_lq[i] : static_cast<cl_long>(a[i]) * 1000003 / d;
    })));

    const std::vector<int> x = random_ints(count, INT_MIN + 1, INT_MAX, 8);
    Buffer<int> xs(env, x), ashr(env, count + kTail, -1), pairs(env, 2 * count + kTail, -1);
    Buffer<cl_uint> shl(env, count + kTail, 1u), lshr(env, count + kTail, 1u);
    Buffer<cl_ulong> wide(env, count + kTail, 1u);
    Buffer<cl_ushort> promoted(env, count + kTail, 1u);
    Buffer<cl_uchar> lanes(env, 4 * count + kTail, 1u);
    set_args(shifts, xs.get(), shl.get(), ashr.get(), lshr.get(), wide.get(), promoted.get(), lanes.get(), pairs.get());
    ASSERT_TRUE(run(env, shifts, range));
    auto amount = [](size_t i) { return static_cast<cl_uint>(static_cast<int>(i) * 7 - 300); };
    EXPECT_TRUE(same_values(shl.read(), expected<cl_uint>(count, 1u, [&](size_t i) {
      return static_cast<cl_uint>(x[i]) << (amount(i) & 31);
    })));
    EXPECT_TRUE(same_values(ashr.read(), expected<int>(count, -1, [&](size_t i) { return x[i] >> (amount(i) & 31); })));
    EXPECT_TRUE(same_values(lshr.read(), expected<cl_uint>(count, 1u, [&](size_t i) {
      return static_cast<cl_uint>(x[i]) >> (amount(i) & 31);
    })));
    EXPECT_TRUE(same_values(wide.read(), expected<cl_ulong>(count, 1u, [&](size_t i) {
      return (static_cast<cl_ulong>(static_cast<cl_uint>(x[i])) * 0x9E3779B97F4A7C15ull) << (amount(i) & 63);
    })));
    EXPECT_TRUE(same_values(promoted.read(), expected<cl_ushort>(count, 1u, [&](size_t i) {
      return static_cast<cl_ushort>(static_cast<int>(static_cast<cl_ushort>(x[i])) >> (amount(i) & 31));
    })));
    EXPECT_TRUE(same_values(lanes.read(), expected<cl_uchar>(4 * count, 1u, [&](size_t e) {
      const size_t i = e / 4, k = e % 4;
      const cl_uchar element[4] = {static_cast<cl_uchar>(x[i]), static_cast<cl_uchar>(x[i] >> 8), 3, 255};
      return static_cast<cl_uchar>(element[k] << ((amount(i) + k) & 7));
    })));
    EXPECT_TRUE(same_values(pairs.read(), expected<int>(2 * count, -1, [&](size_t e) {
      const size_t i = e / 2;
      return e % 2 ? ~x[i] >> ((amount(i) + 40) & 31) : x[i] >> (amount(i) & 31);
    })));
  }
}

// get_global_id, get_local_id, get_group_id, get_local_size, get_num_groups, get_global_offset
// and get_enqueued_local_size of every dimension (asked in a loop over the dimension), and a
// loop whose trip count depends on the local ids, in 2D and 3D ranges with offsets, local
// sizes of 5 and 12 in dimension 0 and non-uniform work-groups (OpenCL C 3.0).
TEST_P(HostVectorization, TwoAndThreeDimensionalRanges) {
  constexpr size_t kFields = 22;  // 7 functions x 3 dimensions, then the loop's value
  BuiltProgram program(env, R"(
    kernel void ids(global uint* out) {
      size_t gx = get_global_size(0), gy = get_global_size(1);
      size_t item = ((get_global_id(2) - get_global_offset(2)) * gy + get_global_id(1) - get_global_offset(1)) * gx +
                    get_global_id(0) - get_global_offset(0);
      size_t items = gx * gy * get_global_size(2);
      for (uint d = 0; d < 3; ++d) {
        out[(7 * d + 0) * items + item] = (uint)get_global_id(d);
        out[(7 * d + 1) * items + item] = (uint)get_local_id(d);
        out[(7 * d + 2) * items + item] = (uint)get_group_id(d);
        out[(7 * d + 3) * items + item] = (uint)get_local_size(d);
        out[(7 * d + 4) * items + item] = (uint)get_num_groups(d);
        out[(7 * d + 5) * items + item] = (uint)get_global_offset(d);
        out[(7 * d + 6) * items + item] = (uint)get_enqueued_local_size(d);
      }
      uint acc = 0;
      for (uint k = 0; k <= get_local_id(0) + get_local_id(1); ++k) acc = acc * 3u + k + (uint)get_group_id(2);
      out[21 * items + item] = acc;
    })", "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("ids");
  ASSERT_NE(kernel, nullptr);
  struct Range {
    cl_uint dims;
    std::array<size_t, 3> offset, global, local;  // local {0, 0, 0}: NULL
  };
  const Range ranges[] = {
      {2, {0, 0, 0}, {13, 6, 1}, {5, 3, 1}},      // last group of 3 in dimension 0
      {2, {3, 100, 0}, {24, 4, 1}, {12, 2, 1}},   // uniform, offsets
      {3, {1, 2, 3}, {37, 3, 2}, {12, 1, 2}},     // last group of 1 in dimension 0
      {3, {0, 0, 0}, {20, 3, 4}, {5, 3, 3}},      // ragged in dimension 2
      {3, {0, 0, 0}, {35, 2, 2}, {16, 2, 1}},     // 16, 16 and 3 in dimension 0
      {2, {0, 0, 0}, {100, 3, 1}, {0, 0, 0}},     // the implementation's groups
      {1, {7, 0, 0}, {1000, 1, 1}, {48, 1, 1}},   // last group of 40
      {1, {0, 0, 0}, {133, 1, 1}, {12, 1, 1}},    // last group of 1
  };
  for (const Range& range : ranges) {
    auto sizes = [](const std::array<size_t, 3>& s) {
      return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
    };
    SCOPED_TRACE("dims " + std::to_string(range.dims) + ", offset " + sizes(range.offset) + ", global " +
                 sizes(range.global) + ", local " + sizes(range.local));
    const size_t items = range.global[0] * range.global[1] * range.global[2];
    Buffer<cl_uint> out(env, kFields * items + kTail, 0xDEADu);
    set_args(kernel, out.get());
    const bool null_local = range.local[0] == 0;
    ASSERT_TRUE(run_range(env, kernel, range.dims, range.global.data(), null_local ? nullptr : range.local.data(),
                          range.offset.data()));
    const std::vector<cl_uint> got = out.read();
    std::array<size_t, 3> local = range.local;
    if (null_local) {  // the sizes the implementation chose, as the first work-item saw them
      for (int d = 0; d < 3; ++d) local[d] = got[(7 * d + 6) * items];
      for (int d = 0; d < 3; ++d) ASSERT_TRUE(local[d] >= 1 && local[d] <= range.global[d]) << local[d];
    }
    std::vector<cl_uint> want(kFields * items + kTail, 0xDEADu);
    size_t item = 0;
    for (size_t z = 0; z < range.global[2]; ++z) {
      for (size_t y = 0; y < range.global[1]; ++y) {
        for (size_t x = 0; x < range.global[0]; ++x, ++item) {
          const std::array<size_t, 3> index{x, y, z};
          std::array<size_t, 3> local_id{}, group{};
          for (int d = 0; d < 3; ++d) {
            group[d] = index[d] / local[d];
            local_id[d] = index[d] % local[d];
            const size_t groups = (range.global[d] + local[d] - 1) / local[d];
            const size_t size = group[d] + 1 < groups ? local[d] : range.global[d] - group[d] * local[d];
            const size_t values[7] = {index[d] + range.offset[d], local_id[d], group[d], size, groups,
                                      range.offset[d], local[d]};
            for (int f = 0; f < 7; ++f) want[(7 * d + f) * items + item] = static_cast<cl_uint>(values[f]);
          }
          cl_uint acc = 0;
          for (cl_uint k = 0; k <= local_id[0] + local_id[1]; ++k) acc = acc * 3u + k + static_cast<cl_uint>(group[2]);
          want[21 * items + item] = acc;
        }
      }
    }
    EXPECT_TRUE(same_values(got, want)) << "element e is field e / " << items << " of item e % " << items;
  }
}

// char, short and ulong elements summed (as squares) over a range of each work-item, in
// wide accumulators and in ones of the element's own type that wrap.
TEST_P(HostVectorization, NarrowAndWideIntegersInLoops) {
  BuiltProgram program(env, R"(
    kernel void sums(global const char* c, global const short* s, global const ulong* u, global int* c_sum,
                     global char* c_wrap, global int* s_sum, global short* s_wrap, global ulong* u_sum) {
      int gid = (int)get_global_id(0);
      int start = gid % 11, count = gid % 9;
      int cs = 0, ss = 0;
      char cw = 0;
      short sw = 0;
      ulong us = 0;
      for (int k = start; k < start + count; ++k) {
        cs += c[k] * c[k];
        cw += c[k] * c[k];
        ss += s[k] * s[k];
        sw += s[k] * s[k];
        us += u[k] * u[k];
      }
      c_sum[gid] = cs;
      c_wrap[gid] = cw;
      s_sum[gid] = ss;
      s_wrap[gid] = sw;
      u_sum[gid] = us;
    })");
  cl_kernel kernel = program.kernel("sums");
  ASSERT_NE(kernel, nullptr);
  std::vector<cl_char> c(20);
  std::vector<cl_short> s(20);
  std::vector<cl_ulong> u(20);
  for (size_t k = 0; k < 20; ++k) {
    c[k] = static_cast<cl_char>(k * 29 - 128);
    s[k] = static_cast<cl_short>(static_cast<int>(k * 1237) % 20001 - 10000);  // squares sum within an int
    u[k] = 0x9E3779B97F4A7C15ull * (k + 1);
  }
  Buffer<cl_char> cs_in(env, c);
  Buffer<cl_short> ss_in(env, s);
  Buffer<cl_ulong> us_in(env, u);
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<int> c_sum(env, count + kTail, -1), s_sum(env, count + kTail, -1);
    Buffer<cl_char> c_wrap(env, count + kTail, -1);
    Buffer<cl_short> s_wrap(env, count + kTail, -1);
    Buffer<cl_ulong> u_sum(env, count + kTail, 1u);
    set_args(kernel, cs_in.get(), ss_in.get(), us_in.get(), c_sum.get(), c_wrap.get(), s_sum.get(), s_wrap.get(),
             u_sum.get());
    ASSERT_TRUE(run(env, kernel, range));
    // Sums over k in [g % 11, g % 11 + g % 9) of f(k).
    auto sum = [](size_t g, auto f) {
      decltype(f(0)) total = 0;
      for (size_t k = g % 11; k < g % 11 + g % 9; ++k) total = static_cast<decltype(total)>(total + f(k));
      return total;
    };
    EXPECT_TRUE(same_values(c_sum.read(), expected<int>(count, -1, [&](size_t g) {
      return sum(g, [&](size_t k) { return c[k] * c[k]; });
    })));
    EXPECT_TRUE(same_values(c_wrap.read(), expected<cl_char>(count, -1, [&](size_t g) {
      return sum(g, [&](size_t k) { return static_cast<cl_char>(c[k] * c[k]); });
    })));
    EXPECT_TRUE(same_values(s_sum.read(), expected<int>(count, -1, [&](size_t g) {
      return sum(g, [&](size_t k) { return s[k] * s[k]; });
    })));
    EXPECT_TRUE(same_values(s_wrap.read(), expected<cl_short>(count, -1, [&](size_t g) {
      return sum(g, [&](size_t k) { return static_cast<cl_short>(s[k] * s[k]); });
    })));
    EXPECT_TRUE(same_values(u_sum.read(), expected<cl_ulong>(count, 1u, [&](size_t g) {
      return sum(g, [&](size_t k) { return u[k] * u[k]; });
    })));
  }
}

// select (scalar and by the sign bit of vector elements), min, max, clamp, abs, abs_diff,
// rotate, popcount and clz of int, ulong, uchar and short on values of each work-item.
TEST_P(HostVectorization, IntegerBuiltinsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void builtins(global const int* a, global const int* b, global int* out, global ulong* wide, int n) {
      int i = (int)get_global_id(0);
      int x = a[i], y = b[i];
      out[0 * n + i] = select(x, y, x > y);
      out[1 * n + i] = min(x, y);
      out[2 * n + i] = max(x, y);
      out[3 * n + i] = clamp(x, -1000, i);
      out[4 * n + i] = (int)abs(x);
      out[5 * n + i] = (int)abs_diff(x, y);
      out[6 * n + i] = rotate(x, y);
      out[7 * n + i] = popcount(x);
      out[8 * n + i] = clz(x);
      int4 w = select((int4)(1, 2, 3, 4), (int4)(-1, -2, -3, -4), (int4)(x, y, x ^ y, i - 500));
      out[9 * n + i] = w.x + 10 * w.y + 100 * w.z + 1000 * w.w;
      out[10 * n + i] = rotate((uchar)x, (uchar)y);
      out[11 * n + i] = clz((short)x);
      ulong l = ((ulong)(uint)x << 32) | (uint)y;
      wide[3 * i] = clz(l);
      wide[3 * i + 1] = popcount(l);
      wide[3 * i + 2] = rotate(l, (ulong)(i * 3));
    })");
  cl_kernel kernel = program.kernel("builtins");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kOutputs = 12;
  for (const Range1d& range : kRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    std::vector<int> a = random_ints(count, INT_MIN, INT_MAX, 9), b = random_ints(count, INT_MIN, INT_MAX, 10);
    const int edges[] = {0, -1, 1, INT_MIN, INT_MAX, 31, 32, 33, -32, 255, 256, 0x10000};
    for (size_t i = 0; i < count; ++i) {
      if (i % 3 == 1) a[i] = edges[(i / 3) % std::size(edges)];
      if (i % 5 == 2) b[i] = edges[(i / 5) % std::size(edges)];
      if (i % 7 == 3) b[i] = a[i];
    }
    Buffer<int> as(env, a), bs(env, b), out(env, kOutputs * count + kTail, -1);
    Buffer<cl_ulong> wide(env, 3 * count + kTail, 1u);
    set_args(kernel, as.get(), bs.get(), out.get(), wide.get(), static_cast<cl_int>(count));
    ASSERT_TRUE(run(env, kernel, range));
    EXPECT_TRUE(same_values(out.read(), expected<int>(kOutputs * count, -1, [&](size_t e) {
      const size_t i = e % count;
      const int x = a[i], y = b[i];
      const cl_uint ux = static_cast<cl_uint>(x);
      switch (e / count) {
        case 0: return x > y ? y : x;
        case 1: return std::min(x, y);
        case 2: return std::max(x, y);
        case 3: return std::clamp(x, -1000, static_cast<int>(i));
        case 4: return static_cast<int>(x < 0 ? 0u - ux : ux);
        case 5: return static_cast<int>(static_cast<cl_uint>(std::llabs(static_cast<long long>(x) - y)));
        case 6: return static_cast<int>(std::rotl(ux, static_cast<int>(static_cast<cl_uint>(y) & 31)));
        case 7: return std::popcount(ux);
        case 8: return std::countl_zero(ux);
        case 9: {
          const int c[4] = {x, y, x ^ y, static_cast<int>(i) - 500};
          int total = 0;
          for (int k = 0, scale = 1; k < 4; ++k, scale *= 10) total += scale * (c[k] < 0 ? -(k + 1) : k + 1);
          return total;
        }
        case 10: return static_cast<int>(std::rotl(static_cast<cl_uchar>(x), static_cast<cl_uchar>(y) & 7));
        default: return std::countl_zero(static_cast<cl_ushort>(x));
      }
    })));
    EXPECT_TRUE(same_values(wide.read(), expected<cl_ulong>(3 * count, 1u, [&](size_t e) {
      const size_t i = e / 3;
      const cl_ulong l = static_cast<cl_ulong>(static_cast<cl_uint>(a[i])) << 32 | static_cast<cl_uint>(b[i]);
      if (e % 3 == 0) return static_cast<cl_ulong>(std::countl_zero(l));
      if (e % 3 == 1) return static_cast<cl_ulong>(std::popcount(l));
      return std::rotl(l, static_cast<int>((i * 3) & 63));
    })));
  }
}

// ---------------------------------------------------------------- local memory

// Without barriers each work-item writes, updates and reads back its own slot of a __local
// array (one declared in the kernel, one passed as an argument).
TEST_P(HostVectorization, LocalMemorySlotsOfEachWorkItem) {
  BuiltProgram program(env, R"(
    kernel void own_slots(global int* out, global int* sums, global int* ids, local int* dynamic) {
      local int fixed[1024];
      int l = (int)get_local_id(0), gid = (int)get_global_id(0);
      fixed[l] = gid * 3;
      dynamic[l] = gid ^ 0x5a;
      fixed[l] += dynamic[l];
      dynamic[l] = fixed[l] - l;
      out[gid] = dynamic[l];
      int s = 0;
      for (int k = 0; k < gid % 6; ++k) {
        fixed[l] += k;
        s += fixed[l];
      }
      sums[gid] = s;
      ids[gid] = l;
    })");
  cl_kernel kernel = program.kernel("own_slots");
  ASSERT_NE(kernel, nullptr);
  for (const Range1d& range : kRanges) {  // every group has at most 1000 work-items
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    Buffer<int> out(env, count + kTail, -1), sums(env, count + kTail, -1), ids(env, count + kTail, -1);
    set_args(kernel, out.get(), sums.get(), ids.get());
    ASSERT_EQ(clSetKernelArg(kernel, 3, count * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run(env, kernel, range));
    std::vector<int> local_ids = ids.read();
    if (range.local) {
      EXPECT_TRUE(same_values(local_ids, expected<int>(count, -1, [&](size_t g) { return int(g % range.local); })));
    }
    auto fixed_value = [&](size_t g) { return static_cast<int>(g) * 3 + (static_cast<int>(g) ^ 0x5a); };
    EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t g) {
      return fixed_value(g) - local_ids[g];
    })));
    EXPECT_TRUE(same_values(sums.read(), expected<int>(count, -1, [&](size_t g) {
      int f = fixed_value(g), s = 0;
      for (int k = 0; k < static_cast<int>(g % 6); ++k) s += f += k;
      return s;
    })));
  }
}

// A barrier (the host runs such kernels differently): each group reverses its part of the
// input through local memory, then sums a few of its neighbours' slots; uniform and
// non-uniform groups (OpenCL C 3.0).
TEST_P(HostVectorization, LocalReversalAcrossABarrier) {
  BuiltProgram program(env, R"(
    kernel void reverse(global const int* in, global int* out, global int* sums, global int* sizes, local int* tmp) {
      int l = (int)get_local_id(0), n = (int)get_local_size(0), gid = (int)get_global_id(0);
      tmp[l] = in[gid];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[gid] = tmp[n - 1 - l];
      int s = 0;
      for (int k = 0; k < l % 4; ++k) s += tmp[(l + k + 1) % n];
      sums[gid] = s;
      sizes[gid] = (int)get_enqueued_local_size(0);
    })", "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("reverse");
  ASSERT_NE(kernel, nullptr);
  std::vector<Range1d> ranges(std::begin(kRanges), std::end(kRanges));
  ranges.insert(ranges.end(), {{1000, 48}, {37, 16}, {133, 12}});  // last groups of 40, 5, 1
  for (const Range1d& range : ranges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global;
    const std::vector<int> in = random_ints(count, -100000, 100000, 11);
    Buffer<int> input(env, in), out(env, count + kTail, -1), sums(env, count + kTail, -1),
        sizes(env, count + kTail, -1);
    set_args(kernel, input.get(), out.get(), sums.get(), sizes.get());
    ASSERT_EQ(clSetKernelArg(kernel, 4, count * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run(env, kernel, range));
    const std::vector<int> got_sizes = sizes.read();
    const size_t local = range.local ? range.local : static_cast<size_t>(got_sizes[0]);
    ASSERT_TRUE(local >= 1 && local <= count) << local;
    EXPECT_TRUE(same_values(got_sizes, expected<int>(count, -1, [&](size_t) { return static_cast<int>(local); })));
    auto group_start = [&](size_t g) { return g / local * local; };
    auto group_size = [&](size_t g) { return std::min(local, count - group_start(g)); };
    EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t g) {
      const size_t start = group_start(g), l = g - start;
      return in[start + group_size(g) - 1 - l];
    })));
    EXPECT_TRUE(same_values(sums.read(), expected<int>(count, -1, [&](size_t g) {
      const size_t start = group_start(g), l = g - start, n = group_size(g);
      int s = 0;
      for (size_t k = 0; k < l % 4; ++k) s += in[start + (l + k + 1) % n];
      return s;
    })));
  }
}

// Tiles of a 64 x 2 group (the shape of CLBlast's GEMM): remainders and quotients of the
// flat local id by powers of two, by 24 and by the tile, masks and shifts of it, local and
// global indices built from them on both sides of a barrier, and values that take one of
// two such indices by a branch every work-item of the group takes alike.
TEST_P(HostVectorization, TiledIndicesOfLocalIds) {
  BuiltProgram program(env, R"(
    kernel __attribute__((reqd_work_group_size(64, 2, 1)))
    void tiles(global const int* in, global int* out, global int* parts, int flip) {
      local int tile[128];
      int tid = (int)get_local_id(0) + 64 * (int)get_local_id(1);
      int group = (int)(get_group_id(0) + get_num_groups(0) * get_group_id(1));
      int base = group * 128;
      tile[(tid / 16) * 16 + tid % 16] = in[base + (tid >> 5) * 32 + (tid & 31)];
      barrier(CLK_LOCAL_MEM_FENCE);
      int shifted = flip ? (tid % 64) + 64 * (tid / 64) : tid;
      int a = tile[tid % 24 + flip];  // int indices of unknown sign: sign-extended
      int b = tile[tid % 16 + 16 * (tid / 48) + flip] + tile[(tid >> 2) & ~3];
      int c = tile[127 - shifted];
      out[base + tid] = a * 3 + b * 5 + c * 7;
      int p = base * 4 + tid * 4;
      parts[p] = tid % 16;
      parts[p + 1] = tid / 16;
      parts[p + 2] = (tid >> 2) & ~3;
      parts[p + 3] = (long)(tid % 64) - 64;
    })", "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("tiles");
  ASSERT_NE(kernel, nullptr);
  const std::array<size_t, 2> globals[] = {{64, 2}, {128, 4}, {320, 6}};
  for (const auto& global : globals) {
    for (cl_int flip : {0, 1}) {
      SCOPED_TRACE(std::to_string(global[0]) + " x " + std::to_string(global[1]) + ", flip " + std::to_string(flip));
      const size_t count = global[0] * global[1];
      const std::vector<int> in = random_ints(count, -100000, 100000, 21);
      Buffer<int> input(env, in), out(env, count + kTail, -1), parts(env, 4 * count + kTail, -1);
      set_args(kernel, input.get(), out.get(), parts.get(), flip);
      const size_t local[2] = {64, 2};
      ASSERT_TRUE(run_range(env, kernel, 2, global.data(), local, nullptr));
      // Work-item (x, y) of group (gx, gy) has tid = x + 64 y and reads its group's 128 ints.
      auto group_base = [&](size_t g) { return g / 128 * 128; };
      EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t g) {
        const size_t tid = g % 128;
        const int* tile = &in[group_base(g)];
        const int b = tile[tid % 16 + 16 * (tid / 48) + flip] + tile[(tid >> 2) & ~size_t{3}];
        return tile[tid % 24 + flip] * 3 + b * 5 + tile[127 - tid] * 7;
      })));
      EXPECT_TRUE(same_values(parts.read(), expected<int>(4 * count, -1, [&](size_t e) {
        const int tid = static_cast<int>(e / 4 % 128);
        const int part[4] = {tid % 16, tid / 16, (tid >> 2) & ~3, tid % 64 - 64};
        return part[e % 4];
      })));
    }
  }
}

// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE on the host device is the width of the kernel's
// vector form (groups of whole vectors run no work-item alone), and the device's for a kernel
// without one: when the vectoriser is off, or for a kernel it leaves scalar.
TEST_P(HostVectorization, PreferredMultipleIsTheVectorWidth) {
  cl_device_type type = 0;
  ASSERT_EQ(clGetDeviceInfo(GetParam(), CL_DEVICE_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  if (!(type & CL_DEVICE_TYPE_CPU)) GTEST_SKIP() << "the host device's code generation";
  BuiltProgram program(env, R"(
    kernel void saxpy(global float* y, global const float* x, float a) {
      size_t i = get_global_id(0);
      y[i] = a * x[i] + y[i];
    }
    kernel void private_table(global int* out, int n) {
      int table[64];
      for (int k = 0; k < n; ++k) table[k & 63] = k * (int)get_global_id(0);
      out[get_global_id(0)] = table[get_global_id(0) & 63];
    })");
  auto multiple = [&](const char* name) {
    size_t value = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(program.kernel(name), GetParam(), CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof value, &value, nullptr),
              CL_SUCCESS);
    return value;
  };
  size_t device_multiple = 0;
  ASSERT_EQ(clGetDeviceInfo(GetParam(), CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof device_multiple,
                            &device_multiple, nullptr),
            CL_SUCCESS);
  const char* setting = std::getenv("CUCL_HOST_VECTORIZE");
  const bool vectorizing = !setting || std::string(setting) != "0";
  const size_t saxpy = multiple("saxpy");
  if (vectorizing) {
    EXPECT_GE(saxpy, 4u);
    EXPECT_EQ(saxpy & (saxpy - 1), 0u) << saxpy << " is not a power of two";
  } else {
    EXPECT_EQ(saxpy, device_multiple);
  }
  EXPECT_EQ(multiple("private_table"), device_multiple);  // private memory keeps it scalar
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HostVectorization, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
