// cl_mem objects. MemObject holds what every memory object has (flags, size, host pointer,
// per-device storage, mappings, destructor callbacks); Buffer adds sub-buffers. Images
// will derive from MemObject too.
#pragma once

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "platform/callback_list.h"
#include "platform/context.h"
#include "platform/object.h"

namespace cucl {

struct Mapping {
  void* pointer;
  size_t offset;
  size_t size;
  cl_map_flags flags;
};

class MemObject : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Memory;
  static constexpr cl_int kInvalidHandle = CL_INVALID_MEM_OBJECT;

  ~MemObject() override;

  Context& context() const { return *context_; }
  cl_mem_object_type type() const { return type_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  void* host_ptr() const { return host_ptr_; }
  const std::vector<cl_mem_properties>& properties() const { return properties_; }
  cl_mem id() { return reinterpret_cast<cl_mem>(handle()); }

  // Where byte `offset` of this object lives on `device`, allocating it there on first use.
  // Throws CL_MEM_OBJECT_ALLOCATION_FAILURE when the device has no room.
  virtual backend::Location location(Device& device, size_t offset);

  void add_destructor_callback(DestructorCallbacks<cl_mem>::Function function, void* user_data) {
    destructor_callbacks_.add(function, user_data);
  }

  void add_mapping(const Mapping& mapping);
  // Removes and returns the mapping at `pointer`, if there is one.
  std::optional<Mapping> take_mapping(void* pointer);
  cl_uint map_count() const;

 protected:
  MemObject(Ref<Context> context, cl_mem_object_type type, cl_mem_flags flags, size_t size, void* host_ptr,
            std::vector<cl_mem_properties> properties);

 private:
  backend::Memory& storage(Device& device);

  Ref<Context> context_;
  cl_mem_object_type type_;
  cl_mem_flags flags_;
  size_t size_;
  void* host_ptr_;
  std::vector<cl_mem_properties> properties_;
  DestructorCallbacks<cl_mem> destructor_callbacks_;

  mutable std::mutex mutex_;
  std::vector<std::pair<Device*, std::unique_ptr<backend::Memory>>> storage_;
  std::vector<Mapping> mappings_;
};

class Buffer final : public MemObject {
 public:
  Buffer(Ref<Context> context, cl_mem_flags flags, size_t size, void* host_ptr,
         std::vector<cl_mem_properties> properties);
  // A sub-buffer of `parent` covering [origin, origin + size).
  Buffer(Ref<Buffer> parent, cl_mem_flags flags, size_t origin, size_t size);

  Buffer* parent() const { return parent_.get(); }
  size_t origin() const { return origin_; }
  backend::Location location(Device& device, size_t offset) override;

 private:
  Ref<Buffer> parent_;
  size_t origin_ = 0;
};

}  // namespace cucl
