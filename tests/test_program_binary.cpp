// Program binaries through the loader: CL_PROGRAM_BINARIES round trips for executables,
// compiled objects and libraries, and every kind of bad binary clCreateProgramWithBinary
// must refuse with an error code rather than a crash.
#include <fstream>
#include <random>
#include <string>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kSquare =
    "kernel void square(global int* out) { int i = get_global_id(0); out[i] = i * i + OFFSET; }";

class ProgramBinary : public DeviceTest {
 protected:
  std::vector<unsigned char> executable_binary() {
    Program program = source_program(env.context, kSquare);
    EXPECT_EQ(build(program, env.device, "-DOFFSET=3"), CL_SUCCESS);
    return program_binary(program);
  }

  void expect_squares(cl_program program) {
    Kernel kernel = make_kernel(program, "square");
    ASSERT_TRUE(kernel);
    const auto values = run_on_ints(env, kernel, 64);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(values[i], i * i + 3) << i;
  }

  // clCreateProgramWithBinary must give CL_INVALID_BINARY, with the same per-device status.
  void expect_invalid_binary(const std::vector<unsigned char>& binary, const std::string& what) {
    cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
    Program program = binary_program(env.context, env.device, binary, &status, &binary_status);
    EXPECT_EQ(program.get(), nullptr) << what;
    EXPECT_EQ(status, CL_INVALID_BINARY) << what;
    EXPECT_EQ(binary_status, CL_INVALID_BINARY) << what;
  }
};

TEST_P(ProgramBinary, ExecutableRoundTripRuns) {
  const auto binary = executable_binary();
  ASSERT_FALSE(binary.empty());
  cl_int status = CL_OUT_OF_RESOURCES, binary_status = CL_OUT_OF_RESOURCES;
  Program program = binary_program(env.context, env.device, binary, &status, &binary_status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_status, CL_SUCCESS);
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  // Not yet built: no kernels.
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "square", s); }),
            CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS) << build_log(program, env.device);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_SUCCESS);
  // NULL options build a binary with the options it was made with.
  EXPECT_EQ(build_options(program, env.device), "-DOFFSET=3");
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  EXPECT_EQ(program_string(program, CL_PROGRAM_KERNEL_NAMES), "square");
  expect_squares(program);
  // And the rebuilt program's own binary round-trips again.
  Program again = binary_program(env.context, env.device, program_binary(program), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(build(again, env.device), CL_SUCCESS);
  expect_squares(again);
}

TEST_P(ProgramBinary, BinaryProgramsHaveNoArgumentInfoAndNoSource) {
  Program source = source_program(env.context, kSquare);
  ASSERT_EQ(build(source, env.device, "-DOFFSET=3 -cl-kernel-arg-info"), CL_SUCCESS);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program program = binary_program(env.context, env.device, program_binary(source), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  EXPECT_EQ(program_string(program, CL_PROGRAM_SOURCE), "");
  Kernel kernel = make_kernel(program, "square");
  char name[32];
  EXPECT_EQ(clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
}

// CL_KERNEL_ATTRIBUTES is empty for kernels not created from OpenCL C source.
TEST_P(ProgramBinary, BinaryKernelsReportNoAttributes) {
  Program source = source_program(env.context,
                                  "kernel __attribute__((reqd_work_group_size(2, 1, 1))) void k(global int* o) {}");
  ASSERT_EQ(build(source, env.device), CL_SUCCESS);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program program = binary_program(env.context, env.device, program_binary(source), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  Kernel kernel = make_kernel(program, "k");
  char attributes[64] = "x";
  size_t size = 0;
  ASSERT_EQ(clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, sizeof attributes, attributes, &size), CL_SUCCESS);
  EXPECT_EQ(size, 1u);
  EXPECT_STREQ(attributes, "");
  // The required size still applies to the launch.
  size_t compiled[3] = {};
  ASSERT_EQ(clGetKernelWorkGroupInfo(kernel, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                                     compiled, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(compiled[0], 2u);
}

TEST_P(ProgramBinary, CreateWithBinaryArgumentRules) {
  const auto binary = executable_binary();
  const unsigned char* data = binary.data();
  const unsigned char* null_data = nullptr;
  const size_t length = binary.size(), zero = 0;
  cl_device_id device = env.device;
  cl_int binary_status = CL_SUCCESS;
  auto create = [&](cl_uint n, const cl_device_id* devices, const size_t* lengths, const unsigned char** binaries,
                    cl_int* statuses) {
    return create_error([&](cl_int* s) {
      return clCreateProgramWithBinary(env.context, n, devices, lengths, binaries, statuses, s);
    });
  };
  EXPECT_EQ(create(0, &device, &length, &data, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(1, nullptr, &length, &data, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(1, &device, nullptr, &data, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(1, &device, &length, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(create(1, &device, &zero, &data, &binary_status), CL_INVALID_VALUE);
  EXPECT_EQ(binary_status, CL_INVALID_VALUE);
  binary_status = CL_SUCCESS;
  EXPECT_EQ(create(1, &device, &length, &null_data, &binary_status), CL_INVALID_VALUE);
  EXPECT_EQ(binary_status, CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.queue);
  EXPECT_EQ(create(1, &not_a_device, &length, &data, nullptr), CL_INVALID_DEVICE);
  EXPECT_EQ(create_error([&](cl_int* s) {
              return clCreateProgramWithBinary(nullptr, 1, &device, &length, &data, nullptr, s);
            }),
            CL_INVALID_CONTEXT);
}

TEST_P(ProgramBinary, CorruptedBinariesAreRejected) {
  const auto binary = executable_binary();
  ASSERT_GT(binary.size(), 200u);
  for (size_t at : {size_t{0}, size_t{8}, size_t{12}, size_t{16}, size_t{20}, size_t{24}, size_t{70},
                    binary.size() / 2, binary.size() - 40, binary.size() - 1}) {
    for (unsigned char bit : {0x01, 0x80}) {
      auto flipped = binary;
      flipped[at] ^= bit;
      expect_invalid_binary(flipped, "bit flipped at " + std::to_string(at));
    }
  }
}

TEST_P(ProgramBinary, TruncatedAndExtendedBinariesAreRejected) {
  const auto binary = executable_binary();
  for (size_t length : {size_t{1}, size_t{8}, size_t{63}, size_t{64}, size_t{96}, binary.size() / 2,
                        binary.size() - 32, binary.size() - 1}) {
    expect_invalid_binary(std::vector<unsigned char>(binary.begin(), binary.begin() + length),
                          "truncated to " + std::to_string(length));
  }
  auto extended = binary;
  extended.push_back(0);
  expect_invalid_binary(extended, "one byte extra");
}

TEST_P(ProgramBinary, ForeignBinariesAreRejected) {
  std::mt19937 random(1234);
  for (size_t length : {size_t{1}, size_t{16}, size_t{100}, size_t{4096}}) {
    std::vector<unsigned char> noise(length);
    for (auto& byte : noise) byte = static_cast<unsigned char>(random());
    expect_invalid_binary(noise, "random bytes, " + std::to_string(length));
  }
  std::vector<unsigned char> elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  elf.resize(512, 0);
  expect_invalid_binary(elf, "an ELF header");
  std::vector<unsigned char> spirv = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00};
  spirv.resize(256, 0);
  expect_invalid_binary(spirv, "a SPIR-V header");
  const std::string text = "kernel void k() {}";
  expect_invalid_binary(std::vector<unsigned char>(text.begin(), text.end()), "OpenCL C source");
}

TEST_P(ProgramBinary, CompiledObjectRoundTripLinks) {
  Program source = source_program(env.context, kSquare);
  ASSERT_EQ(compile(source, env.device, "-DOFFSET=3"), CL_SUCCESS) << build_log(source, env.device);
  EXPECT_EQ(binary_type(source, env.device), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program object = binary_program(env.context, env.device, program_binary(source), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_type(object, env.device), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  // clBuildProgram takes only executable binaries.
  EXPECT_EQ(build(object, env.device), CL_INVALID_BINARY);
  cl_program inputs[] = {object.get()};
  Program linked(clLinkProgram(env.context, 1, &env.device, nullptr, 1, inputs, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  EXPECT_EQ(binary_type(linked, env.device), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  expect_squares(linked);
  // The linked executable's binary round-trips too.
  Program reloaded = binary_program(env.context, env.device, program_binary(linked), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(build(reloaded, env.device), CL_SUCCESS);
  expect_squares(reloaded);
}

TEST_P(ProgramBinary, LibraryRoundTripLinks) {
  Program helper = source_program(env.context, "int square_of(int i) { return i * i + 3; }");
  ASSERT_EQ(compile(helper, env.device), CL_SUCCESS);
  cl_int status = CL_OUT_OF_RESOURCES;
  cl_program helper_list[] = {helper.get()};
  Program library(clLinkProgram(env.context, 1, &env.device, "-create-library", 1, helper_list, nullptr, nullptr,
                                &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_type(library, env.device), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  Program reloaded = binary_program(env.context, env.device, program_binary(library), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_type(reloaded, env.device), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  EXPECT_EQ(build(reloaded, env.device), CL_INVALID_BINARY);

  Program kernel_source = source_program(env.context,
                                         "int square_of(int i);\n"
                                         "kernel void square(global int* out) {\n"
                                         "  int i = get_global_id(0); out[i] = square_of(i); }\n");
  ASSERT_EQ(compile(kernel_source, env.device), CL_SUCCESS);
  cl_program inputs[] = {kernel_source.get(), reloaded.get()};
  Program linked(clLinkProgram(env.context, 1, &env.device, nullptr, 2, inputs, nullptr, nullptr, &status));
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  expect_squares(linked);
}

size_t memory_mapping_count() {
  std::ifstream maps("/proc/self/maps");
  size_t lines = 0;
  for (std::string line; std::getline(maps, line);) ++lines;
  return lines;
}

// A program's code goes back to the system with the program. LLVM 15's JIT kept two
// mappings per host program, and a process that built programs by the ten thousand (the
// CTS's c11_atomics) ran into vm.max_map_count and crashed.
TEST_P(ProgramBinary, ReleasedProgramsGiveTheirCodeMappingsBack) {
  const auto binary = executable_binary();
  ASSERT_FALSE(binary.empty());
  auto load_run_and_release = [&] {
    cl_int status = CL_OUT_OF_RESOURCES;
    Program program = binary_program(env.context, env.device, binary, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(build(program, env.device), CL_SUCCESS);
    Kernel kernel = make_kernel(program, "square");
    ASSERT_TRUE(kernel);
    EXPECT_EQ(run_on_ints(env, kernel, 4).at(3), 12);
  };
  for (int warm_up = 0; warm_up < 8; ++warm_up) load_run_and_release();
  const size_t before = memory_mapping_count();
  constexpr int kPrograms = 300;
  for (int i = 0; i < kPrograms && !HasFatalFailure(); ++i) load_run_and_release();
  EXPECT_LT(memory_mapping_count(), before + kPrograms / 4);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ProgramBinary, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
