// cl_mem objects. MemObject holds what every memory object has (flags, size, host pointer,
// per-device storage and its coherence, mappings, destructor callbacks); Buffer adds
// sub-buffers. Images will derive from MemObject too.
#pragma once

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "platform/objects/api_ref.h"
#include "platform/objects/callback_list.h"
#include "platform/objects/context.h"
#include "platform/memory/memory_access.h"
#include "platform/memory/memory_coherence.h"
#include "platform/memory/published_storage.h"
#include "platform/objects/lookup.h"
#include "platform/objects/object.h"

namespace cucl {

struct Mapping {
  void* pointer;
  size_t offset;
  size_t size;
  cl_map_flags flags;
  backend::Location source{};  // the device memory map_pointer() was asked for; unmap writes back there
  Device* device = nullptr;    // the device of the map's queue, whose memory `source` is
};

class MemObject : public Object, private CoherentStorage {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Memory;
  static constexpr cl_int kInvalidHandle = CL_INVALID_MEM_OBJECT;

  ~MemObject() override;

  Context& context() const { return *context_; }
  cl_mem_object_type type() const { return type_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  void* host_ptr() const { return host_ptr_; }
  // CL_MEM_USES_SVM_POINTER: CL_MEM_USE_HOST_PTR memory whose host pointer is in an SVM
  // allocation of the context.
  bool uses_svm_pointer() const { return uses_svm_pointer_; }
  bool is_application_memory() const override { return (flags_ & CL_MEM_USE_HOST_PTR) && !uses_svm_pointer_; }
  const std::vector<cl_mem_properties>& properties() const { return properties_; }
  cl_mem id() { return reinterpret_cast<cl_mem>(handle()); }
  // CL_MEM_ASSOCIATED_MEMOBJECT and CL_MEM_OFFSET: what this object was made from, and where.
  virtual MemObject* associated() const { return nullptr; }
  virtual size_t associated_offset() const { return 0; }

  // Allocates on every device of the context now. CL_MEM_COPY_HOST_PTR needs this: the
  // application may reuse host_ptr as soon as create returns, so host_ptr() is forgotten
  // afterwards unless it is CL_MEM_USE_HOST_PTR storage.
  void allocate_everywhere();

  // Where byte `offset` of this object lives on `device`, allocating it there on first use.
  // Throws CL_MEM_OBJECT_ALLOCATION_FAILURE when the device has no room.
  virtual backend::Location location(Device& device, size_t offset);

  // The object whose storage (and coherence) this one uses, and where this one starts in
  // it: itself and 0, except for sub-buffers.
  virtual MemObject& storage_owner() { return *this; }
  virtual size_t storage_offset() const { return 0; }
  // Which devices hold current copies of this object's own storage (storage owners only).
  MemoryCoherence& coherence() { return coherence_; }

  void add_destructor_callback(DestructorCallbacks<cl_mem>::Function function, void* user_data) {
    destructor_callbacks_.add(function, user_data);
  }

  void add_mapping(const Mapping& mapping);
  // Removes and returns the mapping at `pointer`, if there is one.
  std::optional<Mapping> take_mapping(void* pointer);
  std::optional<Mapping> find_mapping(void* pointer) const;
  cl_uint map_count() const;

 protected:
  MemObject(Ref<Context> context, cl_mem_object_type type, cl_mem_flags flags, size_t size, void* host_ptr,
            std::vector<cl_mem_properties> properties);
  // For derived destructors whose members must outlive the callbacks (a sub-buffer's
  // parent); runs them once, the base destructor then finds none left.
  void run_destructor_callbacks() { destructor_callbacks_.run(id()); }
  void on_api_released() override { context_pin_.reset(); }
  // CL_MEM_COPY_HOST_PTR: puts the application's bytes into newly allocated storage.
  virtual void write_host_contents(backend::Memory& memory, const void* host_ptr) {
    memory.write_now(0, host_ptr, size_);
  }

 private:
  backend::Memory& storage(Device& device);

  // CoherentStorage, for coherence_.
  unsigned device_count() const override;
  backend::Memory& memory_on(unsigned device) override;
  backend::Stream& transfer_stream(unsigned device) override;
  bool host_memory(unsigned device) const override;
  bool direct_copy(unsigned source, unsigned destination) override;

  Ref<Context> context_;
  ApiRef<Context> context_pin_;  // CL_MEM_CONTEXT is a valid handle while this one is (see ApiRef)
  cl_mem_object_type type_;
  cl_mem_flags flags_;
  size_t size_;
  void* host_ptr_;
  std::vector<cl_mem_properties> properties_;
  bool uses_svm_pointer_;
  DestructorCallbacks<cl_mem> destructor_callbacks_;

  mutable std::mutex mutex_;
  std::vector<std::pair<Device*, std::unique_ptr<backend::Memory>>> storage_;
  PublishedStorage published_storage_;  // storage_'s first entries, read without mutex_
  std::vector<Mapping> mappings_;
  MemoryCoherence coherence_{*this, size_};
};

// The live memory object of kind T (Buffer, Image) behind `handle`; any other handle is
// CL_INVALID_MEM_OBJECT. T::has_type tells T's objects by their cl_mem_object_type, which
// costs less than a dynamic_cast on every enqueue.
template <class T>
Ref<T> lookup_memory_as(cl_mem handle) {
  auto memory = lookup<MemObject>(handle);
  check(T::has_type(memory->type()), CL_INVALID_MEM_OBJECT);
  return Ref<T>::adopt(static_cast<T*>(memory.release()));
}

// Notes that a command on `device` uses [offset, offset + size) of `memory` as `access`
// says, so that the command's device has the current bytes when it runs. Only contexts
// with several devices need this; in others it records nothing.
void note_access(std::vector<MemoryAccess>& accesses, const Device& device, MemObject& memory, size_t offset,
                 size_t size, Access access);

class Buffer final : public MemObject {
 public:
  Buffer(Ref<Context> context, cl_mem_flags flags, size_t size, void* host_ptr,
         std::vector<cl_mem_properties> properties);
  // A sub-buffer of `parent` covering [origin, origin + size).
  Buffer(Ref<Buffer> parent, cl_mem_flags flags, size_t origin, size_t size);
  ~Buffer() override { run_destructor_callbacks(); }  // before the parent can go
  static bool has_type(cl_mem_object_type type) { return type == CL_MEM_OBJECT_BUFFER; }

  Buffer* parent() const { return parent_.get(); }
  size_t origin() const { return origin_; }
  // The buffer whose storage this one uses (itself unless it is a sub-buffer).
  Buffer& root() { return parent_ ? *parent_ : *this; }
  MemObject* associated() const override { return parent_.get(); }
  size_t associated_offset() const override { return origin_; }
  backend::Location location(Device& device, size_t offset) override;
  MemObject& storage_owner() override { return root(); }
  size_t storage_offset() const override { return origin_; }

  // CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (a buffer, not a sub-buffer): allocates on every device
  // of the context now, so that the buffer keeps one address on each for its life, and lists
  // those where a device pointer must find the buffer (DeviceAddressRanges).
  void fix_device_addresses();
  // Whether this buffer, or a sub-buffer's parent, has fixed device addresses.
  bool has_device_addresses() const { return parent_ ? parent_->device_addresses_fixed_ : device_addresses_fixed_; }
  // Where this buffer starts on each device of the context, in the context's order (a
  // sub-buffer: its parent's address plus its origin).
  std::vector<uint64_t> device_addresses();

  // Mappings of buffers go through these (not add_mapping/take_mapping directly): a region
  // mapped for writing may not overlap any other mapped region of the same storage, also
  // through the parent or another sub-buffer; that throws CL_INVALID_OPERATION.
  void add_buffer_mapping(const Mapping& mapping);
  std::optional<Mapping> take_buffer_mapping(void* pointer);

 private:
  struct StorageMapping {  // kept by the root buffer, in its offsets
    const Buffer* owner;
    void* pointer;
    size_t begin, end;
    bool writes;
  };

  void on_api_released() override;

  Ref<Buffer> parent_;
  ApiRef<Buffer> parent_pin_;  // CL_MEM_ASSOCIATED_MEMOBJECT stays a valid handle likewise
  size_t origin_ = 0;
  bool device_addresses_fixed_ = false;
  std::mutex storage_mappings_mutex_;
  std::vector<StorageMapping> storage_mappings_;
};

}  // namespace cucl
