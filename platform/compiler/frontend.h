// The OpenCL C front end: clang 15, in process. Source (with embedded headers) becomes
// LLVM bitcode for one device's target; the diagnostics become the build log.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/device_description.h"

namespace cucl::compiler {

struct EmbeddedHeader {  // clCompileProgram's input_headers, found by `#include "name"`
  std::string name;
  std::string text;
};

struct FrontendRequest {
  std::string_view source;
  std::vector<EmbeddedHeader> headers;
  std::vector<std::string> user_args;  // from the build options (BuildOptions::clang_args)
  std::string cl_std;                  // "CL1.2" ... "CL3.0"
  bool optimize = true;
};

struct FrontendResult {
  bool ok = false;
  std::string log;      // clang's diagnostics, paths shown relative to the program
  std::string bitcode;  // the module, not yet optimised
};

// The -cl-ext list that makes clang define exactly the extensions and features `device`
// reports, and nothing else.
std::string opencl_extensions_flag(const backend::DeviceDescription& device);

FrontendResult compile_opencl_c(const FrontendRequest& request, const backend::DeviceDescription& device);

}  // namespace cucl::compiler
