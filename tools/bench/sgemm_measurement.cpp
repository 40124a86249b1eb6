// The sgemm row: C = A * B (n x n, row-major, float) with one fixed kernel of the shape
// CLBlast's xgemm has (a 128 x 128 tile of C per work-group of 16 x 16 work-items, each
// work-item 8 x 8 results in registers, A and B staged through local memory 16 deep, float4
// loads). Every device builds the same source, so the row compares compilers and devices
// on one kernel; it is checked against the host before its time counts.
#include "measurements.h"

#include <cstdint>
#include <vector>

namespace bench {
namespace {

const char* kSgemmSource = R"CLC(
#define TS 128
#define TK 16
#define WPT 8
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm(const int n, __global const float* a, __global const float* b, __global float* c) {
  __local float as[TK][TS + 4];  // the A tile, transposed: as[k][row]
  __local float bs[TK][TS + 4];  // the B tile: bs[k][column]
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * 16 + tx;
  const int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TS;
  float acc[WPT][WPT];
  #pragma unroll
  for (int i = 0; i < WPT; ++i) {
    #pragma unroll
    for (int j = 0; j < WPT; ++j) acc[i][j] = 0.0f;
  }
  for (int k0 = 0; k0 < n; k0 += TK) {
    #pragma unroll
    for (int l = 0; l < 2; ++l) {
      const int index = tid + l * 256;
      const int r = index / (TK / 4), q = index % (TK / 4);
      const float4 v = vload4(0, a + (size_t)(row0 + r) * n + k0 + q * 4);
      as[q * 4 + 0][r] = v.x;
      as[q * 4 + 1][r] = v.y;
      as[q * 4 + 2][r] = v.z;
      as[q * 4 + 3][r] = v.w;
    }
    #pragma unroll
    for (int l = 0; l < 2; ++l) {
      const int index = tid + l * 256;
      const int r = index / (TS / 4), q = index % (TS / 4);
      vstore4(vload4(0, b + (size_t)(k0 + r) * n + col0 + q * 4), 0, &bs[r][q * 4]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int k = 0; k < TK; ++k) {
      float ra[WPT], rb[WPT];
      #pragma unroll
      for (int i = 0; i < WPT; ++i) ra[i] = as[k][ty + 16 * i];
      #pragma unroll
      for (int j = 0; j < WPT; ++j) rb[j] = bs[k][tx + 16 * j];
      #pragma unroll
      for (int i = 0; i < WPT; ++i) {
        #pragma unroll
        for (int j = 0; j < WPT; ++j) acc[i][j] = mad(ra[i], rb[j], acc[i][j]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  #pragma unroll
  for (int i = 0; i < WPT; ++i) {
    #pragma unroll
    for (int j = 0; j < WPT; ++j) c[(size_t)(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
  }
}
)CLC";

constexpr std::size_t kTile = 128;

// Small integers over 8: every product and partial sum is exact in float, so the device's
// result must equal the host's whatever the order of the additions.
float element(std::size_t index, std::size_t seed) {
  return static_cast<float>(static_cast<int>((index * 7 + seed * 13) % 17) - 8) / 8.0f;
}

// The largest n (a multiple of the tile, at most 4096, 1024 on CPUs) whose three matrices fit
// the bandwidth rows' buffer budget.
std::size_t matrix_order(const Session& session, const Settings& settings) {
  const bool cpu = device_value<cl_device_type>(session.device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU;
  std::size_t n = cpu ? 1024 : 4096;
  while (n > kTile && 3 * n * n * sizeof(float) > settings.max_buffer_bytes) n /= 2;
  return n;
}

}  // namespace

Cell measure_sgemm(const Session& session, const Settings& settings) {
  const std::size_t n = matrix_order(session, settings);
  std::vector<float> a(n * n), b(n * n);
  for (std::size_t i = 0; i < n * n; ++i) {
    a[i] = element(i, 1);
    b[i] = element(i, 2);
  }
  cl_int status = CL_SUCCESS;
  auto matrix = [&](cl_mem_flags flags, std::vector<float>* data) {
    Buffer buffer(clCreateBuffer(session.context(), flags | (data ? CL_MEM_COPY_HOST_PTR : 0), n * n * sizeof(float),
                                 data ? data->data() : nullptr, &status));
    check(status, "clCreateBuffer");
    return buffer;
  };
  Buffer a_buffer = matrix(CL_MEM_READ_ONLY, &a), b_buffer = matrix(CL_MEM_READ_ONLY, &b);
  Buffer c_buffer = matrix(CL_MEM_WRITE_ONLY, nullptr);

  Program program = build_program(session, kSgemmSource);
  Kernel kernel = create_kernel(program.get(), "sgemm");
  const cl_int order = static_cast<cl_int>(n);
  cl_mem a_mem = a_buffer.get(), b_mem = b_buffer.get(), c_mem = c_buffer.get();
  BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof order, &order));
  BENCH_CL(clSetKernelArg(kernel.get(), 1, sizeof a_mem, &a_mem));
  BENCH_CL(clSetKernelArg(kernel.get(), 2, sizeof b_mem, &b_mem));
  BENCH_CL(clSetKernelArg(kernel.get(), 3, sizeof c_mem, &c_mem));
  const std::size_t global[2] = {n / kTile * 16, n / kTile * 16}, local[2] = {16, 16};
  cl_command_queue queue = session.queue();
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(queue, kernel.get(), 2, nullptr, global, local, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });

  std::vector<float> c(n * n);
  BENCH_CL(clEnqueueReadBuffer(queue, c_mem, CL_TRUE, 0, c.size() * sizeof(float), c.data(), 0, nullptr, nullptr));
  for (std::size_t probe = 0; probe < 64; ++probe) {
    const std::size_t row = (probe * 2654435761u) % n, column = (probe * 40503u + 17) % n;
    double expected = 0;
    for (std::size_t k = 0; k < n; ++k) expected += double{a[row * n + k]} * double{b[k * n + column]};
    if (c[row * n + column] != static_cast<float>(expected)) return {std::nullopt, "wrong result"};
  }
  return {2.0 * static_cast<double>(n) * n * n / seconds / 1e9, ""};
}

}  // namespace bench
