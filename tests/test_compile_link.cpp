// clCompileProgram and clLinkProgram through the loader: embedded headers, objects linked
// into executables and libraries, link failures and the argument rules of both calls.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

constexpr const char* kKernelUsingHelper =
    "int helper(int x);\n"
    "kernel void k(global int* out) { int i = get_global_id(0); out[i] = helper(i); }\n";
constexpr const char* kHelper = "int helper(int x) { return 3 * x + 1; }\n";

class CompileLink : public DeviceTest {
 protected:
  Program compiled(const std::string& source, const char* options = nullptr) {
    Program program = source_program(env.context, source);
    EXPECT_EQ(compile(program, env.device, options), CL_SUCCESS) << build_log(program, env.device);
    return program;
  }

  Program link(std::vector<cl_program> inputs, const char* options, cl_int* status) {
    return Program(clLinkProgram(env.context, 1, &env.device, options, static_cast<cl_uint>(inputs.size()),
                                 inputs.data(), nullptr, nullptr, status));
  }

  cl_ulong private_memory(cl_program program) {
    Kernel kernel = make_kernel(program, "k");
    cl_ulong bytes = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(kernel.get(), env.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof bytes, &bytes,
                                       nullptr),
              CL_SUCCESS);
    return bytes;
  }

  void expect_helper_results(cl_program program) {
    Kernel kernel = make_kernel(program, "k");
    ASSERT_TRUE(kernel);
    const auto values = run_on_ints(env, kernel, 32);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(values[i], 3 * i + 1) << i;
  }
};

TEST_P(CompileLink, EmbeddedHeadersIncludingOneInAFolder) {
  Program defs = source_program(env.context, "#define SCALE 3\n");
  // Inside inc/defs.h, "defs.h" would name inc/defs.h itself: it includes the top-level one
  // by a path that leaves its folder.
  Program nested = source_program(env.context, "#include \"../defs.h\"\n#define SHIFT (SCALE - 2)\n");
  Program program = source_program(env.context,
                                   "#include \"inc/defs.h\"\n"
                                   "#include \"defs.h\"\n"
                                   "kernel void k(global int* out) { int i = get_global_id(0); out[i] = SCALE * i + "
                                   "SHIFT; }\n");
  cl_program headers[] = {nested.get(), defs.get()};
  const char* names[] = {"inc/defs.h", "defs.h"};
  ASSERT_EQ(clCompileProgram(program, 1, &env.device, nullptr, 2, headers, names, nullptr, nullptr), CL_SUCCESS)
      << build_log(program, env.device);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  // A compiled object is not an executable.
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "k", s); }), CL_INVALID_PROGRAM_EXECUTABLE);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked = link({program.get()}, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  expect_helper_results(linked);
}

// Of several headers with one name, the first is used.
TEST_P(CompileLink, FirstOfDuplicateHeaderNamesWins) {
  Program first = source_program(env.context, "#define SCALE 3\n#define SHIFT 1\n");
  Program second = source_program(env.context, "#define SCALE 300\n#define SHIFT 100\n");
  Program program = source_program(env.context,
                                   "#include \"defs.h\"\n"
                                   "kernel void k(global int* out) { int i = get_global_id(0); out[i] = SCALE * i + "
                                   "SHIFT; }\n");
  cl_program headers[] = {first.get(), second.get()};
  const char* names[] = {"defs.h", "defs.h"};
  ASSERT_EQ(clCompileProgram(program, 1, &env.device, nullptr, 2, headers, names, nullptr, nullptr), CL_SUCCESS)
      << build_log(program, env.device);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked = link({program.get()}, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS);
  expect_helper_results(linked);
}

TEST_P(CompileLink, MissingEmbeddedHeaderFailsToCompile) {
  Program header = source_program(env.context, "#define SCALE 3\n");
  Program program = source_program(env.context, "#include \"other.h\"\nkernel void k() {}\n");
  cl_program headers[] = {header.get()};
  const char* names[] = {"defs.h"};
  EXPECT_EQ(clCompileProgram(program, 1, &env.device, nullptr, 1, headers, names, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_EQ(build_status(program, env.device), CL_BUILD_ERROR);
  EXPECT_NE(build_log(program, env.device).find("other.h"), std::string::npos);
}

TEST_P(CompileLink, CompileArgumentRules) {
  Program header = source_program(env.context, "#define SCALE 3\n");
  Program program = source_program(env.context, kHelper);
  cl_program headers[] = {header.get()};
  const char* names[] = {"defs.h"};
  cl_device_id device = env.device;
  auto compile_with = [&](cl_uint n, const cl_program* h, const char** hn) {
    return clCompileProgram(program, 1, &device, nullptr, n, h, hn, nullptr, nullptr);
  };
  EXPECT_EQ(compile_with(0, headers, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(compile_with(0, nullptr, names), CL_INVALID_VALUE);
  EXPECT_EQ(compile_with(1, nullptr, names), CL_INVALID_VALUE);
  EXPECT_EQ(compile_with(1, headers, nullptr), CL_INVALID_VALUE);
  cl_program bad_headers[] = {reinterpret_cast<cl_program>(env.queue)};
  EXPECT_EQ(compile_with(1, bad_headers, names), CL_INVALID_PROGRAM);
  EXPECT_EQ(clCompileProgram(program, 0, &device, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(program, 1, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_VALUE);
  int user_data = 0;
  EXPECT_EQ(clCompileProgram(program, 1, &device, nullptr, 0, nullptr, nullptr, nullptr, &user_data),
            CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.context);
  EXPECT_EQ(clCompileProgram(program, 1, &not_a_device, nullptr, 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clCompileProgram(nullptr, 1, &device, nullptr, 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_PROGRAM);
  for (const char* options : {"-create-library", "-enable-link-options", "-cl-bogus", "-I"}) {
    EXPECT_EQ(compile(program, device, options), CL_INVALID_COMPILER_OPTIONS) << options;
  }
  EXPECT_EQ(build_status(program, device), CL_BUILD_NONE);
}

TEST_P(CompileLink, HeaderFromAnotherContextIsRejected) {
  Env other(env.device);
  Program header = source_program(other.context, "#define SCALE 3\n");
  Program program = source_program(env.context, kHelper);
  cl_program headers[] = {header.get()};
  const char* names[] = {"defs.h"};
  EXPECT_EQ(clCompileProgram(program, 1, &env.device, nullptr, 1, headers, names, nullptr, nullptr),
            CL_INVALID_CONTEXT);
}

TEST_P(CompileLink, CompileErrorAndCompileOfABinaryProgram) {
  Program broken = source_program(env.context, "int helper(int x) { return x +; }\n");
  EXPECT_EQ(compile(broken, env.device), CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_EQ(build_status(broken, env.device), CL_BUILD_ERROR);
  EXPECT_NE(build_log(broken, env.device).find("error:"), std::string::npos);

  Program object = compiled(kHelper);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program from_binary = binary_program(env.context, env.device, program_binary(object), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(compile(from_binary, env.device), CL_INVALID_OPERATION);
}

TEST_P(CompileLink, KernelInOneObjectHelperInAnother) {
  Program kernel_object = compiled(kKernelUsingHelper);
  Program helper_object = compiled(kHelper);
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked = link({kernel_object.get(), helper_object.get()}, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  EXPECT_EQ(build_status(linked, env.device), CL_BUILD_SUCCESS);
  EXPECT_EQ(binary_type(linked, env.device), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  EXPECT_EQ(program_string(linked, CL_PROGRAM_KERNEL_NAMES), "k");
  expect_helper_results(linked);
  // A linked program is not rebuilt.
  EXPECT_EQ(build(linked, env.device), CL_INVALID_OPERATION);
  EXPECT_EQ(compile(linked, env.device), CL_INVALID_OPERATION);
}

TEST_P(CompileLink, LibraryThenExecutable) {
  Program helper_object = compiled(kHelper);
  Program other_object = compiled("int unused_in_library(int x) { return x; }\n");
  cl_int status = CL_OUT_OF_RESOURCES;
  Program library = link({helper_object.get(), other_object.get()}, "-create-library", &status);
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(binary_type(library, env.device), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  EXPECT_EQ(build_status(library, env.device), CL_BUILD_SUCCESS);
  EXPECT_EQ(build_options(library, env.device), "-create-library");
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(library, "k", s); }), CL_INVALID_PROGRAM_EXECUTABLE);

  Program kernel_object = compiled(kKernelUsingHelper);
  Program linked = link({kernel_object.get(), library.get()}, "-cl-fast-relaxed-math", &status);
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  expect_helper_results(linked);
}

TEST_P(CompileLink, UndefinedFunctionIsALinkFailureWithAProgramAndLog) {
  Program kernel_object = compiled(kKernelUsingHelper);
  cl_int status = CL_SUCCESS;
  Program linked = link({kernel_object.get()}, nullptr, &status);
  EXPECT_EQ(status, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(linked.get(), nullptr);
  EXPECT_EQ(build_status(linked, env.device), CL_BUILD_ERROR);
  const std::string log = build_log(linked, env.device);
  EXPECT_NE(log.find("helper"), std::string::npos) << log;
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(linked, "k", s); }), CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_P(CompileLink, DuplicateDefinitionsAreALinkFailure) {
  Program first = compiled(kHelper);
  Program second = compiled(kHelper);
  cl_int status = CL_SUCCESS;
  Program linked = link({first.get(), second.get()}, nullptr, &status);
  EXPECT_EQ(status, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(linked.get(), nullptr);
  EXPECT_NE(build_log(linked, env.device).find("helper"), std::string::npos) << build_log(linked, env.device);
}

TEST_P(CompileLink, InvalidLinkerOptionsReturnNoProgram) {
  Program object = compiled(kHelper);
  for (const char* options : {"-DX=1", "-cl-opt-disable", "-enable-link-options", "-cl-std=CL1.2", "-nonsense"}) {
    cl_int status = CL_SUCCESS;
    Program linked = link({object.get()}, options, &status);
    EXPECT_EQ(status, CL_INVALID_LINKER_OPTIONS) << options;
    EXPECT_EQ(linked.get(), nullptr) << options;
  }
  cl_int status = CL_OUT_OF_RESOURCES;
  Program library = link({object.get()}, "-create-library -enable-link-options", &status);
  EXPECT_EQ(status, CL_SUCCESS);
}

TEST_P(CompileLink, LinkArgumentRules) {
  Program object = compiled(kHelper);
  Program uncompiled = source_program(env.context, kHelper);
  cl_program inputs[] = {object.get()};
  cl_device_id device = env.device;
  auto link_error = [&](cl_context context, cl_uint num_devices, const cl_device_id* devices, cl_uint n,
                        const cl_program* programs, void* user_data) {
    return create_error([&](cl_int* s) {
      return clLinkProgram(context, num_devices, devices, nullptr, n, programs, nullptr, user_data, s);
    });
  };
  EXPECT_EQ(link_error(nullptr, 1, &device, 1, inputs, nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(link_error(env.context, 0, &device, 1, inputs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link_error(env.context, 1, nullptr, 1, inputs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link_error(env.context, 1, &device, 0, inputs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link_error(env.context, 1, &device, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(link_error(env.context, 1, &device, 1, nullptr, nullptr), CL_INVALID_VALUE);
  int user_data = 0;
  EXPECT_EQ(link_error(env.context, 1, &device, 1, inputs, &user_data), CL_INVALID_VALUE);
  cl_device_id not_a_device = reinterpret_cast<cl_device_id>(env.queue);
  EXPECT_EQ(link_error(env.context, 1, &not_a_device, 1, inputs, nullptr), CL_INVALID_DEVICE);
  cl_program bad[] = {reinterpret_cast<cl_program>(env.queue)};
  EXPECT_EQ(link_error(env.context, 1, &device, 1, bad, nullptr), CL_INVALID_PROGRAM);
  cl_program not_compiled[] = {uncompiled.get()};
  EXPECT_EQ(link_error(env.context, 1, &device, 1, not_compiled, nullptr), CL_INVALID_OPERATION);
  cl_program mixed[] = {object.get(), uncompiled.get()};
  EXPECT_EQ(link_error(env.context, 1, &device, 2, mixed, nullptr), CL_INVALID_OPERATION);
  Env other(env.device);
  EXPECT_EQ(link_error(other.context, 1, &device, 1, inputs, nullptr), CL_INVALID_CONTEXT);
  // A NULL device list links for every device of the context.
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked(clLinkProgram(env.context, 0, nullptr, "-create-library", 1, inputs, nullptr, nullptr, &status));
  EXPECT_EQ(status, CL_SUCCESS);
}

void CL_CALLBACK remember_linked(cl_program program, void* user_data) {
  *static_cast<cl_program*>(user_data) = program;
}

TEST_P(CompileLink, NotifyCallbacksOfCompileAndLink) {
  Program kernel_object = source_program(env.context, kKernelUsingHelper);
  cl_program compiled_seen = nullptr;
  ASSERT_EQ(clCompileProgram(kernel_object, 1, &env.device, nullptr, 0, nullptr, nullptr, remember_linked,
                             &compiled_seen),
            CL_SUCCESS);
  EXPECT_EQ(compiled_seen, kernel_object.get());
  Program helper_object = compiled(kHelper);
  cl_program inputs[] = {kernel_object.get(), helper_object.get()};
  cl_program linked_seen = nullptr;
  cl_int status = CL_OUT_OF_RESOURCES;
  Program linked(
      clLinkProgram(env.context, 1, &env.device, nullptr, 2, inputs, remember_linked, &linked_seen, &status));
  ASSERT_EQ(status, CL_SUCCESS);
  EXPECT_EQ(linked_seen, linked.get());
  EXPECT_EQ(build_status(linked, env.device), CL_BUILD_SUCCESS);
}

TEST_P(CompileLink, CompileWhileAKernelExistsIsRejected) {
  Program program = source_program(env.context, "kernel void k(global int* out) { out[0] = 1; }");
  ASSERT_EQ(build(program, env.device), CL_SUCCESS);
  Kernel kernel = make_kernel(program, "k");
  EXPECT_EQ(compile(program, env.device), CL_INVALID_OPERATION);
  kernel = Kernel();
  EXPECT_EQ(compile(program, env.device), CL_SUCCESS);
  EXPECT_EQ(binary_type(program, env.device), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  // The executable is gone once the program holds a compiled object.
  EXPECT_EQ(create_error([&](cl_int* s) { return clCreateKernel(program, "k", s); }), CL_INVALID_PROGRAM_EXECUTABLE);
}

// SPIR-V for `source`, made by clang-15 and llvm-spirv-15 (empty when the tools fail).
std::string spirv_of(const std::string& source) {
  char pattern[] = "/tmp/cucl-link-il-XXXXXX";
  const std::string folder = mkdtemp(pattern) ? pattern : "";
  if (folder.empty()) return {};
  std::ofstream(folder + "/k.cl") << source;
  const std::string command =
      "clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -finclude-default-header "
      "-fdeclare-opencl-builtins -resource-dir $(clang-15 -print-resource-dir) -internal-isystem "
      "$(clang-15 -print-resource-dir)/include -emit-llvm-bc -O0 -o " + folder + "/k.bc " + folder +
      "/k.cl && llvm-spirv-15 " + folder + "/k.bc -o " + folder + "/k.spv";
  std::string il;
  if (std::system(command.c_str()) == 0) {
    std::ifstream in(folder + "/k.spv", std::ios::binary);
    il.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::system(("rm -rf " + folder).c_str());
  return il;
}

// clCompileProgram also takes IL programs; the object links with objects from source.
TEST_P(CompileLink, CompiledILLinksWithASourceObject) {
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_IL_VERSION, 0, nullptr, &size), CL_SUCCESS);
  if (size <= 1) GTEST_SKIP() << "the device takes no IL";
  const std::string il = spirv_of(kKernelUsingHelper);
  ASSERT_FALSE(il.empty()) << "clang-15 or llvm-spirv-15 failed";
  cl_int status = CL_OUT_OF_RESOURCES;
  Program kernel_object(clCreateProgramWithIL(env.context, il.data(), il.size(), &status));
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(compile(kernel_object, env.device), CL_SUCCESS) << build_log(kernel_object, env.device);
  EXPECT_EQ(binary_type(kernel_object, env.device), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  Program helper_object = compiled(kHelper);
  Program linked = link({kernel_object.get(), helper_object.get()}, nullptr, &status);
  ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
  expect_helper_results(linked);
}

// An option given when an object was compiled still holds when it is linked (OpenCL 3.0
// 5.8.7: -cl-opt-disable is kept where any input asks for it): the linked kernel keeps the
// private memory of unoptimised code, as one built with -cl-opt-disable does.
TEST_P(CompileLink, CompileOptionsHoldAtLink) {
  const std::string source = "kernel void k(global int* out) { int i = get_global_id(0); int v = 3 * i; out[i] = v; }\n";
  for (const char* options : {"-cl-opt-disable", ""}) {
    Program built = source_program(env.context, source);
    ASSERT_EQ(build(built, env.device, options), CL_SUCCESS) << build_log(built, env.device);
    Program object = compiled(source, options);
    cl_int status = CL_OUT_OF_RESOURCES;
    Program linked = link({object.get()}, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS) << build_log(linked, env.device);
    EXPECT_EQ(private_memory(linked.get()), private_memory(built.get())) << options;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CompileLink, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
