// clCreateProgramWithIL: SPIR-V through the SPIRV-LLVM-Translator 15 into LLVM IR with the
// same address-space numbering as the OpenCL C front end.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "platform/compiler/frontend.h"

namespace cucl::compiler {

using SpecializationConstants = std::map<uint32_t, uint64_t>;  // SpecId -> value bits

// A module the translator can read (magic number, header, and a parse that succeeds).
bool is_readable_spirv(std::string_view il);

// The module's specialization constants: SpecId -> size in bytes.
std::map<uint32_t, uint32_t> specialization_constant_sizes(std::string_view il);

FrontendResult translate_spirv(std::string_view il, const SpecializationConstants& constants);

}  // namespace cucl::compiler
