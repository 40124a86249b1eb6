#include "platform/objects/context.h"

#include <algorithm>

namespace cucl {

Context::Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties, ContextNotify notify,
                 void* notify_user_data)
    : Object(ObjectKind::Context),
      devices_(std::move(devices)),
      properties_(std::move(properties)),
      notify_(notify),
      notify_user_data_(notify_user_data) {}

Context::~Context() { destructor_callbacks_.run(id()); }

bool Context::has_device(const Device* device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

size_t Context::device_index(const Device& device) const {
  return static_cast<size_t>(std::find(devices_.begin(), devices_.end(), &device) - devices_.begin());
}

void Context::notify(const std::string& message) const {
  if (notify_) notify_(message.c_str(), nullptr, 0, notify_user_data_);
}

cl_ulong Context::max_mem_alloc_size() const {
  cl_ulong largest = 0;
  for (const Device* device : devices_) largest = std::max(largest, device->description().max_mem_alloc_size);
  return largest;
}

backend::Stream& Context::transfer_stream(Device& device) {
  const size_t index = device_index(device);
  std::lock_guard lock(transfer_streams_mutex_);
  if (transfer_streams_.empty()) transfer_streams_.resize(devices_.size());
  auto& stream = transfer_streams_.at(index);
  if (!stream) stream = device.backend().create_stream();
  return *stream;
}

}  // namespace cucl
