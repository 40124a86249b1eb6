#include "platform/memory/memory.h"

#include <algorithm>

#include "base/error.h"

namespace cucl {

MemObject::MemObject(Ref<Context> context, cl_mem_object_type type, cl_mem_flags flags, size_t size,
                     void* host_ptr, std::vector<cl_mem_properties> properties)
    : Object(ObjectKind::Memory),
      context_(std::move(context)),
      context_pin_(context_),
      type_(type),
      flags_(flags),
      size_(size),
      host_ptr_(host_ptr),
      properties_(std::move(properties)),
      uses_svm_pointer_((flags & CL_MEM_USE_HOST_PTR) && host_ptr && context_->svm().find(host_ptr)) {}

MemObject::~MemObject() { destructor_callbacks_.run(id()); }

backend::Memory& MemObject::storage(Device& device) {
  if (backend::Memory* memory = published_storage_.find(&device)) return *memory;
  std::lock_guard lock(mutex_);
  for (auto& [owner, memory] : storage_) {
    if (owner == &device) return *memory;
  }
  void* use_host_ptr = (flags_ & CL_MEM_USE_HOST_PTR) ? host_ptr_ : nullptr;
  auto memory = device.backend().allocate(size_, use_host_ptr, flags_ & CL_MEM_ALLOC_HOST_PTR);
  check(memory != nullptr, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  if ((flags_ & CL_MEM_COPY_HOST_PTR) && host_ptr_) write_host_contents(*memory, host_ptr_);
  storage_.emplace_back(&device, std::move(memory));
  published_storage_.add(&device, storage_.back().second.get());
  return *storage_.back().second;
}

void MemObject::allocate_everywhere() {
  for (Device* device : context_->devices()) storage(*device);
  std::lock_guard lock(mutex_);
  if (!(flags_ & CL_MEM_USE_HOST_PTR)) host_ptr_ = nullptr;
}

backend::Location MemObject::location(Device& device, size_t offset) {
  return backend::Location{&storage(device), nullptr, offset};
}

unsigned MemObject::device_count() const { return static_cast<unsigned>(context_->devices().size()); }

backend::Memory& MemObject::memory_on(unsigned device) { return storage(*context_->devices()[device]); }

backend::Stream& MemObject::transfer_stream(unsigned device) {
  return context_->transfer_stream(*context_->devices()[device]);
}

bool MemObject::host_memory(unsigned device) const {
  // The host device's allocations are plain host memory (backends/host/host_memory.h).
  return context_->devices()[device]->type() & CL_DEVICE_TYPE_CPU;
}

bool MemObject::direct_copy(unsigned source, unsigned destination) {
  const std::vector<Device*>& devices = context_->devices();
  return devices[destination]->backend().copies_directly_from(devices[source]->backend());
}

void note_access(std::vector<MemoryAccess>& accesses, const Device& device, MemObject& memory, size_t offset,
                 size_t size, Access access) {
  const std::vector<Device*>& devices = memory.context().devices();
  // Memory on an SVM pointer is one memory that every device reaches: nothing to copy.
  if (devices.size() < 2 || size == 0 || memory.uses_svm_pointer()) return;
  check(devices.size() <= ValidityMap::kMaxDevices, CL_OUT_OF_RESOURCES);
  const auto index = static_cast<unsigned>(memory.context().device_index(device));
  check(index < devices.size(), CL_INVALID_DEVICE);
  size_t begin = memory.storage_offset() + offset;
  accesses.push_back(MemoryAccess{&memory.storage_owner(), index, begin, begin + size, access});
}

void MemObject::add_mapping(const Mapping& mapping) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(mapping);
}

std::optional<Mapping> MemObject::take_mapping(void* pointer) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(mappings_.begin(), mappings_.end(), [&](const Mapping& m) { return m.pointer == pointer; });
  if (it == mappings_.end()) return std::nullopt;
  Mapping mapping = *it;
  mappings_.erase(it);
  return mapping;
}

std::optional<Mapping> MemObject::find_mapping(void* pointer) const {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(mappings_.begin(), mappings_.end(), [&](const Mapping& m) { return m.pointer == pointer; });
  if (it == mappings_.end()) return std::nullopt;
  return *it;
}

cl_uint MemObject::map_count() const {
  std::lock_guard lock(mutex_);
  return static_cast<cl_uint>(mappings_.size());
}

Buffer::Buffer(Ref<Context> context, cl_mem_flags flags, size_t size, void* host_ptr,
               std::vector<cl_mem_properties> properties)
    : MemObject(std::move(context), CL_MEM_OBJECT_BUFFER, flags, size, host_ptr, std::move(properties)) {}

Buffer::Buffer(Ref<Buffer> parent, cl_mem_flags flags, size_t origin, size_t size)
    : MemObject(Ref<Context>(&parent->context()), CL_MEM_OBJECT_BUFFER, flags, size,
                parent->host_ptr() && (parent->flags() & CL_MEM_USE_HOST_PTR)
                    ? static_cast<char*>(parent->host_ptr()) + origin
                    : nullptr,
                {}),
      parent_(std::move(parent)),
      parent_pin_(parent_),
      origin_(origin) {}

void Buffer::fix_device_addresses() {
  allocate_everywhere();
  device_addresses_fixed_ = true;
  // Only a kernel on one of several devices has to find the buffer behind a device pointer, to
  // make its copy current (note_access); memory on an SVM pointer is one copy already.
  if (context().devices().size() > 1 && !uses_svm_pointer()) {
    context().device_addresses().add(id(), device_addresses(), size());
  }
}

std::vector<uint64_t> Buffer::device_addresses() {
  std::vector<uint64_t> addresses;
  for (Device* device : context().devices()) {
    const backend::Location start = location(*device, 0);
    addresses.push_back(start.memory->kernel_address(start.offset));
  }
  return addresses;
}

void Buffer::on_api_released() {
  if (!parent_ && device_addresses_fixed_) context().device_addresses().remove(id());
  parent_pin_.reset();
  MemObject::on_api_released();
}

backend::Location Buffer::location(Device& device, size_t offset) {
  if (parent_) return parent_->location(device, origin_ + offset);
  return MemObject::location(device, offset);
}

namespace {

bool maps_for_writing(cl_map_flags flags) {
  // No flags at all is treated as read and write.
  return flags == 0 || (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION));
}

}  // namespace

void Buffer::add_buffer_mapping(const Mapping& mapping) {
  Buffer& storage_owner = root();
  StorageMapping entry{this, mapping.pointer, origin_ + mapping.offset, origin_ + mapping.offset + mapping.size,
                       maps_for_writing(mapping.flags)};
  {
    std::lock_guard lock(storage_owner.storage_mappings_mutex_);
    for (const StorageMapping& other : storage_owner.storage_mappings_) {
      bool overlap = entry.begin < other.end && other.begin < entry.end;
      check(!(overlap && (entry.writes || other.writes)), CL_INVALID_OPERATION);
    }
    storage_owner.storage_mappings_.push_back(entry);
  }
  add_mapping(mapping);
}

std::optional<Mapping> Buffer::take_buffer_mapping(void* pointer) {
  auto mapping = take_mapping(pointer);
  if (!mapping) return mapping;
  Buffer& storage_owner = root();
  std::lock_guard lock(storage_owner.storage_mappings_mutex_);
  auto& entries = storage_owner.storage_mappings_;
  auto it = std::find_if(entries.begin(), entries.end(), [&](const StorageMapping& m) {
    return m.owner == this && m.pointer == pointer && m.begin == origin_ + mapping->offset;
  });
  if (it != entries.end()) entries.erase(it);
  return mapping;
}

}  // namespace cucl
