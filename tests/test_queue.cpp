// Command queues: creation in both API forms, property validation, info, flush/finish,
// reference counts and invalid handles, through the ICD loader.
#include <atomic>
#include <thread>

#include "event_test_helpers.h"

using namespace cucl_test;

namespace {

std::vector<cl_queue_properties> properties_array(cl_command_queue queue) {
  size_t size = 1;
  EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size % sizeof(cl_queue_properties), 0u);
  std::vector<cl_queue_properties> array(size / sizeof(cl_queue_properties));
  if (size) {
    EXPECT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, array.data(), nullptr), CL_SUCCESS);
  }
  return array;
}

// The errors each creation call reports for these arguments (and that it returns no queue).
cl_int queue_error(cl_context context, cl_device_id device, std::vector<cl_queue_properties> properties) {
  const cl_queue_properties* list = properties.empty() ? nullptr : properties.data();
  return create_error([&](cl_int* error) { return clCreateCommandQueueWithProperties(context, device, list, error); });
}

cl_int legacy_error(cl_context context, cl_device_id device, cl_command_queue_properties properties) {
  return create_error([&](cl_int* error) { return clCreateCommandQueue(context, device, properties, error); });
}

constexpr cl_command_queue_properties kProfiling = CL_QUEUE_PROFILING_ENABLE;

}  // namespace

TEST(Queue, LegacyCreateTakesEveryHostPropertyCombination) {
  Env env;
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo, kProfiling, kOoo | kProfiling}) {
    cl_command_queue queue = make_queue(env.context, env.device, bits);
    ASSERT_NE(queue, nullptr);
    EXPECT_EQ(info_value<cl_command_queue_properties>(clGetCommandQueueInfo, queue, CL_QUEUE_PROPERTIES), bits);
    EXPECT_EQ(info_value<cl_context>(clGetCommandQueueInfo, queue, CL_QUEUE_CONTEXT), env.context);
    EXPECT_EQ(info_value<cl_device_id>(clGetCommandQueueInfo, queue, CL_QUEUE_DEVICE), env.device);
    EXPECT_EQ(info_value<cl_uint>(clGetCommandQueueInfo, queue, CL_QUEUE_REFERENCE_COUNT), 1u);
    EXPECT_TRUE(properties_array(queue).empty()) << "clCreateCommandQueue queues report no property array";
    EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  }
}

TEST(Queue, WithPropertiesReportsTheArrayAsGiven) {
  Env env;
  const std::vector<std::vector<cl_queue_properties>> cases = {
      {CL_QUEUE_PROPERTIES, 0, 0},
      {CL_QUEUE_PROPERTIES, kOoo, 0},
      {CL_QUEUE_PROPERTIES, kProfiling, 0},
      {CL_QUEUE_PROPERTIES, kOoo | kProfiling, 0},
      {0},
  };
  for (const auto& given : cases) {
    cl_int error = 1;
    cl_command_queue queue = clCreateCommandQueueWithProperties(env.context, env.device, given.data(), &error);
    ASSERT_EQ(error, CL_SUCCESS);
    EXPECT_EQ(properties_array(queue), given);
    EXPECT_EQ(info_value<cl_command_queue_properties>(clGetCommandQueueInfo, queue, CL_QUEUE_PROPERTIES),
              given.size() > 1 ? given[1] : 0);
    EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  }
  cl_int error = 1;
  cl_command_queue queue = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_TRUE(properties_array(queue).empty()) << "NULL properties give size 0";
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetCommandQueueInfo, queue, CL_QUEUE_PROPERTIES), 0u);
  EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
}

TEST(Queue, DeviceReportsNoDeviceSideQueues) {
  // What the property checks below rely on; the device must not claim otherwise.
  cl_device_id device = host_device();
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), 0u);
  EXPECT_EQ(
      info_value<cl_device_device_enqueue_capabilities>(clGetDeviceInfo, device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES),
      0u);
  EXPECT_EQ(info_value<cl_command_queue_properties>(clGetDeviceInfo, device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES),
            kOoo | kProfiling);
}

TEST(Queue, DeviceQueuePropertiesAreUnsupported) {
  Env env;
  // Valid combinations the device cannot do.
  EXPECT_EQ(queue_error(env.context, env.device, {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | kOoo, 0}),
            CL_INVALID_QUEUE_PROPERTIES);
  EXPECT_EQ(queue_error(env.context, env.device,
                        {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | kOoo, 0}),
            CL_INVALID_QUEUE_PROPERTIES);
  EXPECT_EQ(queue_error(env.context, env.device,
                        {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | kOoo | kProfiling, CL_QUEUE_SIZE, 1024, 0}),
            CL_INVALID_QUEUE_PROPERTIES);
}

TEST(Queue, InvalidPropertyCombinationsAreInvalidValues) {
  Env env;
  const std::vector<std::vector<cl_queue_properties>> cases = {
      {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0},                                // ON_DEVICE needs OOO
      {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | kProfiling, 0},                   //
      {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | kOoo, 0},                 // DEFAULT needs ON_DEVICE
      {CL_QUEUE_SIZE, 1024, 0},                                                    // SIZE needs ON_DEVICE
      {CL_QUEUE_PROPERTIES, kOoo, CL_QUEUE_SIZE, 1024, 0},                         //
      {CL_QUEUE_PROPERTIES, cl_queue_properties{1} << 10, 0},                      // unknown bit
      {CL_QUEUE_PROPERTIES, kOoo | (cl_queue_properties{1} << 40), 0},             //
      {0x7777, 1, 0},                                                              // unknown property
      {CL_QUEUE_PROPERTIES, kOoo, 0x7777, 1, 0},                                   //
      {CL_QUEUE_PROPERTIES, kOoo, CL_QUEUE_PROPERTIES, kOoo, 0},                   // duplicate
  };
  for (const auto& properties : cases) {
    EXPECT_EQ(queue_error(env.context, env.device, properties), CL_INVALID_VALUE)
        << "properties 0x" << std::hex << properties[0] << " 0x" << properties[1];
  }
}

TEST(Queue, LegacyCreateRejectsNonHostBits) {
  Env env;
  for (cl_command_queue_properties bits : std::vector<cl_command_queue_properties>{CL_QUEUE_ON_DEVICE | kOoo, CL_QUEUE_ON_DEVICE_DEFAULT,
                                           cl_command_queue_properties{1} << 10, kOoo | (cl_command_queue_properties{1} << 50)}) {
    EXPECT_EQ(legacy_error(env.context, env.device, bits), CL_INVALID_VALUE) << "bits 0x" << std::hex << bits;
  }
}

TEST(Queue, InvalidContextOrDevice) {
  Env env;
  cl_event event = user_event(env.context);
  for (cl_context bad : {cl_context{nullptr}, reinterpret_cast<cl_context>(env.queue),
                         reinterpret_cast<cl_context>(event)}) {
    EXPECT_EQ(queue_error(bad, env.device, {}), CL_INVALID_CONTEXT);
    EXPECT_EQ(legacy_error(bad, env.device, 0), CL_INVALID_CONTEXT);
  }
  for (cl_device_id bad : {cl_device_id{nullptr}, reinterpret_cast<cl_device_id>(env.context),
                           reinterpret_cast<cl_device_id>(cucl_platform())}) {
    EXPECT_EQ(queue_error(env.context, bad, {}), CL_INVALID_DEVICE);
    EXPECT_EQ(legacy_error(env.context, bad, 0), CL_INVALID_DEVICE);
  }
  // A valid device that is not in the context (where the machine has more than one).
  for (cl_device_id other : cucl_devices()) {
    if (other == env.device) continue;
    EXPECT_EQ(queue_error(env.context, other, {}), CL_INVALID_DEVICE);
    EXPECT_EQ(legacy_error(env.context, other, 0), CL_INVALID_DEVICE);
  }
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}

TEST(QueueInfo, DeviceQueueOnlyQueries) {
  Env env;
  cl_uint size = 0;
  // CL_QUEUE_SIZE is defined only for device queues.
  EXPECT_EQ(clGetCommandQueueInfo(env.queue, CL_QUEUE_SIZE, sizeof size, &size, nullptr), CL_INVALID_COMMAND_QUEUE);
  // No device queue exists, so there is no default one.
  EXPECT_EQ(info_value<cl_command_queue>(clGetCommandQueueInfo, env.queue, CL_QUEUE_DEVICE_DEFAULT), nullptr);
}

TEST(QueueInfo, BadParamAndSmallBuffer) {
  Env env;
  cl_uint value = 0;
  EXPECT_EQ(clGetCommandQueueInfo(env.queue, 0x10ff, sizeof value, &value, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetCommandQueueInfo(env.queue, CL_QUEUE_REFERENCE_COUNT, 2, &value, nullptr), CL_INVALID_VALUE);
  cl_context context = nullptr;
  EXPECT_EQ(clGetCommandQueueInfo(env.queue, CL_QUEUE_CONTEXT, 4, &context, nullptr), CL_INVALID_VALUE);
  size_t size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(env.queue, CL_QUEUE_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_command_queue_properties));
}

TEST(QueueRefCount, RetainAndRelease) {
  Env env;
  EXPECT_EQ(clRetainCommandQueue(env.queue), CL_SUCCESS);
  EXPECT_EQ(ref_count(env.queue), 2u);
  EXPECT_EQ(clReleaseCommandQueue(env.queue), CL_SUCCESS);
  EXPECT_EQ(ref_count(env.queue), 1u);
}

TEST(QueueRefCount, EventKeepsItsQueueHandleUsable) {
  Env env;
  cl_command_queue queue = make_queue(env.context, env.device, 0);
  cl_event event = marker(queue);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  cl_command_queue reported = nullptr;
  ASSERT_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof reported, &reported, nullptr), CL_SUCCESS);
  EXPECT_EQ(reported, queue);
  EXPECT_EQ(clFinish(reported), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_INVALID_COMMAND_QUEUE);
}

TEST(Queue, FlushAndFinishOnIdleAndBusyQueues) {
  for (cl_command_queue_properties bits : {cl_command_queue_properties{0}, kOoo}) {
    Env env(host_device(), bits);
    EXPECT_EQ(clFlush(env.queue), CL_SUCCESS);
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    std::vector<cl_event> events;
    for (int i = 0; i < 20; ++i) events.push_back(i % 5 == 4 ? barrier(env.queue) : marker(env.queue));
    EXPECT_EQ(clFlush(env.queue), CL_SUCCESS);
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    // clFinish returns only once every earlier command is complete.
    for (cl_event event : events) {
      EXPECT_EQ(event_status(event), CL_COMPLETE);
      EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
    }
  }
}

TEST(Queue, FinishWaitsForCommandsGatedByUserEvents) {
  Env env(host_device(), kOoo);
  cl_event gate = user_event(env.context);
  cl_event gated = marker(env.queue, {gate});
  std::atomic<bool> finished{false};
  std::thread finisher([&] {
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    finished = true;
  });
  // clFinish cannot return while the gate is open; the status proves the command waited.
  EXPECT_EQ(event_status(gated), CL_QUEUED);
  EXPECT_FALSE(finished.load());
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  finisher.join();
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(event_status(gated), CL_COMPLETE);
  release_all({gated, gate});
}

TEST(QueueHandle, ReleasedNullAndWrongTypeAreInvalid) {
  Env env;
  cl_command_queue released = make_queue(env.context, env.device, 0);
  ASSERT_EQ(clReleaseCommandQueue(released), CL_SUCCESS);
  cl_event event = user_event(env.context);
  cl_uint context_refs = ref_count(env.context);
  for (cl_command_queue bad : {released, cl_command_queue{nullptr}, reinterpret_cast<cl_command_queue>(env.context),
                               reinterpret_cast<cl_command_queue>(event)}) {
    cl_uint value = 0;
    EXPECT_EQ(clGetCommandQueueInfo(bad, CL_QUEUE_REFERENCE_COUNT, sizeof value, &value, nullptr),
              CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clRetainCommandQueue(bad), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clReleaseCommandQueue(bad), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clFlush(bad), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clFinish(bad), CL_INVALID_COMMAND_QUEUE);
    cl_event out = nullptr;
    EXPECT_EQ(clEnqueueMarkerWithWaitList(bad, 0, nullptr, &out), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clEnqueueBarrierWithWaitList(bad, 0, nullptr, &out), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clEnqueueMarker(bad, &out), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clEnqueueBarrier(bad), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(clEnqueueWaitForEvents(bad, 1, &event), CL_INVALID_COMMAND_QUEUE);
    EXPECT_EQ(out, nullptr);
  }
  EXPECT_EQ(ref_count(env.context), context_refs) << "failed calls must not touch the objects they wrongly got";
  EXPECT_EQ(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(event), CL_SUCCESS);
}
