// cl_ext_buffer_device_address on every device: the buffer property and the device-address
// query (sub-buffers, buffers on SVM pointers), kernels reaching buffers through device pointers
// given as arguments (also into the middle of a buffer) and through pointers stored in another
// buffer named by CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT, every error code, the extension's
// listing, and in a context of every device, each device's address and current bytes.
#include <cstdint>
#include <numeric>

#include "support/buffer_device_address_api.h"
#include "support/kernel_support.h"
#include "svm_test_helpers.h"

using namespace cucl_test;

namespace {

class BufferDeviceAddress : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    set_pointer = set_kernel_arg_device_pointer();
    ASSERT_NE(set_pointer, nullptr);
  }
  SetKernelArgDevicePointer set_pointer = nullptr;
};

TEST_P(BufferDeviceAddress, ListedWithItsVersion) {
  EXPECT_TRUE(lists_extension(env.device, "cl_ext_buffer_device_address"));
  EXPECT_EQ(extension_version(env.device, "cl_ext_buffer_device_address"), CL_MAKE_VERSION(1, 0, 2));
}

TEST_P(BufferDeviceAddress, TheQueryGivesTheAddressKernelsSee) {
  AddressedBuffer buffer(env.context, 256 * sizeof(cl_int));
  ASSERT_EQ(buffer.status(), CL_SUCCESS);
  const std::vector<cl_mem_device_address_ext> addresses = device_addresses(buffer.get());
  ASSERT_EQ(addresses.size(), 1u);
  EXPECT_NE(addresses[0], 0u);
  const cl_mem_properties expected[] = {kMemDevicePrivateAddress, CL_TRUE, 0};
  cl_mem_properties reported[3] = {};
  ASSERT_EQ(clGetMemObjectInfo(buffer.get(), CL_MEM_PROPERTIES, sizeof reported, reported, nullptr), CL_SUCCESS);
  EXPECT_TRUE(std::equal(std::begin(expected), std::end(expected), reported));

  BuiltProgram program(env, "kernel void where(global int* buffer, global ulong* address) { *address = (ulong)buffer; }");
  cl_kernel kernel = program.kernel("where");
  ASSERT_NE(kernel, nullptr);
  DeviceBuffer seen(env.context, sizeof(cl_ulong));
  set_args(kernel, buffer.get(), seen.get());
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(read_buffer<cl_ulong>(env.queue, seen.get(), 1)[0], addresses[0]);

  // A sub-buffer's address is its parent's plus its origin, and stays so.
  const size_t align = info_value<cl_uint>(clGetDeviceInfo, env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  const cl_buffer_region region{align, 16};
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_mem sub = clCreateSubBuffer(buffer.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(device_addresses(sub), std::vector<cl_mem_device_address_ext>{addresses[0] + align});
  set_args(kernel, sub, seen.get());
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(read_buffer<cl_ulong>(env.queue, seen.get(), 1)[0], addresses[0] + align);
  EXPECT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
  EXPECT_EQ(device_addresses(buffer.get()), addresses);
}

TEST_P(BufferDeviceAddress, CopiedHostDataIsThereAtTheAddress) {
  std::vector<cl_int> data(64);
  std::iota(data.begin(), data.end(), 100);
  AddressedBuffer buffer(env.context, data.size() * sizeof(cl_int), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         data.data());
  ASSERT_EQ(buffer.status(), CL_SUCCESS);
  BuiltProgram program(env, "kernel void twice(global int* data) { data[get_global_id(0)] *= 2; }");
  cl_kernel kernel = program.kernel("twice");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(set_pointer(kernel, 0, device_addresses(buffer.get())[0]), CL_SUCCESS);
  run_1d(env.queue, kernel, data.size());
  const std::vector<cl_int> result = read_buffer<cl_int>(env.queue, buffer.get(), data.size());
  for (size_t i = 0; i < data.size(); ++i) EXPECT_EQ(result[i], 2 * data[i]) << i;
}

TEST_P(BufferDeviceAddress, AKernelReadsAndWritesThroughADevicePointerIntoTheMiddle) {
  const size_t n = 1024;
  AddressedBuffer buffer(env.context, n * sizeof(cl_int));
  ASSERT_EQ(buffer.status(), CL_SUCCESS);
  std::vector<cl_int> data(n);
  std::iota(data.begin(), data.end(), 0);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, buffer.get(), CL_FALSE, 0, n * sizeof(cl_int), data.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  // Each work-item adds the value two before its own: the pointer starts at element 2.
  BuiltProgram program(env, R"(
    kernel void add_previous(global int* from_two, global int* out) {
      size_t i = get_global_id(0);
      out[i] = from_two[i] + from_two[(long)i - 2];
    }
    kernel void negate(global int* from_two) { from_two[get_global_id(0)] *= -1; })");
  cl_kernel add_previous = program.kernel("add_previous");
  cl_kernel negate = program.kernel("negate");
  ASSERT_TRUE(add_previous && negate);
  DeviceBuffer out(env.context, (n - 2) * sizeof(cl_int));
  const cl_mem_device_address_ext from_two = device_addresses(buffer.get())[0] + 2 * sizeof(cl_int);
  ASSERT_EQ(set_pointer(add_previous, 0, from_two), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(add_previous, 1, sizeof(cl_mem), out.address()), CL_SUCCESS);
  run_1d(env.queue, add_previous, n - 2);
  const std::vector<cl_int> sums = read_buffer<cl_int>(env.queue, out.get(), n - 2);
  for (size_t i = 0; i < n - 2; ++i) EXPECT_EQ(sums[i], static_cast<cl_int>(2 * i + 2)) << i;
  ASSERT_EQ(set_pointer(negate, 0, from_two), CL_SUCCESS);
  run_1d(env.queue, negate, n - 2);
  const std::vector<cl_int> written = read_buffer<cl_int>(env.queue, buffer.get(), n);
  EXPECT_EQ(written[0], 0);
  EXPECT_EQ(written[1], 1);
  for (size_t i = 2; i < n; ++i) EXPECT_EQ(written[i], -static_cast<cl_int>(i)) << i;
}

TEST_P(BufferDeviceAddress, PointersStoredInAStructReachBuffersNamedByExecInfo) {
  const size_t n = 128;
  AddressedBuffer a(env.context, n * sizeof(cl_int));
  AddressedBuffer b(env.context, n * sizeof(cl_int));
  ASSERT_EQ(a.status(), CL_SUCCESS);
  ASSERT_EQ(b.status(), CL_SUCCESS);
  std::vector<cl_int> input(n);
  std::iota(input.begin(), input.end(), 7);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, a.get(), CL_TRUE, 0, n * sizeof(cl_int), input.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  struct Table {
    cl_mem_device_address_ext source;
    cl_mem_device_address_ext target;
  };
  const Table table{device_addresses(a.get())[0], device_addresses(b.get())[0] + 16 * sizeof(cl_int)};
  DeviceBuffer table_buffer(env.context, sizeof table, &table);
  BuiltProgram program(env, R"(
    typedef struct Table { global int* source; global int* target; } Table;
    kernel void through(global Table* table) {
      size_t i = get_global_id(0);
      table->target[i] = table->source[i] * 3;
    })");
  cl_kernel kernel = program.kernel("through");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), table_buffer.address()), CL_SUCCESS);
  // Any address inside each buffer names it.
  const cl_mem_device_address_ext reached[] = {table.source + 4, table.target};
  ASSERT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, sizeof reached, reached), CL_SUCCESS);
  run_1d(env.queue, kernel, n - 16);
  const std::vector<cl_int> result = read_buffer<cl_int>(env.queue, b.get(), n);
  for (size_t i = 0; i < n - 16; ++i) EXPECT_EQ(result[16 + i], 3 * input[i]) << i;
}

TEST_P(BufferDeviceAddress, ABufferOnAnSvmPointerHasThatAddress) {
  if (!svm_test::svm_capabilities(env.device)) GTEST_SKIP() << "the device has no SVM";
  svm_test::SvmPointer svm(env.context, CL_MEM_READ_WRITE, 4096);
  ASSERT_NE(svm.get(), nullptr);
  AddressedBuffer buffer(env.context, 4096, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, svm.get());
  ASSERT_EQ(buffer.status(), CL_SUCCESS);
  EXPECT_EQ(device_addresses(buffer.get()),
            std::vector<cl_mem_device_address_ext>{reinterpret_cast<uintptr_t>(svm.get())});
}

TEST_P(BufferDeviceAddress, PropertyErrors) {
  const auto create = [&](std::initializer_list<cl_mem_properties> properties) {
    return create_error([&](cl_int* status) {
      return clCreateBufferWithProperties(env.context, std::data(properties), CL_MEM_READ_WRITE, 64, nullptr, status);
    });
  };
  EXPECT_EQ(create({kMemDevicePrivateAddress, 2, 0}), CL_INVALID_PROPERTY) << "neither CL_TRUE nor CL_FALSE";
  EXPECT_EQ(create({kMemDevicePrivateAddress, CL_TRUE, kMemDevicePrivateAddress, CL_TRUE, 0}), CL_INVALID_PROPERTY)
      << "named twice";
  EXPECT_EQ(create({kMemDeviceAddress, CL_TRUE, 0}), CL_INVALID_PROPERTY) << "not a property";

  // CL_FALSE asks for nothing: the buffer has no device address.
  const cl_mem_properties off[] = {kMemDevicePrivateAddress, CL_FALSE, 0};
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_mem plain = clCreateBufferWithProperties(env.context, off, CL_MEM_READ_WRITE, 64, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  cl_mem_device_address_ext address = 0;
  EXPECT_EQ(clGetMemObjectInfo(plain, kMemDeviceAddress, sizeof address, &address, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseMemObject(plain), CL_SUCCESS);

  AddressedBuffer buffer(env.context, 64);
  ASSERT_EQ(buffer.status(), CL_SUCCESS);
  EXPECT_EQ(clGetMemObjectInfo(buffer.get(), kMemDeviceAddress, sizeof address - 1, &address, nullptr),
            CL_INVALID_VALUE);
}

TEST_P(BufferDeviceAddress, ArgumentAndExecInfoErrors) {
  BuiltProgram program(env, "kernel void k(global int* p, local int* l, int v, constant int* c) { *p = v; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(set_pointer(nullptr, 0, 0), CL_INVALID_KERNEL);
  EXPECT_EQ(set_pointer(kernel, 1, 0x1000), CL_INVALID_ARG_INDEX) << "a __local pointer";
  EXPECT_EQ(set_pointer(kernel, 2, 0x1000), CL_INVALID_ARG_INDEX) << "not a pointer";
  EXPECT_EQ(set_pointer(kernel, 4, 0x1000), CL_INVALID_ARG_INDEX) << "no such argument";
  EXPECT_EQ(set_pointer(kernel, 0, 0), CL_SUCCESS) << "NULL is a value";
  EXPECT_EQ(set_pointer(kernel, 3, 0x1000), CL_SUCCESS) << "__constant memory is global memory";

  const cl_mem_device_address_ext pointers[] = {0x1000, 0x2000};
  EXPECT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, sizeof pointers, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, sizeof pointers - 1, pointers), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, sizeof pointers, pointers), CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, 0, nullptr), CL_SUCCESS) << "an empty list";
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, BufferDeviceAddress, ::testing::ValuesIn(all_devices()), device_name);

// A context of every device (the host device and each GPU): one address per device in the
// context's order, each device's kernel writes through its own, and a buffer that kernels reach
// only through CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT has the current bytes on each device in turn.
TEST(BufferDeviceAddressEveryDevice, EachDeviceWritesThroughItsAddressAndSeesTheOthersWrites) {
  const std::vector<cl_device_id> devices = cucl_devices();
  if (devices.size() < 2) GTEST_SKIP() << "one device: no GPU here";
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_context context = clCreateContext(nullptr, static_cast<cl_uint>(devices.size()), devices.data(), nullptr, nullptr,
                                       &status);
  ASSERT_EQ(status, CL_SUCCESS);
  std::vector<cl_command_queue> queues;
  for (cl_device_id device : devices) {
    queues.push_back(clCreateCommandQueue(context, device, 0, &status));
    ASSERT_EQ(status, CL_SUCCESS);
  }
  {
    const size_t n = 4096;
    AddressedBuffer data(context, n * sizeof(cl_int));
    ASSERT_EQ(data.status(), CL_SUCCESS);
    const std::vector<cl_mem_device_address_ext> addresses = device_addresses(data.get());
    ASSERT_EQ(addresses.size(), devices.size());
    const cl_int zero = 0;
    ASSERT_EQ(clEnqueueFillBuffer(queues[0], data.get(), &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queues[0]), CL_SUCCESS);
    const char* source = R"(
      typedef struct Table { global int* data; } Table;
      kernel void add(global Table* table, int amount) { table->data[get_global_id(0)] += amount; })";
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    ASSERT_EQ(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, "add", &status);
    ASSERT_EQ(status, CL_SUCCESS);
    cl_int expected = 0;
    for (size_t d = 0; d < devices.size(); ++d) {
      // The table holds device d's address of the data; only the exec info names the buffer.
      DeviceBuffer table(context, sizeof(cl_mem_device_address_ext), &addresses[d]);
      const cl_int amount = static_cast<cl_int>(10 * d + 1);
      expected += amount;
      ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), table.address()), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof amount, &amount), CL_SUCCESS);
      ASSERT_EQ(clSetKernelExecInfo(kernel, kExecInfoDevicePtrs, sizeof addresses[d], &addresses[d]), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(queues[d], kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
      ASSERT_EQ(clFinish(queues[d]), CL_SUCCESS);
      const std::vector<cl_int> seen = read_buffer<cl_int>(queues[(d + 1) % devices.size()], data.get(), n);
      EXPECT_EQ(seen.front(), expected) << "after device " << d;
      EXPECT_EQ(seen.back(), expected) << "after device " << d;
    }
    // Through an argument too: each device writes its own element through its own address.
    cl_kernel store = nullptr;
    const char* store_source = "kernel void store(global ulong* at, ulong value) { *at = value; }";
    cl_program store_program = clCreateProgramWithSource(context, 1, &store_source, nullptr, &status);
    ASSERT_EQ(clBuildProgram(store_program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
    store = clCreateKernel(store_program, "store", &status);
    ASSERT_EQ(status, CL_SUCCESS);
    SetKernelArgDevicePointer set_pointer = set_kernel_arg_device_pointer();
    ASSERT_NE(set_pointer, nullptr);
    for (size_t d = 0; d < devices.size(); ++d) {
      ASSERT_EQ(set_pointer(store, 0, addresses[d] + 8 * d), CL_SUCCESS);
      const cl_ulong value = 0xAABBCCDD00ull + d;
      ASSERT_EQ(clSetKernelArg(store, 1, sizeof value, &value), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(queues[d], store, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
      ASSERT_EQ(clFinish(queues[d]), CL_SUCCESS);
    }
    const std::vector<cl_ulong> stored = read_buffer<cl_ulong>(queues[0], data.get(), devices.size());
    for (size_t d = 0; d < devices.size(); ++d) EXPECT_EQ(stored[d], 0xAABBCCDD00ull + d) << "device " << d;
    clReleaseKernel(store);
    clReleaseProgram(store_program);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  for (cl_command_queue queue : queues) clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

}  // namespace
