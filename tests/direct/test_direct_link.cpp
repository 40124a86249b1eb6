// An application linked against libcucl itself, with no ICD loader in the process: every
// exported call must work as a plain OpenCL library call.
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetPlatformInfo(platform, param, 0, nullptr, &size), CL_SUCCESS);
  std::string value(size, '\0');
  EXPECT_EQ(clGetPlatformInfo(platform, param, size, value.data(), nullptr), CL_SUCCESS);
  return value.c_str();
}

// The shared object that defines the code at `address`.
std::string library_of(const void* address) {
  Dl_info info{};
  if (!dladdr(address, &info) || !info.dli_fname) return {};
  return info.dli_fname;
}

cl_platform_id the_platform() {
  cl_uint count = 0;
  EXPECT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  cl_platform_id platform = nullptr;
  EXPECT_EQ(clGetPlatformIDs(1, &platform, nullptr), CL_SUCCESS);
  return platform;
}

}  // namespace

TEST(DirectLink, NoIcdLoaderIsInTheProcess) {
  EXPECT_EQ(dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_NOLOAD), nullptr);
  EXPECT_NE(library_of(reinterpret_cast<const void*>(&clGetPlatformIDs)).find("libcucl.so"), std::string::npos);
}

TEST(DirectLink, PlatformIsCuclWithIcdSuffix) {
  cl_platform_id platform = the_platform();
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_NAME), "cucl");
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_ICD_SUFFIX_KHR), "CUCL");
  // The handle is an ICD object: its dispatch table points back into libcucl.
  auto* dispatch = *reinterpret_cast<const cl_icd_dispatch* const*>(platform);
  ASSERT_NE(dispatch, nullptr);
  EXPECT_NE(library_of(reinterpret_cast<const void*>(dispatch->clGetPlatformInfo)).find("libcucl.so"),
            std::string::npos);
}

TEST(DirectLink, ExtensionLookupFindsIcdEntryPoint) {
  cl_platform_id platform = the_platform();
  void* by_platform = clGetExtensionFunctionAddressForPlatform(platform, "clIcdGetPlatformIDsKHR");
  ASSERT_NE(by_platform, nullptr);
  EXPECT_EQ(by_platform, clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR"));
  cl_platform_id through_icd = nullptr;
  cl_uint count = 0;
  EXPECT_EQ(reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(by_platform)(1, &through_icd, &count), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(through_icd, platform);
}

TEST(DirectLink, ContextQueueMarkerAndFinish) {
  cl_platform_id platform = the_platform();
  cl_uint count = 0;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count), CL_SUCCESS);
  ASSERT_GE(count, 1u);
  std::vector<cl_device_id> devices(count);
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr), CL_SUCCESS);

  for (cl_device_id device : devices) {
    cl_int status = CL_INVALID_VALUE;
    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                                0};
    cl_context context = clCreateContext(properties, 1, &device, nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    status = CL_INVALID_VALUE;
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
    ASSERT_EQ(status, CL_SUCCESS);

    cl_event marker = nullptr;
    ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    cl_int execution = 1;
    EXPECT_EQ(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution, &execution, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(execution, CL_COMPLETE);
    cl_command_type type = 0;
    EXPECT_EQ(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
    EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MARKER));

    EXPECT_EQ(clReleaseEvent(marker), CL_SUCCESS);
    EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }
}
