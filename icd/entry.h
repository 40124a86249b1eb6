// The shape of every entry point: run the body, turn cucl::Error and allocation failure
// into the cl_int the caller expects.
#pragma once

#include <CL/cl.h>

#include <new>

#include "base/error.h"
#include "platform/objects/handle.h"
#include "platform/info/info_writer.h"
#include "platform/objects/lookup.h"

namespace cucl::icd {

template <class Body>
cl_int guard(Body&& body) noexcept {
  try {
    body();
    return CL_SUCCESS;
  } catch (const Error& error) {
    return error.code();
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

// For the create* calls: the body returns a handle; errors go to errcode_ret.
template <class Body>
auto guard_create(cl_int* errcode_ret, Body&& body) noexcept -> decltype(body()) {
  decltype(body()) result = nullptr;
  cl_int code = guard([&] { result = body(); });
  if (errcode_ret) *errcode_ret = code;
  return code == CL_SUCCESS ? result : nullptr;
}

// clRetain*/clRelease*: a handle whose last API reference is already gone is invalid.
template <class T>
cl_int retain(const void* handle) noexcept {
  return guard([&] { check(lookup<T>(handle)->retain_api(), T::kInvalidHandle); });
}

template <class T>
cl_int release(const void* handle) noexcept {
  return guard([&] { check(lookup<T>(handle)->release_api(), T::kInvalidHandle); });
}

// clGet*Info: finds the object and lets `answer(object, param, writer)` fill the value.
template <class T, class Param, class Answer>
cl_int query(const void* handle, Param param, size_t size, void* value, size_t* size_ret, Answer answer) noexcept {
  return guard([&] {
    auto object = lookup<T>(handle);
    InfoWriter out(size, value, size_ret);
    answer(*object, param, out);
  });
}

}  // namespace cucl::icd
