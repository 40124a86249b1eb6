#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "platform/memory/device_address_ranges.h"
#include "platform/memory/svm_allocations.h"
#include "platform/objects/callback_list.h"
#include "platform/objects/device.h"
#include "platform/objects/object.h"

namespace cucl {

using ContextNotify = void(CL_CALLBACK*)(const char* errinfo, const void* private_info, size_t cb,
                                         void* user_data);

class Context final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Context;
  static constexpr cl_int kInvalidHandle = CL_INVALID_CONTEXT;

  Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties, ContextNotify notify,
          void* notify_user_data);
  ~Context() override;

  const std::vector<Device*>& devices() const { return devices_; }
  bool has_device(const Device* device) const;
  // Where `device` is in devices() (devices().size() when it is not one of them).
  size_t device_index(const Device& device) const;
  // The properties as given, terminating zero included (empty if none were given).
  const std::vector<cl_context_properties>& properties() const { return properties_; }
  // Reports an error to the application's notify callback, if it gave one.
  void notify(const std::string& message) const;
  void add_destructor_callback(DestructorCallbacks<cl_context>::Function function, void* user_data) {
    destructor_callbacks_.add(function, user_data);
  }
  // Largest CL_DEVICE_MAX_MEM_ALLOC_SIZE over the context's devices.
  cl_ulong max_mem_alloc_size() const;
  // A stream on `device` (one of the context's) for the copies that keep memory objects
  // current between the context's devices; made on first use.
  backend::Stream& transfer_stream(Device& device);
  cl_context id() { return reinterpret_cast<cl_context>(handle()); }
  // The context's SVM allocations; those not freed go with it.
  SvmAllocations& svm() { return svm_; }
  // Where the context's buffers with device addresses lie on each device.
  DeviceAddressRanges& device_addresses() { return device_addresses_; }

 private:
  std::vector<Device*> devices_;
  std::vector<cl_context_properties> properties_;
  ContextNotify notify_;
  void* notify_user_data_;
  DestructorCallbacks<cl_context> destructor_callbacks_;
  std::mutex transfer_streams_mutex_;
  std::vector<std::unique_ptr<backend::Stream>> transfer_streams_;  // by index in devices_
  SvmAllocations svm_;
  DeviceAddressRanges device_addresses_;
};

}  // namespace cucl
