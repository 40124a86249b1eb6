// The CUDA device as clGetDeviceInfo describes it, and how cucl finds (or hides) it.
#include <CL/cl_ext.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "test_cuda_helpers.h"

using namespace cucl_test;
using namespace cuda_test;

namespace {

template <class T>
T device_value(cl_device_id device, cl_device_info param) {
  return info_value<T>(clGetDeviceInfo, device, param);
}

// Runs this test program again with `environment` prepended, limited to the probe test;
// returns everything it printed (stdout and stderr).
std::string run_probe(const std::string& environment) {
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return {};
  std::string command =
      environment + " CUCL_TEST_PROBE=1 '" + self + "' --gtest_filter=CudaDiscoveryProbe.* 2>&1";
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer;
    size_t got = 0;
    while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), got);
    pclose(pipe);
  }
  return output;
}

// "cpu=N gpu=M" as the probe printed it.
std::pair<int, int> probe_counts(const std::string& output) {
  int cpu = -1, gpu = -1;
  auto at = output.find("probe: cpu=");
  if (at != std::string::npos) std::sscanf(output.c_str() + at, "probe: cpu=%d gpu=%d", &cpu, &gpu);
  return {cpu, gpu};
}

}  // namespace

// Not a test of its own: the discovery tests run it in a child process with CUCL_DEVICES set.
TEST(CudaDiscoveryProbe, Report) {
  if (!std::getenv("CUCL_TEST_PROBE")) GTEST_SKIP() << "only runs as the discovery tests' child process";
  std::printf("probe: cpu=%zu gpu=%zu\n", cucl_devices(CL_DEVICE_TYPE_CPU).size(),
              cucl_devices(CL_DEVICE_TYPE_GPU).size());
}

TEST(CudaDiscovery, DevicesVariableHidesGpusOrTheHost) {
  const int gpus = static_cast<int>(cucl_devices(CL_DEVICE_TYPE_GPU).size());
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=all")), std::make_pair(1, gpus));
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=host")), std::make_pair(1, 0));
  // Hiding the host leaves the GPUs; with no GPU, the host device stays rather than nothing.
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=cuda")), std::make_pair(gpus ? 0 : 1, gpus));
}

TEST(CudaDiscovery, DevicesVariableSelectsSingleGpus) {
  const int gpus = static_cast<int>(cucl_devices(CL_DEVICE_TYPE_GPU).size());
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=cuda:0")), std::make_pair(gpus ? 0 : 1, std::min(gpus, 1)));
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=host,cuda:1")), std::make_pair(1, gpus >= 2 ? 1 : 0));
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=cuda:0,cuda:1")), std::make_pair(gpus ? 0 : 1, std::min(gpus, 2)));
  // An ordinal past the last GPU selects nothing, and the host device stays.
  EXPECT_EQ(probe_counts(run_probe("CUCL_DEVICES=cuda:99")), std::make_pair(1, 0));
}

TEST(CudaDiscovery, DebugLogSaysWhyThereIsNoGpu) {
  std::string output = run_probe("CUCL_DEBUG=1 CUCL_DEVICES=all");
  if (probe_counts(output).second > 0) {
    EXPECT_NE(output.find("cucl: CUDA device 0: "), std::string::npos) << output;
  } else {
    EXPECT_NE(output.find("cucl: no CUDA devices: "), std::string::npos) << output;
  }
  // Without CUCL_DEBUG cucl prints nothing of its own.
  EXPECT_EQ(run_probe("CUCL_DEBUG= CUCL_DEVICES=all").find("cucl: "), std::string::npos);
}

TEST(CudaDevice, ListedAfterTheHostDevice) {
  CUCL_REQUIRE_GPU(first_gpu());
  auto all = cucl_devices(CL_DEVICE_TYPE_ALL);
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(device_value<cl_device_type>(all[0], CL_DEVICE_TYPE), cl_device_type(CL_DEVICE_TYPE_CPU));
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_EQ(device_value<cl_device_type>(all[i], CL_DEVICE_TYPE), cl_device_type(CL_DEVICE_TYPE_GPU));
  }
}

TEST(CudaDevice, IdentifiesAnNvidiaGpu) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  EXPECT_EQ(device_value<cl_uint>(gpu, CL_DEVICE_VENDOR_ID), 0x10deu);
  EXPECT_EQ(device_string(gpu, CL_DEVICE_VENDOR), "NVIDIA Corporation");
  EXPECT_FALSE(device_string(gpu, CL_DEVICE_NAME).empty());
  // OpenCL 3.1 with a compiler (sub-groups, SPIR-V 1.4 and the promoted extensions need one).
  const bool compiler = device_value<cl_bool>(gpu, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE;
  EXPECT_EQ(device_string(gpu, CL_DEVICE_VERSION).rfind(compiler ? "OpenCL 3.1 " : "OpenCL 3.0 ", 0), 0u);
  EXPECT_NE(device_string(gpu, CL_DRIVER_VERSION).find("CUDA "), std::string::npos);
  EXPECT_EQ(device_value<cl_bool>(gpu, CL_DEVICE_AVAILABLE), cl_bool(CL_TRUE));
  EXPECT_EQ(device_value<cl_bool>(gpu, CL_DEVICE_HOST_UNIFIED_MEMORY), cl_bool(CL_FALSE));
}

TEST(CudaDevice, LimitsAreThoseOfAGpu) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  EXPECT_GE(device_value<cl_uint>(gpu, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_GT(device_value<cl_uint>(gpu, CL_DEVICE_MAX_CLOCK_FREQUENCY), 100u);
  auto global = device_value<cl_ulong>(gpu, CL_DEVICE_GLOBAL_MEM_SIZE);
  auto max_alloc = device_value<cl_ulong>(gpu, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GE(global, 1ull << 30);
  EXPECT_LE(max_alloc, global);
  EXPECT_GE(max_alloc, std::max<cl_ulong>(global / 4, 128ull << 20));
  EXPECT_GE(device_value<cl_ulong>(gpu, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_EQ(device_value<cl_device_local_mem_type>(gpu, CL_DEVICE_LOCAL_MEM_TYPE),
            cl_device_local_mem_type(CL_LOCAL));
  EXPECT_GE(device_value<cl_ulong>(gpu, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
  EXPECT_GE(device_value<cl_ulong>(gpu, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), 1u << 20);
  EXPECT_GE(device_value<cl_uint>(gpu, CL_DEVICE_MEM_BASE_ADDR_ALIGN), 1024u);
  auto group = device_value<size_t>(gpu, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(group, 256u);
  auto sizes = device_value<std::array<size_t, 3>>(gpu, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  EXPECT_EQ(sizes[0], group);
  EXPECT_GE(sizes[2], 1u);
  auto queue = device_value<cl_command_queue_properties>(gpu, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(queue & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_TRUE(queue & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  EXPECT_GE(device_value<size_t>(gpu, CL_DEVICE_PROFILING_TIMER_RESOLUTION), 1u);
}

TEST(CudaDevice, UuidAndPciBusInfoDescribeTheRealDevice) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  ASSERT_TRUE(lists_extension(gpu, "cl_khr_device_uuid"));
  ASSERT_TRUE(lists_extension(gpu, "cl_khr_pci_bus_info"));
  auto uuid = device_value<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(gpu, CL_DEVICE_UUID_KHR);
  EXPECT_NE(uuid, (std::array<cl_uchar, CL_UUID_SIZE_KHR>{}));
  auto driver_uuid = device_value<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(gpu, CL_DRIVER_UUID_KHR);
  EXPECT_NE(driver_uuid, (std::array<cl_uchar, CL_UUID_SIZE_KHR>{}));
  // Every GPU has its own UUID, and they all share the driver's.
  auto gpus = cucl_devices(CL_DEVICE_TYPE_GPU);
  for (size_t i = 1; i < gpus.size(); ++i) {
    EXPECT_NE(device_value<decltype(uuid)>(gpus[i], CL_DEVICE_UUID_KHR), uuid);
    EXPECT_EQ(device_value<decltype(uuid)>(gpus[i], CL_DRIVER_UUID_KHR), driver_uuid);
  }
  auto pci = device_value<cl_device_pci_bus_info_khr>(gpu, CL_DEVICE_PCI_BUS_INFO_KHR);
  char path[128];
  std::snprintf(path, sizeof path, "/sys/bus/pci/devices/%04x:%02x:%02x.%x/vendor", pci.pci_domain, pci.pci_bus,
                pci.pci_device, pci.pci_function);
  std::ifstream vendor(path);
  if (!vendor) GTEST_SKIP() << path << " is not readable here (no /sys in this container?)";
  std::string id;
  vendor >> id;
  EXPECT_EQ(id, "0x10de") << path;
}

// cl_nv_device_attribute_query, as NVIDIA's OpenCL answers it: applications pick their code
// by compute capability and warp size, and find the GPU on the bus by its PCI ids.
TEST(CudaDevice, NvidiaAttributeQueriesDescribeTheRealDevice) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  ASSERT_TRUE(lists_extension(gpu, "cl_nv_device_attribute_query"));
  const auto major = device_value<cl_uint>(gpu, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
  const auto minor = device_value<cl_uint>(gpu, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
  EXPECT_GE(major, 5u);  // the oldest architecture CUDA 12 supports
  EXPECT_LT(minor, 10u);
  EXPECT_EQ(device_value<cl_uint>(gpu, CL_DEVICE_WARP_SIZE_NV), 32u);
  // A work-group of the device's largest size gets at least 32 registers per work-item.
  EXPECT_GE(device_value<cl_uint>(gpu, CL_DEVICE_REGISTERS_PER_BLOCK_NV),
            32 * device_value<size_t>(gpu, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  EXPECT_GE(device_value<cl_uint>(gpu, 0x4007 /* CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV */), 1u);
  // A discrete GPU: its own memory, and the bus ids cl_khr_pci_bus_info gives.
  EXPECT_EQ(device_value<cl_bool>(gpu, CL_DEVICE_INTEGRATED_MEMORY_NV),
            device_value<cl_bool>(gpu, CL_DEVICE_HOST_UNIFIED_MEMORY));
  auto pci = device_value<cl_device_pci_bus_info_khr>(gpu, CL_DEVICE_PCI_BUS_INFO_KHR);
  EXPECT_EQ(device_value<cl_uint>(gpu, 0x4008 /* CL_DEVICE_PCI_BUS_ID_NV */), pci.pci_bus);
  EXPECT_EQ(device_value<cl_uint>(gpu, 0x4009 /* CL_DEVICE_PCI_SLOT_ID_NV */), pci.pci_device);
  EXPECT_EQ(device_value<cl_uint>(gpu, 0x400A /* CL_DEVICE_PCI_DOMAIN_ID_NV */), pci.pci_domain);
  cl_bool flag = CL_TRUE;
  for (cl_device_info param : {CL_DEVICE_GPU_OVERLAP_NV, CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV}) {
    ASSERT_EQ(clGetDeviceInfo(gpu, param, sizeof flag, &flag, nullptr), CL_SUCCESS) << param;
    EXPECT_TRUE(flag == CL_TRUE || flag == CL_FALSE) << param;
  }
  cl_uint too_small = 0;
  EXPECT_EQ(clGetDeviceInfo(gpu, CL_DEVICE_WARP_SIZE_NV, sizeof too_small - 1, &too_small, nullptr), CL_INVALID_VALUE);
}

TEST(CudaDevice, BuildsAreRefusedWhileTheDeviceHasNoCompiler) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  if (device_value<cl_bool>(gpu, CL_DEVICE_COMPILER_AVAILABLE)) GTEST_SKIP() << "the GPU has a compiler";
  EXPECT_EQ(device_value<cl_bool>(gpu, CL_DEVICE_LINKER_AVAILABLE), cl_bool(CL_FALSE));
  Env env(gpu);
  const char* source = "kernel void k(global int* p) { p[0] = 1; }";
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env.context, 1, &source, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(program, 1, &gpu, nullptr, nullptr, nullptr), CL_COMPILER_NOT_AVAILABLE);
  clReleaseProgram(program);
}

TEST(CudaDevice, DeviceAndHostTimersAgree) {
  cl_device_id gpu = first_gpu();
  CUCL_REQUIRE_GPU(gpu);
  cl_ulong device_before = 0, host_before = 0, device_after = 0, host_after = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(gpu, &device_before, &host_before), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(gpu, &device_after, &host_after), CL_SUCCESS);
  EXPECT_LE(device_before, device_after);
  EXPECT_LE(host_before, host_after);
  // One time base: device and host readings taken together are within a millisecond.
  EXPECT_LT(device_before > host_before ? device_before - host_before : host_before - device_before, 1000000u);
}
