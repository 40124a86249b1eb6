#include "platform/objects/object.h"

#include "platform/objects/platform.h"

namespace cucl {

Registry& live_handles() { return Platform::instance().registry(); }

void Object::publish(Registry& registry) {
  api_refs_.store(1, std::memory_order_release);
  hold();  // the registry listing's hold
  registry.insert(this);
}

bool Object::retain_api() {
  cl_uint count = api_refs_.load(std::memory_order_relaxed);
  do {
    if (count == 0) return false;
  } while (!api_refs_.compare_exchange_weak(count, count + 1, std::memory_order_acq_rel));
  return true;
}

bool Object::release_api() {
  cl_uint count = api_refs_.load(std::memory_order_relaxed);
  do {
    if (count == 0) return false;
  } while (!api_refs_.compare_exchange_weak(count, count - 1, std::memory_order_acq_rel));
  if (count == 1) {
    live_handles().erase(this);
    on_api_released();
    drop();  // the registry listing's hold
  }
  return true;
}

}  // namespace cucl
