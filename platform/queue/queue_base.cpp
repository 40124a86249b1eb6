#include "platform/queue/queue_base.h"

namespace cucl {

QueueBase::QueueBase(Ref<Context> context, Device* device, cl_command_queue_properties properties,
                     std::vector<cl_queue_properties> properties_array)
    : Object(ObjectKind::Queue),
      context_(std::move(context)),
      context_pin_(context_),
      device_(device),
      properties_(properties),
      properties_array_(std::move(properties_array)),
      stream_(device->backend().create_stream()),
      pipelined_(in_order() && stream_->runs_in_submission_order() && (!profiling() || stream_->times_work())) {}

QueueBase::~QueueBase() = default;

}  // namespace cucl
