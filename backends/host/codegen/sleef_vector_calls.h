// SLEEF's vector functions for the host vectoriser's calls: the builtin library calls
// SLEEF's scalar functions (Sleef_sinf_u10, Sleef_pow_u10, Sleef_fmodf, ...), and SLEEF
// exports each with the same accuracy for 2, 4 and 8 lanes (Sleef_sinf8_u10,
// Sleef_powd4_u10, Sleef_fmodf8: dispatchers that pick the CPU's best code).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace cucl::backend::host {

// The name of the vector function that does `scalar`'s work for `lanes` lanes of float
// (`is_float`) or double, or "" where the name has no such form.
std::string sleef_vector_name(llvm::StringRef scalar, bool is_float, unsigned lanes);

// Whether this process has a function of that name to call (the JIT resolves SLEEF's
// functions from libsleef, which libcucl links).
bool host_has_function(const std::string& name);

}  // namespace cucl::backend::host
