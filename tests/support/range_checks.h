// Helpers of the tests that run kernels over one-dimensional ranges and hold every output
// element, and the elements past the range, to a reference computed on the host
// (test_host_vectorization.cpp, test_host_barrier_regions.cpp).
#pragma once

#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/builtin_reference.h"

namespace cucl_test {

// A one-dimensional range; local 0 passes NULL (the implementation picks the groups).
struct Range1d {
  size_t global, local;
};

inline std::string describe(const Range1d& range) {
  return "global " + std::to_string(range.global) + ", local " +
         (range.local ? std::to_string(range.local) : std::string("NULL"));
}

// Output elements past the range (filled, and checked to keep their fill).
constexpr size_t kTail = 19;

// Runs `kernel` over a range and waits; false (with a test failure) where either call fails.
[[nodiscard]] inline bool run_range(const Env& env, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
                             const size_t* offset = nullptr) {
  const cl_int enqueued = clEnqueueNDRangeKernel(env.queue, kernel, dims, offset, global, local, 0, nullptr, nullptr);
  EXPECT_EQ(enqueued, CL_SUCCESS);
  const cl_int finished = clFinish(env.queue);
  EXPECT_EQ(finished, CL_SUCCESS);
  return enqueued == CL_SUCCESS && finished == CL_SUCCESS;
}

[[nodiscard]] inline bool run(const Env& env, cl_kernel kernel, const Range1d& range, size_t offset = 0) {
  return run_range(env, kernel, 1, &range.global, range.local ? &range.local : nullptr, offset ? &offset : nullptr);
}

// A read-write buffer of T made from host values, read back whole.
template <class T>
class Buffer {
 public:
  Buffer(const Env& env, const std::vector<T>& initial)
      : env_(env), count_(initial.size()), memory_(env.context, initial.size() * sizeof(T), initial.data()) {}
  Buffer(const Env& env, size_t count, T fill) : Buffer(env, std::vector<T>(count, fill)) {}
  cl_mem get() const { return memory_.get(); }
  std::vector<T> read() const { return read_buffer<T>(env_.queue, memory_.get(), count_); }

 private:
  const Env& env_;
  size_t count_;
  DeviceBuffer memory_;
};

// Equal element for element (floats bit for bit, any NaN for a NaN); names the first few
// elements that differ and how many do.
template <class T>
::testing::AssertionResult same_values(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, want " << want.size();
  }
  size_t wrong = 0;
  std::ostringstream detail;
  for (size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (builtin::same_value(got[i], want[i])) continue;
    } else if (got[i] == want[i]) {
      continue;
    }
    if (wrong++ < 6) detail << "\n  [" << i << "] got " << builtin::hex(got[i]) << ", want " << builtin::hex(want[i]);
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << " of " << got.size() << " values differ:" << detail.str();
}

// `count` values of the range's length followed by kTail copies of `fill`, made by `f(i)`.
template <class T, class F>
std::vector<T> expected(size_t count, T fill, F f) {
  std::vector<T> values(count + kTail, fill);
  for (size_t i = 0; i < count; ++i) values[i] = f(i);
  return values;
}

// Deterministic inputs.
inline std::vector<int> random_ints(size_t count, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> values(count);
  for (int& v : values) v = d(rng);
  return values;
}

}  // namespace cucl_test
