// The collective and integer dot product rows: work_group_reduce_add over 256-item groups and
// sub_group_reduce_add, each beside the same reduction written by hand from sub-group
// shuffles (and __local memory across sub-groups), and int8 dot products (dot on char4)
// beside the same multiply-adds written on scalars. Each work-item reduces (or multiplies)
// values it keeps in registers, in a loop, so the rows time the operations themselves,
// not memory. A device without the feature (OpenCL C 3.0's collectives, sub-groups,
// cl_khr_integer_dot_product) gets a note instead of a value.
#include "measurements.h"

#include <optional>
#include <string>
#include <vector>

namespace bench {
namespace {

constexpr int kRounds = 64;          // reductions per work-item
constexpr int kDotRounds = 256;      // dot products per chain
constexpr int kDotChains = 8;        // independent chains per work-item
constexpr size_t kGroup = 256;

const char* kReductionSource = R"CLC(
#define ROUNDS 64
// Each round reduces a value of every work-item; the result feeds the next round.
__kernel void work_group_builtin(__global int* out) {
  int v = (int)get_global_id(0);
  for (int i = 0; i < ROUNDS; ++i) v = work_group_reduce_add(v ^ i) >> 8;
  out[get_global_id(0)] = v;
}
__kernel void work_group_by_hand(__global int* out, __local int* partial) {
  const uint lane = get_sub_group_local_id(), sub_group = get_sub_group_id(), count = get_num_sub_groups();
  const uint width = get_max_sub_group_size();
  int v = (int)get_global_id(0);
  for (int i = 0; i < ROUNDS; ++i) {
    int x = v ^ i;
    for (uint d = width / 2; d > 0; d >>= 1) x += sub_group_shuffle_xor(x, d);
    if (lane == 0) partial[sub_group] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    int total = 0;
    for (uint s = 0; s < count; ++s) total += partial[s];
    barrier(CLK_LOCAL_MEM_FENCE);
    v = total >> 8;
  }
  out[get_global_id(0)] = v;
}
__kernel void sub_group_builtin(__global int* out) {
  int v = (int)get_global_id(0);
  for (int i = 0; i < ROUNDS; ++i) v = sub_group_reduce_add(v ^ i) >> 4;
  out[get_global_id(0)] = v;
}
__kernel void sub_group_by_hand(__global int* out) {
  const uint width = get_max_sub_group_size();
  int v = (int)get_global_id(0);
  for (int i = 0; i < ROUNDS; ++i) {
    int x = v ^ i;
    for (uint d = width / 2; d > 0; d >>= 1) x += sub_group_shuffle_xor(x, d);
    v = x >> 4;
  }
  out[get_global_id(0)] = v;
}
)CLC";

const char* kDotSource = R"CLC(
#define ROUNDS 256
#define CHAINS 8
// CHAINS independent chains: each step multiplies the four bytes of the chain's value by
// four constants and adds them to it.
__kernel void dot_builtin(__global int* out, int seed) {
  int acc[CHAINS];
  for (int k = 0; k < CHAINS; ++k) acc[k] = (int)get_global_id(0) + k * seed;
  const char4 b = (char4)(3, -5, 7, -9);
  for (int i = 0; i < ROUNDS; ++i) {
    for (int k = 0; k < CHAINS; ++k) acc[k] = dot(as_char4(acc[k]), b) + acc[k];
  }
  int sum = 0;
  for (int k = 0; k < CHAINS; ++k) sum += acc[k];
  out[get_global_id(0)] = sum;
}
__kernel void dot_by_hand(__global int* out, int seed) {
  int acc[CHAINS];
  for (int k = 0; k < CHAINS; ++k) acc[k] = (int)get_global_id(0) + k * seed;
  const char4 b = (char4)(3, -5, 7, -9);
  for (int i = 0; i < ROUNDS; ++i) {
    for (int k = 0; k < CHAINS; ++k) {
      const char4 a = as_char4(acc[k]);
      acc[k] = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w + acc[k];
    }
  }
  int sum = 0;
  for (int k = 0; k < CHAINS; ++k) sum += acc[k];
  out[get_global_id(0)] = sum;
}
)CLC";

// The program, or null with `note` saying why the device cannot build it.
std::optional<Program> try_build(const Session& session, const char* source, std::string& note) {
  cl_int status = CL_SUCCESS;
  cl_device_id device = session.device();
  Program program(clCreateProgramWithSource(session.context(), 1, &source, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  if (clBuildProgram(program.get(), 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
    note = "n/a (no such functions)";
    return std::nullopt;
  }
  return program;
}

// Items processed per second by `kernel` over `items` work-items in groups of `local`.
double rate(const Session& session, const Settings& settings, cl_kernel kernel, size_t items, size_t local,
            double work_per_item) {
  const double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(clEnqueueNDRangeKernel(session.queue(), kernel, 1, nullptr, &items, &local, 0, nullptr, nullptr));
    BENCH_CL(clFinish(session.queue()));
  });
  return work_per_item * static_cast<double>(items) / seconds / 1e9;
}

bool has_feature(cl_device_id device, const std::string& name) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size) != CL_SUCCESS) return false;
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr) != CL_SUCCESS) return false;
  for (const cl_name_version& feature : features) {
    if (name == feature.name) return true;
  }
  return false;
}

}  // namespace

void measure_collectives(const Session& session, cl_mem out, std::size_t bytes, const Settings& settings,
                         Cells& cells) {
  const auto units = device_value<cl_uint>(session.device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const size_t items = std::min<size_t>(bytes / sizeof(cl_int), size_t{units} * 8192) / kGroup * kGroup;
  const Row reduction_rows[] = {kWorkGroupReduce, kWorkGroupReduceByHand, kSubGroupReduce, kSubGroupReduceByHand};
  std::string note;
  const bool collectives = has_feature(session.device(), "__opencl_c_work_group_collective_functions") &&
                           has_feature(session.device(), "__opencl_c_subgroups");
  std::optional<Program> reductions;
  if (collectives) reductions = try_build(session, kReductionSource, note);
  if (!reductions) {
    for (Row row : reduction_rows) cells[row].note = note.empty() ? "n/a (no OpenCL C 3.0 collectives)" : note;
  } else {
    const char* names[] = {"work_group_builtin", "work_group_by_hand", "sub_group_builtin", "sub_group_by_hand"};
    for (int i = 0; i < 4; ++i) {
      Kernel kernel = create_kernel(reductions->get(), names[i]);
      BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof out, &out));
      if (i == 1) BENCH_CL(clSetKernelArg(kernel.get(), 1, kGroup * sizeof(cl_int), nullptr));
      cells[reduction_rows[i]].value = rate(session, settings, kernel.get(), items, kGroup, kRounds);
    }
  }

  std::optional<Program> dots;
  note.clear();
  if (has_feature(session.device(), "__opencl_c_integer_dot_product_input_4x8bit")) {
    dots = try_build(session, kDotSource, note);
  }
  if (!dots) {
    cells[kDotInt8].note = cells[kDotInt8ByHand].note = "n/a (no cl_khr_integer_dot_product)";
    return;
  }
  const cl_int seed = 12345;
  const Row dot_rows[] = {kDotInt8, kDotInt8ByHand};
  const char* names[] = {"dot_builtin", "dot_by_hand"};
  for (int i = 0; i < 2; ++i) {
    Kernel kernel = create_kernel(dots->get(), names[i]);
    BENCH_CL(clSetKernelArg(kernel.get(), 0, sizeof out, &out));
    BENCH_CL(clSetKernelArg(kernel.get(), 1, sizeof seed, &seed));
    // Four int8 multiply-adds per dot product.
    cells[dot_rows[i]].value = rate(session, settings, kernel.get(), items, kGroup, 4.0 * kDotRounds * kDotChains);
  }
}

}  // namespace bench
