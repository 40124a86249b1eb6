#include "platform/queue_rules.h"

#include "platform/error.h"

namespace cucl {
namespace {

constexpr cl_command_queue_properties kKnownQueueProperties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                                              CL_QUEUE_ON_DEVICE_DEFAULT;

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
  check(!(bits & ~kKnownQueueProperties), CL_INVALID_VALUE);
  bool on_device = bits & CL_QUEUE_ON_DEVICE;
  check(!on_device || (bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), CL_INVALID_VALUE);
  check(!(bits & CL_QUEUE_ON_DEVICE_DEFAULT) || on_device, CL_INVALID_VALUE);
  check(!has_size || on_device, CL_INVALID_VALUE);
  // The properties are valid; can this device do them?
  check(!(bits & ~device.description().queue_on_host_properties), CL_INVALID_QUEUE_PROPERTIES);
  return make<Queue>(Ref<Context>(&context), &device, bits, std::move(array));
}

}  // namespace cucl
