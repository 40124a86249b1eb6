#include "platform/objects/context.h"
#include "platform/info/info.h"

namespace cucl {

void context_info(Context& context, cl_context_info param, InfoWriter& out) {
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return out.scalar(context.api_ref_count());
    case CL_CONTEXT_NUM_DEVICES: return out.scalar(static_cast<cl_uint>(context.devices().size()));
    case CL_CONTEXT_DEVICES: {
      std::vector<cl_device_id> ids;
      for (Device* device : context.devices()) ids.push_back(device->id());
      return out.array(ids);
    }
    case CL_CONTEXT_PROPERTIES: return out.array(context.properties());
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl
