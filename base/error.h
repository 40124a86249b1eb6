// Errors travel through platform/ as exceptions and become cl_int at the icd/ boundary.
#pragma once

#include <CL/cl.h>

#include <exception>

namespace cucl {

class Error : public std::exception {
 public:
  explicit Error(cl_int code) : code_(code) {}
  cl_int code() const noexcept { return code_; }
  // Out of line (base/error.cpp) so that the vtable and type information are made once,
  // with RTTI: the compiler's files are built without it (they use LLVM).
  const char* what() const noexcept override;

 private:
  cl_int code_;
};

[[noreturn]] inline void fail(cl_int code) { throw Error(code); }

inline void check(bool condition, cl_int code) {
  if (!condition) fail(code);
}

}  // namespace cucl
