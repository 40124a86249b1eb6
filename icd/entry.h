// The shape of every entry point: run the body, turn cucl::Error and allocation failure
// into the cl_int the caller expects.
#pragma once

#include <CL/cl.h>

#include <new>

#include "platform/error.h"
#include "platform/handle.h"
#include "platform/lookup.h"

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

}  // namespace cucl::icd
