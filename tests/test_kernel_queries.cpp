// clGetKernelArgInfo and clGetKernelWorkGroupInfo through the loader.
#include <algorithm>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kArgKinds = R"(
  typedef struct { int a; float b; } Pair;
  kernel void kinds(global float* restrict out, global const int* in, constant float4* table,
                    local volatile uint* scratch, unsigned int count, const float scale, Pair pair,
                    global volatile const long* flags, float4 vector) {
    out[0] = scale + table[0].x + in[0] + count + pair.b + vector.w + flags[0];
    scratch[0] = 1;
  })";

class KernelQueries : public DeviceTest {};

template <class T>
T arg_value(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param) {
  T value{};
  size_t size = 0;
  EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, sizeof value, &value, &size), CL_SUCCESS) << index;
  EXPECT_EQ(size, sizeof value);
  return value;
}

std::string arg_string(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, 0, nullptr, &size), CL_SUCCESS) << index;
  std::string value(size, '\0');
  EXPECT_EQ(clGetKernelArgInfo(kernel, index, param, size, value.data(), nullptr), CL_SUCCESS);
  return value.c_str();
}

TEST_P(KernelQueries, ArgInfoNeedsTheBuildOption) {
  BuiltProgram program(env, kArgKinds);
  cl_kernel kernel = program.kernel("kinds");
  ASSERT_NE(kernel, nullptr);
  char name[64];
  for (cl_kernel_arg_info param : {CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                   CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_NAME}) {
    EXPECT_EQ(clGetKernelArgInfo(kernel, 0, param, sizeof name, name, nullptr), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  }
  EXPECT_EQ(clGetKernelArgInfo(kernel, 9, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr), CL_INVALID_ARG_INDEX);
}

TEST_P(KernelQueries, ArgInfoDescribesEveryArgument) {
  BuiltProgram program(env, kArgKinds, "-cl-kernel-arg-info");
  cl_kernel kernel = program.kernel("kinds");
  ASSERT_NE(kernel, nullptr);
  struct Expected {
    cl_kernel_arg_address_qualifier address;
    const char* type;
    cl_kernel_arg_type_qualifier qualifiers;
    const char* name;
  };
  const Expected expected[] = {
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*", CL_KERNEL_ARG_TYPE_RESTRICT, "out"},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*", CL_KERNEL_ARG_TYPE_CONST, "in"},
      {CL_KERNEL_ARG_ADDRESS_CONSTANT, "float4*", CL_KERNEL_ARG_TYPE_CONST, "table"},
      {CL_KERNEL_ARG_ADDRESS_LOCAL, "uint*", CL_KERNEL_ARG_TYPE_VOLATILE, "scratch"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "uint", CL_KERNEL_ARG_TYPE_NONE, "count"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "float", CL_KERNEL_ARG_TYPE_NONE, "scale"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "Pair", CL_KERNEL_ARG_TYPE_NONE, "pair"},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, "long*", CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE, "flags"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "float4", CL_KERNEL_ARG_TYPE_NONE, "vector"},
  };
  for (cl_uint i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(arg_value<cl_kernel_arg_address_qualifier>(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
              expected[i].address)
        << i;
    EXPECT_EQ(arg_value<cl_kernel_arg_access_qualifier>(kernel, i, CL_KERNEL_ARG_ACCESS_QUALIFIER),
              CL_KERNEL_ARG_ACCESS_NONE)
        << i;
    EXPECT_EQ(arg_string(kernel, i, CL_KERNEL_ARG_TYPE_NAME), expected[i].type) << i;
    EXPECT_EQ(arg_value<cl_kernel_arg_type_qualifier>(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER),
              expected[i].qualifiers)
        << i;
    EXPECT_EQ(arg_string(kernel, i, CL_KERNEL_ARG_NAME), expected[i].name) << i;
  }
  char small[2];
  EXPECT_EQ(clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof small, small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(kernel, 0, 0x12345, sizeof small, small, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(kernel, 9, CL_KERNEL_ARG_NAME, sizeof small, small, nullptr), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_NAME, sizeof small, small, nullptr), CL_INVALID_KERNEL);
}

TEST_P(KernelQueries, ArgInfoOfALinkedProgramFollowsTheCompileOption) {
  Program object = source_program(env.context, kArgKinds);
  ASSERT_EQ(compile(object, env.device, "-cl-kernel-arg-info"), CL_SUCCESS);
  cl_program inputs[] = {object.get()};
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked(clLinkProgram(env.context, 1, &env.device, nullptr, 1, inputs, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  Kernel kernel = make_kernel(linked, "kinds");
  EXPECT_EQ(arg_string(kernel, 4, CL_KERNEL_ARG_NAME), "count");
}

template <class T>
T work_group_value(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param) {
  T value{};
  size_t size = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(kernel, device, param, sizeof value, &value, &size), CL_SUCCESS) << param;
  EXPECT_EQ(size, sizeof value);
  return value;
}

constexpr const char* kWorkGroupKernels = R"(
  kernel void plain(global int* out) { out[get_global_id(0)] = 1; }
  kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(global int* out) { out[0] = 1; }
  kernel void with_local(global int* out, local int* a, local double* b) {
    local int arena[64];
    local char bytes[10];
    for (size_t i = get_local_id(0); i < 64; i += get_local_size(0)) arena[i] = 1;
    for (size_t i = get_local_id(0); i < 10; i += get_local_size(0)) bytes[i] = 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[0] = arena[(get_local_id(0) + 1) % 64] + bytes[(get_local_id(0) + 1) % 10];
    b[0] = 1.0;
    out[0] = a[0] + (int)b[0];
  }
  kernel void private_array(global int* out, int n) {
    int values[256];
    for (int i = 0; i < 256; ++i) values[i] = out[i] * n;
    out[get_global_id(0)] = values[(n * 7) & 255];
  }
)";

TEST_P(KernelQueries, WorkGroupInfo) {
  BuiltProgram program(env, kWorkGroupKernels);
  cl_kernel plain = program.kernel("plain");
  cl_kernel fixed = program.kernel("fixed");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(fixed, nullptr);
  const size_t device_max = info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  for (cl_device_id device : {env.device, static_cast<cl_device_id>(nullptr)}) {  // NULL: the only device
    const size_t size = work_group_value<size_t>(plain, device, CL_KERNEL_WORK_GROUP_SIZE);
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, device_max);
    size_t compiled[3] = {9, 9, 9};
    ASSERT_EQ(clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled,
                                       nullptr),
              CL_SUCCESS);
    EXPECT_EQ(compiled[0] + compiled[1] + compiled[2], 0u);
    ASSERT_EQ(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled,
                                       nullptr),
              CL_SUCCESS);
    EXPECT_EQ(compiled[0], 4u);
    EXPECT_EQ(compiled[1], 2u);
    EXPECT_EQ(compiled[2], 1u);
    EXPECT_GE(work_group_value<size_t>(plain, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), 1u);
    work_group_value<cl_ulong>(plain, device, CL_KERNEL_PRIVATE_MEM_SIZE);
    work_group_value<cl_ulong>(plain, device, CL_KERNEL_LOCAL_MEM_SIZE);
  }
  size_t global[3];
  EXPECT_EQ(clGetKernelWorkGroupInfo(plain, env.device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(plain, env.device, 0x12345, sizeof global, global, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(plain, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(size_t), global,
                                     nullptr),
            CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.context);
  EXPECT_EQ(clGetKernelWorkGroupInfo(plain, not_a_device, CL_KERNEL_WORK_GROUP_SIZE, sizeof global, global, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(nullptr, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof global, global, nullptr),
            CL_INVALID_KERNEL);
}

TEST_P(KernelQueries, LocalMemSizeCountsVariablesAndArguments) {
  BuiltProgram program(env, kWorkGroupKernels);
  cl_kernel kernel = program.kernel("with_local");
  ASSERT_NE(kernel, nullptr);
  const cl_ulong variables = work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
  EXPECT_GE(variables, 64 * sizeof(cl_int) + 10);
  ASSERT_EQ(clSetKernelArg(kernel, 1, 100, nullptr), CL_SUCCESS);
  EXPECT_EQ(work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_LOCAL_MEM_SIZE), variables + 100);
  ASSERT_EQ(clSetKernelArg(kernel, 2, 64, nullptr), CL_SUCCESS);
  EXPECT_EQ(work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_LOCAL_MEM_SIZE), variables + 164);
  ASSERT_EQ(clSetKernelArg(kernel, 1, 8, nullptr), CL_SUCCESS);
  EXPECT_EQ(work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_LOCAL_MEM_SIZE), variables + 72);

  cl_kernel plain = program.kernel("plain");
  EXPECT_EQ(work_group_value<cl_ulong>(plain, env.device, CL_KERNEL_LOCAL_MEM_SIZE), 0u);
}

TEST_P(KernelQueries, PrivateMemSizeCoversAPrivateArray) {
  BuiltProgram program(env, kWorkGroupKernels, "-cl-opt-disable");
  cl_kernel kernel = program.kernel("private_array");
  ASSERT_NE(kernel, nullptr);
  EXPECT_GE(work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_PRIVATE_MEM_SIZE), 256 * sizeof(cl_int));
}

TEST_P(KernelQueries, TooMuchLocalMemoryFailsTheLaunch) {
  BuiltProgram program(env, kWorkGroupKernels);
  cl_kernel kernel = program.kernel("with_local");
  ASSERT_NE(kernel, nullptr);
  const cl_ulong local_size = info_value<cl_ulong>(clGetDeviceInfo, env.device, CL_DEVICE_LOCAL_MEM_SIZE);
  DeviceBuffer out(env.context, sizeof(int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, static_cast<size_t>(local_size), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, 8, nullptr), CL_SUCCESS);
  const size_t one = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
  ASSERT_EQ(clSetKernelArg(kernel, 1, 4, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 4);
}

// What the work-group queries report is what a launch accepts: a group of
// CL_KERNEL_WORK_GROUP_SIZE work-items (with a barrier and private memory), and a static
// __local array of one long16 per work-item of an eighth of the device's largest group,
// as the CTS's half suite sizes it.
TEST_P(KernelQueries, ReportedWorkGroupSizeAndLocalMemoryAreAccepted) {
  const size_t device_max = info_value<size_t>(clGetDeviceInfo, env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const size_t eighth = std::max<size_t>(1, device_max / 8);
  BuiltProgram program(env, R"(
    kernel void full_group(global int* out, int salt) {
      local int total;
      int scratch[64];
      for (int i = 0; i < 64; ++i) scratch[i] = (int)get_global_id(0) * i + salt;
      if (get_local_id(0) == 0) total = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_add(&total, 1);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = total + scratch[(salt + get_local_id(0)) & 63];
    }
    kernel void wide_local(global const long16* in, global long* out) {
      local long16 data[EIGHTH];
      size_t lid = get_local_id(0);
      data[lid] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = data[(lid + 1) % get_local_size(0)].s0 + data[lid].sf;
    })", "-DEIGHTH=" + std::to_string(eighth));
  cl_kernel full_group = program.kernel("full_group");
  cl_kernel wide_local = program.kernel("wide_local");
  ASSERT_NE(full_group, nullptr);
  ASSERT_NE(wide_local, nullptr);
  const cl_ulong device_local = info_value<cl_ulong>(clGetDeviceInfo, env.device, CL_DEVICE_LOCAL_MEM_SIZE);

  const size_t group = work_group_value<size_t>(full_group, env.device, CL_KERNEL_WORK_GROUP_SIZE);
  ASSERT_GE(group, 1u);
  EXPECT_LE(work_group_value<cl_ulong>(full_group, env.device, CL_KERNEL_LOCAL_MEM_SIZE), device_local);
  DeviceBuffer out(env.context, 2 * group * sizeof(int));
  const int salt = 5;
  set_args(full_group, out.get(), salt);
  run_1d(env.queue, full_group, 2 * group, group);
  const auto totals = read_buffer<int>(env.queue, out.get(), 2 * group);
  for (size_t i = 0; i < 2 * group; ++i) {
    ASSERT_EQ(totals[i], static_cast<int>(group) + static_cast<int>(i) * static_cast<int>((salt + i % group) & 63) + salt)
        << i;
  }

  const size_t wide_group = std::min(eighth, work_group_value<size_t>(wide_local, env.device, CL_KERNEL_WORK_GROUP_SIZE));
  const cl_ulong wide_bytes = work_group_value<cl_ulong>(wide_local, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
  EXPECT_GE(wide_bytes, eighth * 16 * sizeof(cl_long));
  ASSERT_LE(wide_bytes, device_local) << "a long16 per work-item of an eighth of the largest group does not fit";
  const size_t count = 2 * wide_group;
  std::vector<cl_long> in(16 * count);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<cl_long>(i * 3 + 1);
  DeviceBuffer input(env.context, in.size() * sizeof(cl_long), in.data()), sums(env.context, count * sizeof(cl_long));
  set_args(wide_local, input.get(), sums.get());
  run_1d(env.queue, wide_local, count, wide_group);
  const auto got = read_buffer<cl_long>(env.queue, sums.get(), count);
  for (size_t i = 0; i < count; ++i) {
    const size_t next = i / wide_group * wide_group + (i % wide_group + 1) % wide_group;
    ASSERT_EQ(got[i], in[16 * next] + in[16 * i + 15]) << i;
  }
}

// CL_DEVICE_LOCAL_MEM_SIZE is __local memory a kernel can use: a kernel-scope array of all
// of it (less what the kernel reports using besides) builds and runs.
TEST_P(KernelQueries, StaticLocalArrayOfTheWholeLocalMemoryRuns) {
  const cl_ulong device_local = info_value<cl_ulong>(clGetDeviceInfo, env.device, CL_DEVICE_LOCAL_MEM_SIZE);
  const size_t words = static_cast<size_t>(device_local / sizeof(cl_uint));
  BuiltProgram program(env, R"(
    kernel void fill_local(global uint* out) {
      local uint data[WORDS];
      size_t lid = get_local_id(0), n = get_local_size(0);
      for (size_t i = lid; i < WORDS; i += n) data[i] = (uint)(i * 2654435761u);
      barrier(CLK_LOCAL_MEM_FENCE);
      uint sum = 0;
      for (size_t i = lid; i < WORDS; i += n) sum += data[WORDS - 1 - i];
      out[get_global_id(0)] = sum;
    })", "-DWORDS=" + std::to_string(words));
  cl_kernel kernel = program.kernel("fill_local");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(work_group_value<cl_ulong>(kernel, env.device, CL_KERNEL_LOCAL_MEM_SIZE), device_local);
  const size_t group = std::min<size_t>(64, work_group_value<size_t>(kernel, env.device, CL_KERNEL_WORK_GROUP_SIZE));
  DeviceBuffer out(env.context, 2 * group * sizeof(cl_uint));
  set_args(kernel, out.get());
  run_1d(env.queue, kernel, 2 * group, group);
  const auto sums = read_buffer<cl_uint>(env.queue, out.get(), 2 * group);
  for (size_t item = 0; item < 2 * group; ++item) {
    cl_uint expected = 0;
    for (size_t i = item % group; i < words; i += group) expected += static_cast<cl_uint>((words - 1 - i) * 2654435761u);
    ASSERT_EQ(sums[item], expected) << item;
  }
}

// The host device runs work-items on stacks (a fiber's per work-item with barriers, else
// the worker thread's): private memory larger than such a stack gets a stack of its size,
// and CL_KERNEL_WORK_GROUP_SIZE shrinks so that a group's stacks fit; a launch of that size
// runs. Beyond the device's limit the build fails with a log. (GPUs keep private memory in
// per-thread local memory, a different limit: this is the host device's.)
TEST(HostKernelQueries, PrivateMemoryLargerThanAStackRunsAtTheReportedGroupSize) {
  Env env;
  const std::string kernel = R"(
    kernel void big_private(global int* out, int salt) {
      int big[COUNT];
      for (int i = 0; i < COUNT; ++i) big[i] = i * salt + (int)get_global_id(0);
      BARRIER;
      out[get_global_id(0)] = big[(salt * 7 + get_local_id(0)) % COUNT];
    })";
  struct Case {
    int count;
    const char* barrier;
  };
  for (const Case& c : {Case{100000, "barrier(CLK_LOCAL_MEM_FENCE)"}, Case{1000000, "(void)0"}}) {
    SCOPED_TRACE(std::to_string(c.count) + " ints, " + c.barrier);
    BuiltProgram program(env, kernel, "-DCOUNT=" + std::to_string(c.count) + " -DBARRIER=" + c.barrier);
    cl_kernel k = program.kernel("big_private");
    ASSERT_NE(k, nullptr);
    EXPECT_GE(work_group_value<cl_ulong>(k, env.device, CL_KERNEL_PRIVATE_MEM_SIZE), c.count * sizeof(int));
    const size_t group = work_group_value<size_t>(k, env.device, CL_KERNEL_WORK_GROUP_SIZE);
    ASSERT_GE(group, 1u);
    const int salt = 3;
    DeviceBuffer out(env.context, 2 * group * sizeof(int));
    set_args(k, out.get(), salt);
    run_1d(env.queue, k, 2 * group, group);
    const auto got = read_buffer<int>(env.queue, out.get(), 2 * group);
    for (size_t i = 0; i < 2 * group; ++i) {
      const int index = static_cast<int>((salt * 7 + i % group) % c.count);
      ASSERT_EQ(got[i], index * salt + static_cast<int>(i)) << i;
    }
  }
  cl_int status = CL_SUCCESS;
  const std::string too_big = "-DCOUNT=100000000 -DBARRIER=(void)0";
  const char* source = kernel.c_str();
  cl_program program = clCreateProgramWithSource(env.context, 1, &source, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &env.device, too_big.c_str(), nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(build_log(program, env.device).find("bytes of private memory per work-item"), std::string::npos)
      << build_log(program, env.device);
  clReleaseProgram(program);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelQueries, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
