// Build options through the loader: -D and -I, -cl-std and the language version, and the
// agreement between what a device reports (features, extensions) and what its compiler defines.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "program_test_helpers.h"

using namespace cucl_test;
using namespace program_test;

namespace {

class BuildOptions : public DeviceTest {};

// A temporary folder (its name has a space, to exercise option quoting), removed at exit.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cucl include XXXXXX").string();
    path_ = mkdtemp(pattern.data());
    EXPECT_FALSE(path_.empty());
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  void write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((std::filesystem::path(path_) / name).parent_path());
    std::ofstream(std::filesystem::path(path_) / name) << text;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST_P(BuildOptions, DefinesAndIncludeFolder) {
  TemporaryFolder folder;
  folder.write("cucl_test_header.h", "#define FROM_HEADER 7\n");
  folder.write("sub/nested.h", "#define FROM_NESTED 100\n");
  Program program = source_program(env.context,
                                   "#include \"cucl_test_header.h\"\n"
                                   "#include <sub/nested.h>\n"
                                   "kernel void k(global int* out) {\n"
                                   "#ifdef FLAG\n"
                                   "  out[0] = FROM_HEADER * VALUE + FROM_NESTED + SQUARE(3);\n"
                                   "#endif\n"
                                   "}\n");
  const std::string options = "-D VALUE=5 -DFLAG -D\"SQUARE(x)=((x)*(x))\" -I \"" + folder.path() + "\"";
  ASSERT_EQ(build(program, env.device, options.c_str()), CL_SUCCESS) << build_log(program, env.device);
  EXPECT_EQ(build_options(program, env.device), options);
  EXPECT_EQ(first_int(env, program, "k"), 7 * 5 + 100 + 9);
}

TEST_P(BuildOptions, MissingIncludeFailsNamingTheHeader) {
  Program program = source_program(env.context, "#include \"cucl_no_such_header.h\"\nkernel void k() {}\n");
  EXPECT_EQ(build(program, env.device), CL_BUILD_PROGRAM_FAILURE);
  const std::string log = build_log(program, env.device);
  EXPECT_NE(log.find("cucl_no_such_header.h"), std::string::npos) << log;
  EXPECT_NE(log.find("not found"), std::string::npos) << log;
}

// The value of __OPENCL_C_VERSION__ a build with `options` sees.
int language_version_seen(const Env& env, const std::string& options) {
  Program program = source_program(env.context, "kernel void k(global int* out) { out[0] = __OPENCL_C_VERSION__; }");
  if (build(program, env.device, options.c_str()) != CL_SUCCESS) {
    ADD_FAILURE() << options << ": " << build_log(program, env.device);
    return -1;
  }
  return first_int(env, program, "k");
}

TEST_P(BuildOptions, EveryListedLanguageVersionBuildsWithItsVersionMacro) {
  const auto versions = name_versions(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  ASSERT_FALSE(versions.empty());
  for (const cl_name_version& version : versions) {
    const cl_uint major = CL_VERSION_MAJOR(version.version), minor = CL_VERSION_MINOR(version.version);
    const std::string option = "-cl-std=CL" + std::to_string(major) + "." + std::to_string(minor);
    EXPECT_EQ(language_version_seen(env, option), static_cast<int>(major * 100 + minor * 10)) << option;
  }
  // Without -cl-std a program is OpenCL C 1.2 (the highest 1.x the device has).
  EXPECT_EQ(language_version_seen(env, ""), 120);
}

TEST_P(BuildOptions, LanguageVersionsTheDeviceDoesNotListAreRejected) {
  std::set<std::pair<cl_uint, cl_uint>> listed;
  for (const cl_name_version& v : name_versions(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
    listed.insert({CL_VERSION_MAJOR(v.version), CL_VERSION_MINOR(v.version)});
  }
  int rejected = 0;
  for (auto [major, minor] : std::vector<std::pair<cl_uint, cl_uint>>{{1, 0}, {1, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 1}}) {
    if (listed.count({major, minor})) continue;
    Program program = source_program(env.context, "kernel void k() {}");
    const std::string option = "-cl-std=CL" + std::to_string(major) + "." + std::to_string(minor);
    EXPECT_EQ(build(program, env.device, option.c_str()), CL_INVALID_BUILD_OPTIONS) << option;
    EXPECT_EQ(compile(program, env.device, option.c_str()), CL_INVALID_COMPILER_OPTIONS) << option;
    ++rejected;
  }
  if (!listed.count({2, 0})) {
    EXPECT_GE(rejected, 1);
  }
}

// A kernel that builds only if `macro` is (or is not) defined under OpenCL C 3.0.
cl_int build_with_macro_check(const Env& env, const std::string& macro, bool defined, std::string* log) {
  const std::string source = std::string(defined ? "#ifndef " : "#ifdef ") + macro + "\n#error " + macro +
                             (defined ? " is not defined" : " is defined") + "\n#endif\nkernel void k() {}\n";
  Program program = source_program(env.context, source);
  const cl_int status = build(program, env.device, "-cl-std=CL3.0");
  *log = build_log(program, env.device);
  return status;
}

TEST_P(BuildOptions, EveryReportedFeatureIsDefinedUnderOpenCLC30) {
  const auto features = name_versions(env.device, CL_DEVICE_OPENCL_C_FEATURES);
  for (const cl_name_version& feature : features) {
    std::string log;
    EXPECT_EQ(build_with_macro_check(env, feature.name, true, &log), CL_SUCCESS) << log;
  }
}

// Extensions that change the language have a macro of their name; API-only ones need not.
bool is_api_only_extension(const std::string& name) {
  static const std::set<std::string> api_only = {
      "cl_khr_extended_versioning",   "cl_khr_icd",
      "cl_khr_il_program",            "cl_khr_device_uuid",
      "cl_khr_pci_bus_info",          "cl_khr_spirv_queries",
      "cl_khr_suggested_local_work_size", "cl_khr_command_buffer",
      "cl_khr_command_buffer_mutable_dispatch", "cl_khr_create_command_queue",
      "cl_khr_priority_hints",        "cl_khr_throttle_hints",
      "cl_khr_semaphore",             "cl_khr_external_memory",
      "cl_khr_terminate_context",     "cl_nv_device_attribute_query",
      "cl_khr_image2d_from_buffer",   "cl_ext_buffer_device_address"};
  return api_only.count(name) != 0;
}

TEST_P(BuildOptions, EveryLanguageExtensionReportedIsDefined) {
  const auto extensions = name_versions(env.device, CL_DEVICE_EXTENSIONS_WITH_VERSION);
  ASSERT_FALSE(extensions.empty());
  int checked = 0;
  for (const cl_name_version& extension : extensions) {
    if (is_api_only_extension(extension.name)) continue;
    std::string log;
    EXPECT_EQ(build_with_macro_check(env, extension.name, true, &log), CL_SUCCESS) << log;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// OpenCL C defines __IMAGE_SUPPORT__ on every device with images (the CTS's
// kernel_numeric_constants checks it); test_unsupported_images checks the other side.
TEST_P(BuildOptions, ImageSupportMacroIsDefinedOnDevicesWithImages) {
  if (!info_value<cl_bool>(clGetDeviceInfo, env.device, CL_DEVICE_IMAGE_SUPPORT)) GTEST_SKIP() << "no images";
  std::string log;
  EXPECT_EQ(build_with_macro_check(env, "__IMAGE_SUPPORT__", true, &log), CL_SUCCESS) << log;
}

TEST_P(BuildOptions, OptionalFeaturesNotReportedAreNotDefined) {
  std::set<std::string> reported;
  for (const auto& f : name_versions(env.device, CL_DEVICE_OPENCL_C_FEATURES)) reported.insert(f.name);
  for (const auto& e : name_versions(env.device, CL_DEVICE_EXTENSIONS_WITH_VERSION)) reported.insert(e.name);
  const char* optional[] = {"__opencl_c_images",
                            "__opencl_c_pipes",
                            "__opencl_c_subgroups",
                            "__opencl_c_device_enqueue",
                            "__opencl_c_read_write_images",
                            "__opencl_c_3d_image_writes",
                            "__opencl_c_work_group_collective_functions",
                            "__opencl_c_fp16",
                            "__opencl_c_int64",
                            "__opencl_c_fp64",
                            "__opencl_c_generic_address_space",
                            "__opencl_c_program_scope_global_variables",
                            "__opencl_c_atomic_order_acq_rel",
                            "__opencl_c_atomic_order_seq_cst",
                            "__opencl_c_atomic_scope_device",
                            "__opencl_c_atomic_scope_all_devices",
                            "__opencl_c_integer_dot_product_input_4x8bit",
                            "cl_khr_fp16",
                            "cl_khr_3d_image_writes",
                            "cl_khr_subgroups",
                            "cl_khr_depth_images",
                            "cl_khr_mipmap_image"};
  int checked = 0;
  for (const char* macro : optional) {
    if (reported.count(macro)) continue;
    std::string log;
    EXPECT_EQ(build_with_macro_check(env, macro, false, &log), CL_SUCCESS) << log;
    ++checked;
  }
  EXPECT_GE(checked, 4);  // pipes, device-side enqueue, depth and mipmapped images on every device
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, BuildOptions, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
