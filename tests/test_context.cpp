// Contexts: clCreateContext, clCreateContextFromType, info, reference counts and
// destructor callbacks, through the ICD loader.
#include <atomic>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

cl_context create(const cl_context_properties* properties, std::vector<cl_device_id> devices, cl_int* error,
                  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr,
                  void* user_data = nullptr) {
  return clCreateContext(properties, static_cast<cl_uint>(devices.size()), devices.data(), notify, user_data, error);
}

std::vector<cl_context_properties> properties_of(cl_context context) {
  size_t size = 1;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_context_properties> properties(size / sizeof(cl_context_properties));
  EXPECT_EQ(size % sizeof(cl_context_properties), 0u);
  if (size) {
    EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, size, properties.data(), nullptr), CL_SUCCESS);
  }
  return properties;
}

void CL_CALLBACK ignore_notify(const char*, const void*, size_t, void*) {}

cl_context_properties platform_property() { return reinterpret_cast<cl_context_properties>(cucl_platform()); }

bool has_platform(const std::vector<cl_context_properties>& properties) {
  for (size_t i = 0; i + 1 < properties.size() && properties[i]; i += 2) {
    if (properties[i] == CL_CONTEXT_PLATFORM) return true;
  }
  return false;
}

}  // namespace

TEST(Context, CreateGivesOneReferenceAndTheDevice) {
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = create(nullptr, {device}, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(ref_count(context), 1u);
  cl_uint count = 0;
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, &size), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(size, sizeof(cl_uint));
  cl_device_id listed = nullptr;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof listed, &listed, &size), CL_SUCCESS);
  EXPECT_EQ(listed, device);
  EXPECT_EQ(size, sizeof(cl_device_id));
  EXPECT_TRUE(properties_of(context).empty()) << "NULL properties must give size 0";
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

TEST(Context, ErrcodeRetMayBeNull) {
  cl_device_id device = host_device();
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  const cl_context_properties bad[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(bad, 1, &device, nullptr, nullptr, nullptr), nullptr);
}

TEST(Context, PropertiesAreReturnedExactlyAsGiven) {
  cl_device_id device = host_device();
  const std::vector<std::vector<cl_context_properties>> cases = {
      {CL_CONTEXT_PLATFORM, platform_property(), 0},
      {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_PLATFORM, platform_property(), 0},
      {CL_CONTEXT_PLATFORM, platform_property(), CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0},
      {0},
  };
  for (const auto& given : cases) {
    cl_int error = 1;
    cl_context context = create(given.data(), {device}, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(properties_of(context), given);
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);

    // ocl-icd routes clCreateContextFromType by CL_CONTEXT_PLATFORM and answers
    // CL_INVALID_PLATFORM itself when a non-NULL list lacks it.
    if (!has_platform(given)) continue;
    context = clCreateContextFromType(given.data(), CL_DEVICE_TYPE_CPU, nullptr, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(properties_of(context), given);
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }
}

TEST(Context, DevicesMustBeGiven) {
  cl_device_id device = host_device();
  cl_int error = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  error = 0;
  EXPECT_EQ(clCreateContext(nullptr, 0, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
}

TEST(Context, InvalidDeviceIsRejected) {
  Env env;
  cl_int error = 0;
  // A NULL entry, and handles of other object types (they reach cucl through the loader).
  EXPECT_EQ(create(nullptr, {env.device, nullptr}, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  EXPECT_EQ(create(nullptr, {env.device, reinterpret_cast<cl_device_id>(env.queue)}, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  EXPECT_EQ(create(nullptr, {reinterpret_cast<cl_device_id>(env.context)}, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  EXPECT_EQ(create(nullptr, {reinterpret_cast<cl_device_id>(cucl_platform())}, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
}

TEST(Context, DuplicateDevicesAreIgnored) {
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = create(nullptr, {device, device, device}, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_uint count = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_device_id));
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

TEST(Context, EveryDeviceCanShareOneContext) {
  auto devices = cucl_devices();
  ASSERT_FALSE(devices.empty());
  cl_int error = 1;
  cl_context context = create(nullptr, devices, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_device_id> listed(size / sizeof(cl_device_id));
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, size, listed.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(listed, devices);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

TEST(Context, BadPropertiesAreRejected) {
  cl_device_id device = host_device();
  struct Case {
    std::vector<cl_context_properties> properties;
    cl_int expected;
  };
  const std::vector<Case> cases = {
      {{0x7777, 1, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_PLATFORM, platform_property(), 0x7777, 1, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_PLATFORM, platform_property(), CL_CONTEXT_PLATFORM, platform_property(), 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_INTEROP_USER_SYNC, 7, 0}, CL_INVALID_PROPERTY},
      {{CL_CONTEXT_PLATFORM, 0, 0}, CL_INVALID_PLATFORM},
      // A live handle that is not a platform.
      {{CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device), 0}, CL_INVALID_PLATFORM},
  };
  for (const auto& c : cases) {
    cl_int error = 0;
    EXPECT_EQ(create(c.properties.data(), {device}, &error), nullptr);
    EXPECT_EQ(error, c.expected) << "clCreateContext, first property 0x" << std::hex << c.properties[0];
    // The same list behind a (valid) platform, which ocl-icd needs to route the call.
    std::vector<cl_context_properties> routed = c.properties;
    if (!has_platform(routed)) routed.insert(routed.begin(), {CL_CONTEXT_PLATFORM, platform_property()});
    error = 0;
    EXPECT_EQ(clCreateContextFromType(routed.data(), CL_DEVICE_TYPE_CPU, nullptr, nullptr, &error), nullptr);
    EXPECT_EQ(error, c.expected) << "clCreateContextFromType, first property 0x" << std::hex << c.properties[0];
  }
}

TEST(Context, UserDataWithoutNotifyIsInvalid) {
  cl_device_id device = host_device();
  int data = 0;
  cl_int error = 0;
  EXPECT_EQ(create(nullptr, {device}, &error, nullptr, &data), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  error = 0;
  EXPECT_EQ(clCreateContextFromType(nullptr, CL_DEVICE_TYPE_CPU, nullptr, &data, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  // With a callback, user data is fine.
  cl_context context = create(nullptr, {device}, &error, ignore_notify, &data);
  EXPECT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

TEST(ContextFromType, CpuAllAndDefaultGiveTheHostDevice) {
  for (cl_device_type type : std::vector<cl_device_type>{CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_DEFAULT}) {
    cl_int error = 1;
    cl_context context = clCreateContextFromType(nullptr, type, nullptr, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS) << "type " << type;
    size_t size = 0;
    EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
    EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr), CL_SUCCESS);
    EXPECT_EQ(devices, cucl_devices(type)) << "type " << type;
    EXPECT_TRUE(properties_of(context).empty());
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }
}

TEST(ContextFromType, BadDeviceTypeIsRejected) {
  for (cl_device_type type : {cl_device_type{0}, cl_device_type{1} << 40, CL_DEVICE_TYPE_CPU | (cl_device_type{1} << 33)}) {
    cl_int error = 0;
    EXPECT_EQ(clCreateContextFromType(nullptr, type, nullptr, nullptr, &error), nullptr);
    EXPECT_EQ(error, CL_INVALID_DEVICE_TYPE) << "type 0x" << std::hex << type;
  }
}

TEST(ContextFromType, TypeWithoutDevicesIsNotFound) {
  // No cucl device is an accelerator or a custom device.
  for (cl_device_type type : std::vector<cl_device_type>{CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    cl_int error = 0;
    EXPECT_EQ(clCreateContextFromType(nullptr, type, nullptr, nullptr, &error), nullptr);
    EXPECT_EQ(error, CL_DEVICE_NOT_FOUND);
  }
  // GPUs exist only where CUDA does: either the context has exactly them, or none is found.
  auto gpus = cucl_devices(CL_DEVICE_TYPE_GPU);
  cl_int error = 0;
  cl_context context = clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &error);
  if (gpus.empty()) {
    EXPECT_EQ(context, nullptr);
    EXPECT_EQ(error, CL_DEVICE_NOT_FOUND);
  } else {
    ASSERT_EQ(error, CL_SUCCESS);
    cl_uint count = 0;
    EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr), CL_SUCCESS);
    EXPECT_EQ(count, gpus.size());
    EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }
}

TEST(ContextInfo, SizesAndBadQueries) {
  Env env;
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(env.context, CL_CONTEXT_REFERENCE_COUNT, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_uint));
  EXPECT_EQ(clGetContextInfo(env.context, CL_CONTEXT_NUM_DEVICES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_uint));
  cl_uint value = 0;
  EXPECT_EQ(clGetContextInfo(env.context, 0x10ff, sizeof value, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetContextInfo(env.context, CL_CONTEXT_NUM_DEVICES, 1, &value, nullptr), CL_INVALID_VALUE);
  cl_device_id device = nullptr;
  EXPECT_EQ(clGetContextInfo(env.context, CL_CONTEXT_DEVICES, sizeof device - 1, &device, nullptr), CL_INVALID_VALUE);
  // Neither a buffer nor a size: nothing to do, and not an error.
  EXPECT_EQ(clGetContextInfo(env.context, CL_CONTEXT_NUM_DEVICES, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST(ContextRefCount, RetainAndReleaseMoveTheCount) {
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = create(nullptr, {device}, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(clRetainContext(context), CL_SUCCESS);
  EXPECT_EQ(clRetainContext(context), CL_SUCCESS);
  EXPECT_EQ(ref_count(context), 3u);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(ref_count(context), 2u);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(ref_count(context), 1u);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  // The handle is dead now; the loader still reaches cucl, which knows it.
  EXPECT_EQ(clReleaseContext(context), CL_INVALID_CONTEXT);
}

TEST(ContextRefCount, QueueKeepsItsContextHandleUsable) {
  // An application may drop its own reference and keep using the context a queue reports
  // (pyopencl: CommandQueue(create_some_context()) then queue.context).
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = create(nullptr, {device}, &error);
  cl_command_queue queue = make_queue(context, device, 0);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  cl_context reported = nullptr;
  ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof reported, &reported, nullptr), CL_SUCCESS);
  EXPECT_EQ(reported, context);
  EXPECT_EQ(clRetainContext(reported), CL_SUCCESS);
  cl_event event = user_event(reported);
  EXPECT_NE(event, nullptr);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(reported), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof(cl_uint), &error, nullptr), CL_INVALID_CONTEXT);
}

TEST(ContextHandle, ReleasedContextIsInvalidEverywhere) {
  cl_device_id device = host_device();
  cl_int error = 1;
  cl_context context = create(nullptr, {device}, &error);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  cl_uint value = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof value, &value, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clRetainContext(context), CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseContext(context), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetContextDestructorCallback(context, [](cl_context, void*) {}, nullptr), CL_INVALID_CONTEXT);
  error = 0;
  EXPECT_EQ(clCreateCommandQueue(context, device, 0, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
  error = 0;
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
  error = 0;
  EXPECT_EQ(clCreateUserEvent(context, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
}

TEST(ContextHandle, NullAndWrongTypeAreInvalid) {
  Env env;
  cl_event event = user_event(env.context);
  for (cl_context bad : {cl_context{nullptr}, reinterpret_cast<cl_context>(env.queue),
                         reinterpret_cast<cl_context>(env.device), reinterpret_cast<cl_context>(event)}) {
    cl_uint value = 0;
    EXPECT_EQ(clGetContextInfo(bad, CL_CONTEXT_REFERENCE_COUNT, sizeof value, &value, nullptr), CL_INVALID_CONTEXT);
    EXPECT_EQ(clRetainContext(bad), CL_INVALID_CONTEXT);
    EXPECT_EQ(clReleaseContext(bad), CL_INVALID_CONTEXT);
    EXPECT_EQ(clSetContextDestructorCallback(bad, [](cl_context, void*) {}, nullptr), CL_INVALID_CONTEXT);
    cl_int error = 0;
    EXPECT_EQ(clCreateUserEvent(bad, &error), nullptr);
    EXPECT_EQ(error, CL_INVALID_CONTEXT);
  }
  EXPECT_EQ(ref_count(env.queue), 1u) << "a failed call must not touch the object it wrongly got";
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}
