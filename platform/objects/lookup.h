// Turning API handles into objects. Each object class names its kind and the error a bad
// handle of that type gets (e.g. Context::kKind, Context::kInvalidHandle = CL_INVALID_CONTEXT).
#pragma once

#include <vector>

#include "base/error.h"
#include "platform/objects/object.h"

namespace cucl {

template <class T>
Ref<T> lookup_or_null(const void* handle) {
  return Ref<T>::adopt(static_cast<T*>(live_handles().acquire(handle, T::kKind)));
}

template <class T>
Ref<T> lookup(const void* handle) {
  Ref<T> object = lookup_or_null<T>(handle);
  if (!object) fail(T::kInvalidHandle);
  return object;
}

// An optional handle: null stays null, anything else must be live (queries whose device
// may be left out).
template <class T>
Ref<T> lookup_optional(const void* handle) {
  return handle ? lookup<T>(handle) : Ref<T>();
}

// A list of handles (wait lists, device lists); `count` and `list` must agree.
template <class T, class Handle>
std::vector<Ref<T>> lookup_list(cl_uint count, const Handle* list, cl_int list_error) {
  check((count == 0) == (list == nullptr), list_error);
  std::vector<Ref<T>> objects;
  objects.reserve(count);
  for (cl_uint i = 0; i < count; ++i) objects.push_back(lookup<T>(list[i]));
  return objects;
}

}  // namespace cucl
