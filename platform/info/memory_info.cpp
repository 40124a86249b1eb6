#include "platform/info/info.h"
#include "platform/memory/device_address_rules.h"
#include "platform/memory/memory.h"

namespace cucl {

void mem_object_info(MemObject& memory, cl_mem_info param, InfoWriter& out) {
  switch (param) {
    case CL_MEM_TYPE: return out.scalar(memory.type());
    case CL_MEM_FLAGS: return out.scalar(memory.flags());
    case CL_MEM_SIZE: return out.scalar(memory.size());
    case CL_MEM_HOST_PTR:
      // Only CL_MEM_USE_HOST_PTR memory reports its host pointer (plus origin for sub-buffers).
      return out.scalar((memory.flags() & CL_MEM_USE_HOST_PTR) ? memory.host_ptr() : nullptr);
    case CL_MEM_MAP_COUNT: return out.scalar(memory.map_count());
    case CL_MEM_REFERENCE_COUNT: return out.scalar(memory.api_ref_count());
    case CL_MEM_CONTEXT: return out.scalar(memory.context().id());
    case CL_MEM_ASSOCIATED_MEMOBJECT: return out.scalar(memory.associated() ? memory.associated()->id() : nullptr);
    case CL_MEM_OFFSET: return out.scalar(memory.associated_offset());
    case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(memory.uses_svm_pointer() ? CL_TRUE : CL_FALSE);
    case CL_MEM_PROPERTIES: return out.array(memory.properties());
    case CL_MEM_DEVICE_ADDRESS_EXT: return out.array(device_address_info(memory));
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl
