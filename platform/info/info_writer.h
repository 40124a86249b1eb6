// Writes the answer of a clGet*Info query with the spec's size rules: a too small buffer
// gives CL_INVALID_VALUE, a null buffer only reports the size.
#pragma once

#include <CL/cl.h>

#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"

namespace cucl {

class InfoWriter {
 public:
  InfoWriter(size_t size, void* value, size_t* size_ret) : size_(size), value_(value), size_ret_(size_ret) {}

  void bytes(const void* data, size_t n) {
    if (value_) {
      check(size_ >= n, CL_INVALID_VALUE);
      if (n) std::memcpy(value_, data, n);
    }
    if (size_ret_) *size_ret_ = n;
  }
  template <class T>
  void scalar(const T& v) {
    bytes(&v, sizeof v);
  }
  void string(const std::string& s) { bytes(s.c_str(), s.size() + 1); }
  // The application's param_value_size, for the queries whose answer's shape it chooses, and
  // whether it gave room for the answer (param_value) at all.
  size_t capacity() const { return size_; }
  bool has_value() const { return value_ != nullptr; }
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }

 private:
  size_t size_;
  void* value_;
  size_t* size_ret_;
};

}  // namespace cucl
