#include "support/spirv_tools.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>

namespace cucl_test {
namespace {

// Writes `input` to <folder>/<input_name> in a fresh temporary folder, runs the command
// `make(folder)` (which must leave <folder>/k.spv) and returns that file; the folder is removed.
std::string spirv_made_by(const std::string& input_name, const std::string& input,
                          const std::function<std::string(const std::string&)>& make) {
  char pattern[] = "/tmp/cucl-il-XXXXXX";
  const char* created = mkdtemp(pattern);
  EXPECT_NE(created, nullptr);
  if (!created) return {};
  const std::string folder = created;
  std::ofstream(folder + "/" + input_name, std::ios::binary) << input;
  const std::string command = make(folder);
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(folder + "/k.spv", std::ios::binary);
  std::string il(std::istreambuf_iterator<char>(in), {});
  std::system(("rm -rf " + folder).c_str());
  return il;
}

}  // namespace

bool lists_spirv(cl_device_id device) {
  return device_string(device, CL_DEVICE_IL_VERSION).find("SPIR-V_1.0") != std::string::npos;
}

std::vector<cl_uint> spirv_capabilities(cl_device_id device) {
  constexpr cl_device_info kSpirvCapabilities = 0x12BB;  // CL_DEVICE_SPIRV_CAPABILITIES_KHR
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device, kSpirvCapabilities, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_uint> capabilities(size / sizeof(cl_uint));
  EXPECT_EQ(clGetDeviceInfo(device, kSpirvCapabilities, size, capabilities.data(), nullptr), CL_SUCCESS);
  return capabilities;
}

void SpirvDeviceTest::SetUp() {
  DeviceTest::SetUp();
  if (IsSkipped()) return;
  if (!lists_spirv(env.device)) GTEST_SKIP() << "this device lists no SPIR-V";
}

cl_program SpirvDeviceTest::build_from_il(const std::string& il) { return program_from_il(env, il); }

BuiltProgram BuiltProgram::from_il(const Env& env, const std::string& il) {
  return BuiltProgram(program_from_il(env, il));
}

cl_program program_from_il(const Env& env, const std::string& il) {
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_program program = clCreateProgramWithIL(env.context, il.data(), il.size(), &status);
  EXPECT_EQ(status, CL_SUCCESS);
  if (!program) return nullptr;
  if (clBuildProgram(program, 1, &env.device, "", nullptr, nullptr) != CL_SUCCESS) {
    ADD_FAILURE() << "the build failed: " << build_log(program, env.device);
    clReleaseProgram(program);
    return nullptr;
  }
  return program;
}

std::string spirv_from_assembly(const std::string& assembly, const std::string& target) {
  return spirv_made_by("k.spvasm", assembly, [&target](const std::string& folder) {
    return "spirv-as --target-env " + target + " " + folder + "/k.spvasm -o " + folder + "/k.spv";
  });
}

std::string spirv_from_opencl_c(const std::string& source, const std::string& cl_std,
                                const std::string& translator_args) {
  return spirv_made_by("k.cl", source, [&](const std::string& folder) {
    return "clang-15 -cc1 -triple spir64-unknown-unknown -no-opaque-pointers -cl-std=" + cl_std +
           " -finclude-default-header -fdeclare-opencl-builtins -resource-dir $(clang-15 -print-resource-dir) "
           "-internal-isystem $(clang-15 -print-resource-dir)/include -emit-llvm-bc -O0 -o " + folder + "/k.bc " +
           folder + "/k.cl && llvm-spirv-15 " + translator_args + " " + folder + "/k.bc -o " + folder + "/k.spv";
  });
}

}  // namespace cucl_test
