// cucl's program binary container: what clGetProgramInfo(CL_PROGRAM_BINARIES) returns for
// one device and what clCreateProgramWithBinary accepts.
//
// Format, version 1 (all integers little-endian):
//   offset  0  8 bytes   magic "CUCLBIN\0"
//   offset  8  u32       format version (1); other versions are rejected
//   offset 12  u32       cl_program_binary_type (COMPILED_OBJECT, LIBRARY or EXECUTABLE)
//   offset 16  u32       flags: bit 0 = kernel_arg_info; other bits must be zero
//   offset 20  u32       reserved, zero
//   offset 24  5 x u64   lengths of the sections target, options, ir, native, source
//   offset 64            the five sections, back to back, in that order
//   last 32 bytes        BLAKE3 (content_hash.h) of every byte before them
// The size must be exactly 64 + the section lengths + 32.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cucl::compiler {

struct ProgramBinary {
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;  // COMPILED_OBJECT, LIBRARY or EXECUTABLE
  std::string target;   // the device's code target identity (opaque to the container)
  std::string options;  // the build/compile options the code was made with
  std::string ir;       // LLVM bitcode for the device's target (may be empty)
  std::string native;   // backend-specific device code (may be empty)
  std::string source;   // the OpenCL C source when known (may be empty)
  bool kernel_arg_info = false;

  bool operator==(const ProgramBinary&) const = default;
};

// The binary's type must be COMPILED_OBJECT, LIBRARY or EXECUTABLE; otherwise throws
// Error(CL_INVALID_VALUE).
std::vector<unsigned char> serialize(const ProgramBinary& binary);

// Throws Error(CL_INVALID_BINARY) for anything serialize did not produce: foreign,
// truncated, extended, corrupted or of another format version. Reads only [data, data+size).
ProgramBinary deserialize(const unsigned char* data, std::size_t size);

}  // namespace cucl::compiler
