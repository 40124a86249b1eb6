// Destructor callbacks (contexts, memory objects): called once, newest first, as the spec
// requires.
#pragma once

#include <CL/cl.h>

#include <mutex>
#include <vector>

#include "base/error.h"

namespace cucl {

template <class Handle>
class DestructorCallbacks {
 public:
  using Function = void(CL_CALLBACK*)(Handle, void*);

  // clSet*DestructorCallback: a null function is CL_INVALID_VALUE.
  void add(Function function, void* user_data) {
    check(function != nullptr, CL_INVALID_VALUE);
    std::lock_guard lock(mutex_);
    callbacks_.push_back({function, user_data});
  }

  void run(Handle handle) {
    for (auto it = callbacks_.rbegin(); it != callbacks_.rend(); ++it) it->function(handle, it->user_data);
    callbacks_.clear();
  }

 private:
  struct Entry {
    Function function;
    void* user_data;
  };
  std::mutex mutex_;
  std::vector<Entry> callbacks_;
};

}  // namespace cucl
