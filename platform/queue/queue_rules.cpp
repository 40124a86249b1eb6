#include "platform/queue/queue_rules.h"

#include "base/error.h"

namespace cucl {
namespace {

constexpr cl_command_queue_properties kHostQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
constexpr cl_command_queue_properties kKnownQueueProperties =
    kHostQueueProperties | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

// The combination rules (CL_INVALID_VALUE), then what the device supports
// (CL_INVALID_QUEUE_PROPERTIES).
Ref<Queue> checked_queue(Context& context, Device& device, cl_command_queue_properties bits, bool has_size,
                         std::vector<cl_queue_properties> array) {
  check(!(bits & ~kKnownQueueProperties), CL_INVALID_VALUE);
  bool on_device = bits & CL_QUEUE_ON_DEVICE;
  check(!on_device || (bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), CL_INVALID_VALUE);
  check(!(bits & CL_QUEUE_ON_DEVICE_DEFAULT) || on_device, CL_INVALID_VALUE);
  check(!has_size || on_device, CL_INVALID_VALUE);
  check(!(bits & ~device.description().queue_on_host_properties), CL_INVALID_QUEUE_PROPERTIES);
  return make<Queue>(Ref<Context>(&context), &device, bits, std::move(array));
}

}  // namespace

Ref<Queue> create_queue(Context& context, Device& device, const cl_queue_properties* properties) {
  check(context.has_device(&device), CL_INVALID_DEVICE);
  cl_command_queue_properties bits = 0;
  bool has_bits = false, has_size = false;
  std::vector<cl_queue_properties> array;
  if (properties) {
    for (const cl_queue_properties* p = properties; *p; p += 2) {
      switch (p[0]) {
        case CL_QUEUE_PROPERTIES:
          check(!has_bits, CL_INVALID_VALUE);
          has_bits = true;
          bits = p[1];
          break;
        case CL_QUEUE_SIZE:
          check(!has_size, CL_INVALID_VALUE);
          has_size = true;
          break;
        default: fail(CL_INVALID_VALUE);
      }
      array.push_back(p[0]);
      array.push_back(p[1]);
    }
    array.push_back(0);
  }
  return checked_queue(context, device, bits, has_size, std::move(array));
}

Ref<Queue> create_legacy_queue(Context& context, Device& device, cl_command_queue_properties properties) {
  check(context.has_device(&device), CL_INVALID_DEVICE);
  check(!(properties & ~kHostQueueProperties), CL_INVALID_VALUE);
  return checked_queue(context, device, properties, false, {});
}

void set_queue_property(Queue&, cl_command_queue_properties, cl_bool, cl_command_queue_properties*) {
  fail(CL_INVALID_OPERATION);
}

void set_default_device_command_queue(Context& context, Device& device, cl_command_queue) {
  check(context.has_device(&device), CL_INVALID_DEVICE);
  fail(CL_INVALID_OPERATION);
}

}  // namespace cucl
