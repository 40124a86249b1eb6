// Kernels with barriers, which the host device splits into regions between them (each run
// over the work-group as a loop of its work-items, vectorised where it can be; the values a
// work-item carries past a barrier kept per work-item or per row of the group) and, with
// CUCL_HOST_VECTORIZE=0, runs as fibers. The shapes are those a region splitter could
// miscompile: barriers in loops of uniform trip count and under uniform branches, divergent
// code and loops of each work-item's trip count between barriers, values of every type and
// of every kind of uniformity (per work-item, per row, joined from divergent branches) live
// across barriers, 2D groups whose rows differ, groups that are and are not multiples of the
// vector width, tiled matrix multiplication, many live values, and work-items that return
// before a barrier the others reach. Every result is checked exactly against a reference
// computed here. The file is built twice (tests/CMakeLists.txt), like
// test_host_vectorization.cpp. Every device runs them but the last, which is the host's
// own behaviour.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "support/range_checks.h"

using namespace cucl_test;

namespace {

class HostBarrierRegions : public DeviceTest {};

// Group sizes of one work-item, below, at and between vector widths (8, 16, 32), and large.
constexpr Range1d kReductionRanges[] = {{4096, 1},  {4096, 2},   {4096, 16},  {4096, 32},
                                        {4096, 64}, {4096, 256}, {4096, 1024}, {96, 32}};

// The classic two-barrier tree reduction through local memory; each work-item's input lives
// across every barrier of the loop.
TEST_P(HostBarrierRegions, TreeReductionsOfEveryGroupSize) {
  BuiltProgram program(env, R"(
    kernel void tree(global const int* in, global int* sums, global int* copies, local int* tmp) {
      int l = (int)get_local_id(0), n = (int)get_local_size(0);
      int v = in[get_global_id(0)];
      tmp[l] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int s = n / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) sums[get_group_id(0)] = tmp[0];
      copies[get_global_id(0)] = v * 3 + tmp[0];
    })");
  cl_kernel kernel = program.kernel("tree");
  ASSERT_NE(kernel, nullptr);
  for (const Range1d& range : kReductionRanges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global, groups = count / range.local;
    const std::vector<int> in = random_ints(count, -1000, 1000, 5);
    Buffer<int> input(env, in), sums(env, groups + kTail, -1), copies(env, count + kTail, -1);
    set_args(kernel, input.get(), sums.get(), copies.get());
    ASSERT_EQ(clSetKernelArg(kernel, 3, range.local * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run(env, kernel, range));
    std::vector<int> group_sums(groups);
    for (size_t g = 0; g < groups; ++g) {
      group_sums[g] = std::accumulate(in.begin() + g * range.local, in.begin() + (g + 1) * range.local, 0);
    }
    EXPECT_TRUE(same_values(sums.read(), expected<int>(groups, -1, [&](size_t g) { return group_sums[g]; })));
    EXPECT_TRUE(same_values(copies.read(), expected<int>(count, -1, [&](size_t i) {
      return in[i] * 3 + group_sums[i / range.local];
    })));
  }
}

// Values of every type live across a barrier in 2D groups: narrow and wide integers, a
// float4, a boolean, a pointer chosen by each work-item, a value joined from branches that
// differ by work-item, and one that is the same along a row but differs between rows.
TEST_P(HostBarrierRegions, ValuesOfEveryKindLiveAcrossABarrier) {
  BuiltProgram program(env, R"(
    kernel void keep(global const int* in, global int* out, global float4* vectors, local int* tmp) {
      size_t w = get_global_size(0), i = get_global_id(1) * w + get_global_id(0);
      int lx = (int)get_local_id(0), ly = (int)get_local_id(1), nx = (int)get_local_size(0);
      int v = in[i];
      char c = (char)(v * 3);
      short sh = (short)(v ^ 0x1234);
      long big = (long)v * 1000003L;
      float f = (float)v * 0.5f;
      float4 q = (float4)(f, f + 1.0f, (float)lx, (float)ly);
      bool odd = (v & 1) != 0;
      global const int* source = odd ? in : in + 1;
      int joined;
      if (lx % 3 == 0) joined = v * 7; else joined = -v;
      int row_value = ly * 100 + (int)get_group_id(0) * 10 + (int)get_group_id(1);
      tmp[ly * nx + lx] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      int neighbour = tmp[ly * nx + (lx + 1) % nx];
      global int* o = out + i * 8;
      o[0] = c;
      o[1] = sh;
      o[2] = (int)(big >> 7);
      o[3] = (int)big;
      o[4] = odd ? 11 : 22;
      o[5] = joined;
      o[6] = row_value;
      o[7] = neighbour + source[i];
      vectors[i] = q * 2.0f;
    })");
  cl_kernel kernel = program.kernel("keep");
  ASSERT_NE(kernel, nullptr);
  struct Range2d {
    size_t global[2], local[2];
  };
  // Rows of fewer, exactly and more work-items than a vector; one row; one column.
  const Range2d ranges[] = {{{24, 6}, {8, 3}},   {{64, 4}, {32, 2}}, {{80, 6}, {40, 3}},
                            {{48, 1}, {48, 1}},  {{1, 12}, {1, 4}},  {{96, 8}, {16, 4}}};
  for (const Range2d& range : ranges) {
    const size_t w = range.global[0], h = range.global[1], count = w * h;
    SCOPED_TRACE("global " + std::to_string(w) + "x" + std::to_string(h) + ", local " + std::to_string(range.local[0]) +
                 "x" + std::to_string(range.local[1]));
    const std::vector<int> in = random_ints(count + 1, -100000, 100000, 9);
    Buffer<int> input(env, in), out(env, count * 8 + kTail, -1);
    Buffer<cl_float4> vectors(env, count, cl_float4{});
    set_args(kernel, input.get(), out.get(), vectors.get());
    ASSERT_EQ(clSetKernelArg(kernel, 3, range.local[0] * range.local[1] * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run_range(env, kernel, 2, range.global, range.local));
    const std::vector<int> got = out.read();
    const std::vector<cl_float4> got_vectors = vectors.read();
    size_t wrong = 0;
    for (size_t y = 0; y < h && wrong < 5; ++y) {
      for (size_t x = 0; x < w && wrong < 5; ++x) {
        const size_t i = y * w + x;
        const int v = in[i];
        const int lx = static_cast<int>(x % range.local[0]), ly = static_cast<int>(y % range.local[1]);
        const int nx = static_cast<int>(range.local[0]);
        const size_t neighbour_x = x - static_cast<size_t>(lx) + static_cast<size_t>((lx + 1) % nx);
        const bool odd = (v & 1) != 0;
        const long long big = static_cast<long long>(v) * 1000003LL;
        const int want[8] = {static_cast<signed char>(v * 3),
                             static_cast<short>(v ^ 0x1234),
                             static_cast<int>(big >> 7),
                             static_cast<int>(big),
                             odd ? 11 : 22,
                             lx % 3 == 0 ? v * 7 : -v,
                             ly * 100 + static_cast<int>(x / range.local[0]) * 10 + static_cast<int>(y / range.local[1]),
                             in[y * w + neighbour_x] + (odd ? in[i] : in[i + 1])};
        for (int k = 0; k < 8; ++k) {
          if (got[i * 8 + k] != want[k]) {
            ADD_FAILURE() << "work-item (" << x << ", " << y << ") value " << k << ": got " << got[i * 8 + k] << ", want "
                          << want[k];
            ++wrong;
          }
        }
        const float f = static_cast<float>(v) * 0.5f;
        const float want_vector[4] = {f * 2.0f, (f + 1.0f) * 2.0f, static_cast<float>(lx) * 2.0f,
                                      static_cast<float>(ly) * 2.0f};
        for (int k = 0; k < 4; ++k) {
          if (got_vectors[i].s[k] != want_vector[k]) {
            ADD_FAILURE() << "work-item (" << x << ", " << y << ") vector element " << k << ": got " << got_vectors[i].s[k]
                          << ", want " << want_vector[k];
            ++wrong;
          }
        }
      }
    }
    for (size_t k = count * 8; k < got.size(); ++k) EXPECT_EQ(got[k], -1) << "past the range, element " << k;
  }
}

// Barriers in a loop of uniform trip count with divergent code between them, under a uniform
// branch, and a loop of each work-item's own trip count after them.
TEST_P(HostBarrierRegions, BarriersInUniformLoopsAndBranches) {
  BuiltProgram program(env, R"(
    kernel void rotate(global const int* in, global int* out, int rounds, local int* tmp) {
      int l = (int)get_local_id(0), n = (int)get_local_size(0);
      int v = in[get_global_id(0)];
      for (int r = 0; r < rounds; ++r) {
        tmp[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = tmp[(l + 1) % n] + r;
        if (l % 2) v ^= r;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (n > 4) {
        tmp[l] = v * 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        v += tmp[n - 1 - l];
      }
      int s = 0;
      for (int k = 0; k < l % 5; ++k) s += k * v;
      out[get_global_id(0)] = v + s;
    })");
  cl_kernel kernel = program.kernel("rotate");
  ASSERT_NE(kernel, nullptr);
  const Range1d ranges[] = {{1000, 40}, {1000, 125}, {96, 8}, {96, 4}, {7, 1}, {256, 64}};
  for (const Range1d& range : ranges) {
    for (int rounds : {0, 1, 5}) {
      SCOPED_TRACE(describe(range) + ", " + std::to_string(rounds) + " rounds");
      const size_t count = range.global, n = range.local;
      const std::vector<int> in = random_ints(count, -50000, 50000, 21);
      Buffer<int> input(env, in), out(env, count + kTail, -1);
      set_args(kernel, input.get(), out.get(), static_cast<cl_int>(rounds));
      ASSERT_EQ(clSetKernelArg(kernel, 3, n * sizeof(cl_int), nullptr), CL_SUCCESS);
      ASSERT_TRUE(run(env, kernel, range));
      std::vector<int> want(count);
      for (size_t start = 0; start < count; start += n) {
        std::vector<int> v(in.begin() + start, in.begin() + start + n);
        for (int r = 0; r < rounds; ++r) {
          const std::vector<int> tmp = v;
          for (size_t l = 0; l < n; ++l) {
            v[l] = tmp[(l + 1) % n] + r;
            if (l % 2) v[l] ^= r;
          }
        }
        if (n > 4) {
          std::vector<int> tmp(n);
          for (size_t l = 0; l < n; ++l) tmp[l] = v[l] * 2;
          for (size_t l = 0; l < n; ++l) v[l] += tmp[n - 1 - l];
        }
        for (size_t l = 0; l < n; ++l) {
          int s = 0;
          for (int k = 0; k < static_cast<int>(l % 5); ++k) s += k * v[l];
          want[start + l] = v[l] + s;
        }
      }
      EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t i) { return want[i]; })));
    }
  }
}

// Tiled matrix multiplication through local memory (the shape of CLBlast's and every
// textbook's GEMM): a barrier after loading the tiles and one after using them, in a loop
// over the tiles. Small integers keep every float sum exact.
TEST_P(HostBarrierRegions, TiledMatrixMultiplication) {
  const char* source = R"(
    kernel void multiply(int M, int N, int K, global const float* A, global const float* B, global float* C) {
      local float As[TS][TS], Bs[TS][TS];
      int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
      int col = (int)get_global_id(0), row = (int)get_global_id(1);
      float acc = 0.0f;
      for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[row * N + col] = acc;
    })";
  for (int tile : {4, 8, 16, 32}) {
    SCOPED_TRACE("tiles of " + std::to_string(tile));
    BuiltProgram program(env, source, "-D TS=" + std::to_string(tile));
    cl_kernel kernel = program.kernel("multiply");
    ASSERT_NE(kernel, nullptr);
    const int M = 2 * tile, N = 3 * tile, K = 4 * tile;
    const std::vector<int> a_ints = random_ints(size_t(M * K), -8, 8, 31), b_ints = random_ints(size_t(K * N), -8, 8, 32);
    const std::vector<float> a(a_ints.begin(), a_ints.end()), b(b_ints.begin(), b_ints.end());
    Buffer<float> A(env, a), B(env, b), C(env, size_t(M * N) + kTail, -1.0f);
    set_args(kernel, cl_int(M), cl_int(N), cl_int(K), A.get(), B.get(), C.get());
    const size_t global[2] = {size_t(N), size_t(M)}, local[2] = {size_t(tile), size_t(tile)};
    ASSERT_TRUE(run_range(env, kernel, 2, global, local));
    EXPECT_TRUE(same_values(C.read(), expected<float>(size_t(M * N), -1.0f, [&](size_t i) {
      const int row = int(i) / N, col = int(i) % N;
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) sum += a[size_t(row * K + k)] * b[size_t(k * N + col)];
      return sum;
    })));
  }
}

// Sixteen values of each work-item (a private array that is all registers once unrolled)
// and a running sum live across two barriers in groups of up to 256.
TEST_P(HostBarrierRegions, ManyValuesLiveAcrossBarriers) {
  BuiltProgram program(env, R"(
    kernel void many(global const int* in, global int* out, local int* tmp) {
      int l = (int)get_local_id(0), n = (int)get_local_size(0), g = (int)get_global_id(0);
      int x = in[g];
      int v[16];
      for (int k = 0; k < 16; ++k) v[k] = x * (k + 1) + k;
      tmp[l] = x;
      barrier(CLK_LOCAL_MEM_FENCE);
      int sum = 0;
      for (int k = 0; k < 16; ++k) sum += v[k] * tmp[(l + k) % n];
      barrier(CLK_LOCAL_MEM_FENCE);
      tmp[l] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = sum + tmp[(l + 1) % n] + v[15];
    })");
  cl_kernel kernel = program.kernel("many");
  ASSERT_NE(kernel, nullptr);
  const Range1d ranges[] = {{1024, 256}, {1000, 40}, {96, 3}};
  for (const Range1d& range : ranges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global, n = range.local;
    const std::vector<int> in = random_ints(count, -300, 300, 41);
    Buffer<int> input(env, in), out(env, count + kTail, -1);
    set_args(kernel, input.get(), out.get());
    ASSERT_EQ(clSetKernelArg(kernel, 2, n * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run(env, kernel, range));
    auto sum_of = [&](size_t i) {
      const size_t start = i / n * n, l = i - start;
      int sum = 0;
      for (int k = 0; k < 16; ++k) sum += (in[i] * (k + 1) + k) * in[start + (l + size_t(k)) % n];
      return sum;
    };
    EXPECT_TRUE(same_values(out.read(), expected<int>(count, -1, [&](size_t i) {
      const size_t start = i / n * n, l = i - start;
      return sum_of(i) + sum_of(start + (l + 1) % n) + in[i] * 16 + 15;
    })));
  }
}

// Half of each group returns before the barrier that the other half then passes. The
// specification leaves such kernels undefined; the host device runs the rest of the group
// on (as GPUs do, whose exited threads no longer count at a barrier), and above all neither
// hangs nor crashes.
TEST_P(HostBarrierRegions, WorkItemsThatReturnBeforeABarrierDoNotStopTheRest) {
  cl_device_type type = 0;
  ASSERT_EQ(clGetDeviceInfo(GetParam(), CL_DEVICE_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  if (!(type & CL_DEVICE_TYPE_CPU)) GTEST_SKIP() << "undefined behaviour; this is the host device's own";
  BuiltProgram program(env, R"(
    kernel void early(global int* out, local int* tmp) {
      int l = (int)get_local_id(0), n = (int)get_local_size(0);
      tmp[l] = l * 3;
      if (l >= n / 2) {
        out[get_global_id(0)] = -l;
        return;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tmp[n - 1 - l] + 1;
    })");
  cl_kernel kernel = program.kernel("early");
  ASSERT_NE(kernel, nullptr);
  const Range1d ranges[] = {{1024, 64}, {1000, 40}, {96, 96}};
  for (const Range1d& range : ranges) {
    SCOPED_TRACE(describe(range));
    const size_t count = range.global, n = range.local;
    Buffer<int> out(env, count + kTail, -7);
    set_args(kernel, out.get());
    ASSERT_EQ(clSetKernelArg(kernel, 1, n * sizeof(cl_int), nullptr), CL_SUCCESS);
    ASSERT_TRUE(run(env, kernel, range));
    EXPECT_TRUE(same_values(out.read(), expected<int>(count, -7, [&](size_t i) {
      const int l = int(i % n), size = int(n);
      return l >= size / 2 ? -l : (size - 1 - l) * 3 + 1;
    })));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HostBarrierRegions, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
