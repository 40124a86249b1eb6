// The on-disk compile cache seen through the API. The platform reads CUCL_CACHE_DIR and
// CUCL_CACHE once, when it is created by the first OpenCL call, so this program sets them in
// a global test environment before any test runs, and no test here is parametrised over
// devices (building that list would call the loader during static initialisation). The
// CUCL_CACHE=0 case runs in a child process of this same program with its own environment.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "program_test_helpers.h"

extern char** environ;

using namespace cucl_test;
using namespace program_test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kChildMarker = "CUCL_TEST_CACHE_CHILD";

std::string make_temporary_folder(const char* name) {
  std::string pattern = (fs::temp_directory_path() / (std::string(name) + "-XXXXXX")).string();
  return mkdtemp(pattern.data()) ? pattern : std::string();
}

class CacheFolder : public ::testing::Environment {
 public:
  void SetUp() override {
    if (getenv(kChildMarker)) return;  // the child gets its settings from its parent
    path_ = make_temporary_folder("cucl-cache-test");
    ASSERT_FALSE(path_.empty());
    setenv("CUCL_CACHE_DIR", path_.c_str(), 1);
    unsetenv("CUCL_CACHE");
  }
  void TearDown() override {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }

 private:
  std::string path_;
};

::testing::Environment* const kCacheFolder = ::testing::AddGlobalTestEnvironment(new CacheFolder);

std::vector<fs::path> cache_files(const std::string& folder) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  return files;
}

std::string cache_folder() { return getenv("CUCL_CACHE_DIR") ? getenv("CUCL_CACHE_DIR") : ""; }

// A source no other test (or earlier run) has built: the cache starts empty for it.
std::string unique_source(const std::string& tag) {
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "// " + tag + " " + std::to_string(now) + "\n" +
         "kernel void k(global int* out) { int i = get_global_id(0); out[i] = i * FACTOR + 1; }\n";
}

bool log_says_cached(cl_program program, cl_device_id device) {
  return build_log(program, device).find("from the cache") != std::string::npos;
}

// Builds `source` with `options` in a fresh program, checks the kernel's results, and says
// whether the build came from the cache.
bool build_and_check(const Env& env, const std::string& source, const std::string& options, int factor) {
  Program program = source_program(env.context, source);
  EXPECT_EQ(build(program, env.device, options.c_str()), CL_SUCCESS) << build_log(program, env.device);
  Kernel kernel = make_kernel(program, "k");
  if (!kernel) return false;
  const auto values = run_on_ints(env, kernel, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(values[i], i * factor + 1) << i;
  return log_says_cached(program, env.device);
}

class ProgramCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (getenv(kChildMarker)) GTEST_SKIP() << "the child process runs only the disabled-cache test";
    folder_ = cache_folder();
    ASSERT_FALSE(folder_.empty());
  }
  Env env;
  std::string folder_;
};

TEST_F(ProgramCache, SecondBuildOfTheSameSourceHitsTheCache) {
  const std::string source = unique_source("hit");
  const size_t before = cache_files(folder_).size();
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=3", 3));
  EXPECT_EQ(cache_files(folder_).size(), before + 1) << "the first build stores one entry";
  EXPECT_TRUE(build_and_check(env, source, "-DFACTOR=3", 3));
  EXPECT_EQ(cache_files(folder_).size(), before + 1) << "a hit stores nothing new";
}

TEST_F(ProgramCache, ChangedOptionsOrSourceMiss) {
  const std::string source = unique_source("miss");
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=3", 3));
  const size_t stored = cache_files(folder_).size();
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=5", 5));
  EXPECT_FALSE(build_and_check(env, source + "// changed\n", "-DFACTOR=3", 3));
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=3 -cl-opt-disable", 3));
  EXPECT_EQ(cache_files(folder_).size(), stored + 3);
  EXPECT_TRUE(build_and_check(env, source, "-DFACTOR=5", 5));
}

TEST_F(ProgramCache, CorruptedEntriesAreRebuiltCorrectly) {
  const std::string source = unique_source("corrupt");
  const auto before = cache_files(folder_);
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=7", 7));
  std::vector<fs::path> added;
  for (const fs::path& file : cache_files(folder_)) {
    if (std::find(before.begin(), before.end(), file) == before.end()) added.push_back(file);
  }
  ASSERT_EQ(added.size(), 1u);
  {
    // Flip bytes in the middle of the entry.
    std::fstream entry(added[0], std::ios::in | std::ios::out | std::ios::binary);
    entry.seekg(0, std::ios::end);
    const auto size = static_cast<std::streamoff>(entry.tellg());
    ASSERT_GT(size, 16);
    for (std::streamoff at : {size / 3, size / 2, size - 8}) {
      entry.seekg(at);
      const char byte = static_cast<char>(entry.get());
      entry.seekp(at);
      entry.put(static_cast<char>(byte ^ 0x5a));
    }
  }
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=7", 7)) << "a damaged entry is not used";
  EXPECT_TRUE(build_and_check(env, source, "-DFACTOR=7", 7)) << "and is replaced by a good one";

  // An entry cut short, then one emptied.
  fs::resize_file(added[0], fs::file_size(added[0]) / 2);
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=7", 7));
  fs::resize_file(added[0], 0);
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=7", 7));
  EXPECT_TRUE(build_and_check(env, source, "-DFACTOR=7", 7));
}

// Runs this program again with CUCL_CACHE=0 and an empty cache folder, limited to the test
// below, and checks that nothing was written.
TEST_F(ProgramCache, DisabledCacheCreatesNoFiles) {
  const std::string empty_folder = make_temporary_folder("cucl-cache-off");
  ASSERT_FALSE(empty_folder.empty());
  std::vector<std::string> settings = {std::string(kChildMarker) + "=1", "CUCL_CACHE=0",
                                       "CUCL_CACHE_DIR=" + empty_folder};
  std::vector<char*> child_environment;
  for (std::string& setting : settings) child_environment.push_back(setting.data());
  for (char** entry = environ; *entry; ++entry) {
    const std::string_view text(*entry);
    if (text.starts_with("CUCL_CACHE") || text.starts_with(kChildMarker) || text.starts_with("GTEST_")) continue;
    child_environment.push_back(*entry);
  }
  child_environment.push_back(nullptr);
  std::string self = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=CacheDisabledChild.*";
  char* argv[] = {self.data(), filter.data(), nullptr};
  pid_t child = 0;
  ASSERT_EQ(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv, child_environment.data()), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's test failed";
  EXPECT_TRUE(cache_files(empty_folder).empty());
  std::error_code ignored;
  fs::remove_all(empty_folder, ignored);
}

// Only meaningful inside the child of DisabledCacheCreatesNoFiles.
TEST(CacheDisabledChild, BuildsWithoutTouchingTheCache) {
  if (!getenv(kChildMarker)) GTEST_SKIP() << "runs as DisabledCacheCreatesNoFiles' child";
  Env env;
  const std::string source = unique_source("disabled");
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=2", 2));
  EXPECT_FALSE(build_and_check(env, source, "-DFACTOR=2", 2));
  EXPECT_TRUE(cache_files(cache_folder()).empty());
}

}  // namespace
