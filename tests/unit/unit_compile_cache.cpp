// The on-disk compile cache: round trips, misses for anything damaged, settings from the
// environment, and many threads and processes sharing one cache directory.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "platform/compiler/compile_cache.h"
#include "platform/compiler/content_hash.h"

namespace cucl::compiler {
namespace {

namespace fs = std::filesystem;

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "cucl-cache-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string key_for(int n) { return content_hash({"test key", std::to_string(n)}); }

CompileCache cache_in(const fs::path& directory) { return CompileCache(CacheSettings{true, directory.string()}); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<fs::path> files_under(const fs::path& directory) {
  std::vector<fs::path> files;
  std::error_code ignored;
  for (const auto& entry : fs::recursive_directory_iterator(directory, ignored)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  return files;
}

TEST(ContentHash, IsHexOfFixedLengthAndFramesItsParts) {
  const std::string hash = content_hash({"ab", "c"});
  EXPECT_TRUE(is_content_hash(hash));
  EXPECT_EQ(hash.size(), kContentHashHexLength);
  EXPECT_EQ(hash, content_hash({"ab", "c"}));
  EXPECT_NE(hash, content_hash({"a", "bc"}));
  EXPECT_NE(hash, content_hash({"abc"}));
  EXPECT_NE(content_hash({"a"}), content_hash({"a", ""}));
  EXPECT_NE(content_hash({}), content_hash({""}));
  EXPECT_NE(content_hash({std::string_view("a\0b", 3)}), content_hash({"a"}));
  EXPECT_FALSE(is_content_hash(hash.substr(1)));
  EXPECT_FALSE(is_content_hash("G" + hash.substr(1)));
  EXPECT_FALSE(is_content_hash("A" + hash.substr(1)));
}

TEST(ContentHash, IncrementalHashingMatchesOneShot) {
  ContentHasher whole;
  whole.update("hello world");
  ContentHasher pieces;
  pieces.update("hello");
  pieces.update(" world");
  EXPECT_EQ(whole.digest(), pieces.digest());
  ContentHasher framed;
  framed.add_part("x");
  framed.add_part("yz");
  EXPECT_EQ(to_hex(framed.digest()), content_hash({"x", "yz"}));
}

TEST(CompileCache, StoreThenLoadRoundTrips) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  ASSERT_TRUE(cache.enabled());
  const std::string binary("\x7f" "ELF\0\0\1\2 code", 14);
  cache.store(key_for(1), binary);
  cache.store(key_for(2), "");
  std::string large(5 << 20, '\0');
  std::mt19937_64 random(3);
  for (char& c : large) c = static_cast<char>(random());
  cache.store(key_for(3), large);

  EXPECT_EQ(cache.load(key_for(1)), binary);
  EXPECT_EQ(cache.load(key_for(2)), std::string());
  EXPECT_EQ(cache.load(key_for(3)), large);
  // A second cache object on the same directory (another process, later) sees the entries.
  EXPECT_EQ(cache_in(directory.path()).load(key_for(1)), binary);
}

TEST(CompileCache, UnknownKeyIsAMiss) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  EXPECT_EQ(cache.load(key_for(1)), std::nullopt);
  cache.store(key_for(1), "value");
  EXPECT_EQ(cache.load(key_for(2)), std::nullopt);
}

TEST(CompileCache, StoreReplacesAnEntry) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  cache.store(key_for(1), "first");
  cache.store(key_for(1), "second, longer");
  EXPECT_EQ(cache.load(key_for(1)), "second, longer");
  cache.store(key_for(1), "3");
  EXPECT_EQ(cache.load(key_for(1)), "3");
}

TEST(CompileCache, EntriesLiveUnderTheirKeysFirstTwoCharactersInPrivateDirectories) {
  TemporaryDirectory directory;
  const fs::path root = directory.path() / "nested" / "cache";
  const CompileCache cache = cache_in(root);
  const std::string key = key_for(1);
  cache.store(key, "value");
  const fs::path entry = root / key.substr(0, 2) / key;
  EXPECT_EQ(fs::path(cache.entry_path(key)), entry);
  EXPECT_TRUE(fs::is_regular_file(entry));
  // Only the entry itself: no temporary file is left behind.
  EXPECT_EQ(files_under(directory.path()), std::vector<fs::path>{entry});
  for (const fs::path& folder : {directory.path() / "nested", root, root / key.substr(0, 2)}) {
    struct stat info;
    ASSERT_EQ(::stat(folder.c_str(), &info), 0) << folder;
    EXPECT_EQ(info.st_mode & 0777, 0700u) << folder;
  }
  struct stat info;
  ASSERT_EQ(::stat(entry.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0077, 0u);
}

TEST(CompileCache, DisabledCacheStoresAndLoadsNothing) {
  TemporaryDirectory directory;
  cache_in(directory.path()).store(key_for(1), "value");
  const CompileCache disabled(CacheSettings{false, directory.path().string()});
  EXPECT_FALSE(disabled.enabled());
  EXPECT_EQ(disabled.load(key_for(1)), std::nullopt);
  disabled.store(key_for(2), "value");
  EXPECT_EQ(files_under(directory.path()).size(), 1u);
  EXPECT_FALSE(CompileCache(CacheSettings{true, ""}).enabled());
}

TEST(CompileCache, InvalidKeysAreMissesAndStoreNothing) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  const std::string good = key_for(1);
  std::string upper = good;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& key : {std::string(), good.substr(1), good + "0", upper, std::string("../../../../etc/passwd"),
                                 std::string(64, '.'), "/" + good.substr(1), good.substr(0, 63) + '\0'}) {
    if (key == good) continue;
    cache.store(key, "value");
    EXPECT_EQ(cache.load(key), std::nullopt) << key;
  }
  EXPECT_TRUE(files_under(directory.path()).empty());
}

TEST(CompileCache, EveryCorruptedByteIsAMissAndTheEntryIsRemoved) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  const std::string key = key_for(1);
  const fs::path entry = cache.entry_path(key);
  cache.store(key, "some compiled code");
  const std::string original = read_file(entry);
  ASSERT_GT(original.size(), 18u);
  for (std::size_t at = 0; at < original.size(); ++at) {
    std::string corrupted = original;
    corrupted[at] = static_cast<char>(corrupted[at] ^ 0x20);
    write_file(entry, corrupted);
    EXPECT_EQ(cache.load(key), std::nullopt) << "byte " << at;
    EXPECT_FALSE(fs::exists(entry)) << "byte " << at;
  }
  cache.store(key, "some compiled code");
  EXPECT_EQ(cache.load(key), "some compiled code");
}

TEST(CompileCache, EveryTruncationOrExtensionIsAMiss) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  const std::string key = key_for(1);
  const fs::path entry = cache.entry_path(key);
  cache.store(key, "some compiled code");
  const std::string original = read_file(entry);
  for (std::size_t length = 0; length < original.size(); ++length) {
    write_file(entry, original.substr(0, length));
    EXPECT_EQ(cache.load(key), std::nullopt) << "length " << length;
  }
  write_file(entry, original + "x");
  EXPECT_EQ(cache.load(key), std::nullopt);
  write_file(entry, original);
  EXPECT_EQ(cache.load(key), "some compiled code");
}

TEST(CompileCache, AnEntryCopiedToAnotherKeyIsAMiss) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  cache.store(key_for(1), "value of one");
  const fs::path other = cache.entry_path(key_for(2));
  fs::create_directories(other.parent_path());
  fs::copy_file(cache.entry_path(key_for(1)), other);
  EXPECT_EQ(cache.load(key_for(2)), std::nullopt);
  EXPECT_EQ(cache.load(key_for(1)), "value of one");
}

TEST(CompileCache, ForeignFilesAtAnEntryPathAreMisses) {
  TemporaryDirectory directory;
  const CompileCache cache = cache_in(directory.path());
  const std::string key = key_for(1);
  const fs::path entry = cache.entry_path(key);
  fs::create_directories(entry);  // a directory where the entry should be
  EXPECT_EQ(cache.load(key), std::nullopt);
  cache.store(key, "value");  // renaming a file over a directory fails, quietly
  fs::remove(entry);
  write_file(entry, std::string(4096, 'x'));
  EXPECT_EQ(cache.load(key), std::nullopt);
  cache.store(key, "value");
  EXPECT_EQ(cache.load(key), "value");
}

TEST(CompileCache, UnwritableDirectoryGivesMissesWithoutThrowing) {
  TemporaryDirectory directory;
  const fs::path regular_file = directory.path() / "not-a-directory";
  write_file(regular_file, "x");
  const CompileCache under_file = cache_in(regular_file / "cache");
  EXPECT_TRUE(under_file.enabled());
  EXPECT_NO_THROW(under_file.store(key_for(1), "value"));
  EXPECT_EQ(under_file.load(key_for(1)), std::nullopt);

  const CompileCache at_file = cache_in(regular_file);
  EXPECT_NO_THROW(at_file.store(key_for(1), "value"));
  EXPECT_EQ(at_file.load(key_for(1)), std::nullopt);

  if (::geteuid() != 0) {  // root ignores permission bits
    const fs::path read_only = directory.path() / "read-only";
    fs::create_directories(read_only);
    fs::permissions(read_only, fs::perms::owner_read | fs::perms::owner_exec);
    const CompileCache cache = cache_in(read_only);
    EXPECT_NO_THROW(cache.store(key_for(1), "value"));
    EXPECT_EQ(cache.load(key_for(1)), std::nullopt);
  }
}

// Settings from a given environment.
CacheSettings settings_from(const std::map<std::string, std::string>& environment) {
  return cache_settings_from_environment([&](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  });
}

TEST(CacheSettings, DirectoryComesFromTheEnvironment) {
  CacheSettings settings = settings_from({});
  EXPECT_FALSE(settings.enabled);  // nowhere to put it
  EXPECT_EQ(settings.directory, "");

  settings = settings_from({{"HOME", "/home/u"}});
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/home/u/.cache/cucl");

  settings = settings_from({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/xdg"}});
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/xdg/cucl");

  // Relative and empty XDG_CACHE_HOME are ignored, as the XDG specification says.
  EXPECT_EQ(settings_from({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "relative"}}).directory, "/home/u/.cache/cucl");
  EXPECT_EQ(settings_from({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", ""}}).directory, "/home/u/.cache/cucl");

  settings = settings_from({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/xdg"}, {"CUCL_CACHE_DIR", "/chosen/dir"}});
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/chosen/dir");
  EXPECT_EQ(settings_from({{"CUCL_CACHE_DIR", "/chosen/dir"}}).directory, "/chosen/dir");
  EXPECT_EQ(settings_from({{"HOME", "/home/u"}, {"CUCL_CACHE_DIR", ""}}).directory, "/home/u/.cache/cucl");
  EXPECT_FALSE(settings_from({{"HOME", ""}}).enabled);
}

TEST(CacheSettings, CuclCacheSwitchesItOff) {
  for (const char* off : {"0", "off", "false", "no", "OFF", "False", "No"}) {
    const CacheSettings settings = settings_from({{"HOME", "/home/u"}, {"CUCL_CACHE", off}});
    EXPECT_FALSE(settings.enabled) << off;
    EXPECT_FALSE(CompileCache(settings).enabled()) << off;
    EXPECT_FALSE(settings_from({{"CUCL_CACHE_DIR", "/d"}, {"CUCL_CACHE", off}}).enabled) << off;
  }
  for (const char* on : {"1", "on", "true", "yes", ""}) {
    EXPECT_TRUE(settings_from({{"HOME", "/home/u"}, {"CUCL_CACHE", on}}).enabled) << on;
  }
}

TEST(CacheSettings, DefaultLookupIsTheProcessEnvironment) {
  const CacheSettings settings = cache_settings_from_environment();
  const CacheSettings expected = cache_settings_from_environment([](const char* name) { return ::getenv(name); });
  EXPECT_EQ(settings.enabled, expected.enabled);
  EXPECT_EQ(settings.directory, expected.directory);
}

// Many writers and readers on one directory. Shared keys are written by everyone with
// different values; each writer also owns a private key. A load must return nothing or
// exactly one stored value, never a mix or a partial file.
constexpr int kSharedKeys = 4;
constexpr int kParentThreads = 4;
constexpr int kChildProcesses = 4;
constexpr int kThreadsPerChild = 2;
constexpr int kWorkers = kParentThreads + kChildProcesses * kThreadsPerChild;
constexpr int kRounds = 400;

struct Workload {
  std::vector<std::string> shared_keys;
  std::vector<std::string> private_keys;              // one per worker
  std::vector<std::vector<std::string>> shared_values;  // [key][worker]
  std::vector<std::string> private_values;           // [worker]

  Workload() {
    std::mt19937_64 random(99);
    const auto make_value = [&](std::size_t size) {
      std::string value(size, '\0');
      for (char& c : value) c = static_cast<char>(random());
      return value;
    };
    for (int k = 0; k < kSharedKeys; ++k) {
      shared_keys.push_back(content_hash({"shared", std::to_string(k)}));
      shared_values.emplace_back();
      for (int w = 0; w < kWorkers; ++w) shared_values.back().push_back(make_value(20000 + 9973 * ((k + w) % 7)));
    }
    for (int w = 0; w < kWorkers; ++w) {
      private_keys.push_back(content_hash({"private", std::to_string(w)}));
      private_values.push_back(make_value(30000 + 101 * w));
    }
  }

  bool is_shared_value(int key, const std::string& value) const {
    for (const std::string& candidate : shared_values[key]) {
      if (candidate == value) return true;
    }
    return false;
  }
};

// Returns the number of wrong loads.
int run_worker(const Workload& work, const CompileCache& cache, int worker, std::atomic<long>& hits) {
  std::mt19937 random(1000 + worker);
  int wrong = 0;
  for (int round = 0; round < kRounds; ++round) {
    const int key = static_cast<int>(random() % kSharedKeys);
    switch (random() % 3) {
      case 0:
        cache.store(work.shared_keys[key], work.shared_values[key][worker]);
        break;
      case 1:
        if (const auto value = cache.load(work.shared_keys[key])) {
          ++hits;
          if (!work.is_shared_value(key, *value)) ++wrong;
        }
        break;
      case 2: {
        cache.store(work.private_keys[worker], work.private_values[worker]);
        const auto value = cache.load(work.private_keys[worker]);
        if (value) ++hits;
        if (value != work.private_values[worker]) ++wrong;  // nobody else writes this key
        break;
      }
    }
  }
  return wrong;
}

int run_workers(const Workload& work, const CompileCache& cache, int first_worker, int count,
                std::atomic<long>& hits) {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t) {
    threads.emplace_back([&, t] { wrong += run_worker(work, cache, first_worker + t, hits); });
  }
  for (std::thread& thread : threads) thread.join();
  return wrong;
}

TEST(CompileCache, ThreadsAndProcessesShareOneDirectorySafely) {
  TemporaryDirectory directory;
  const Workload work;
  const CompileCache cache = cache_in(directory.path() / "shared-cache");

  // Children are forked before this process starts threads; they wait on a pipe so that
  // every worker starts at once.
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  std::vector<pid_t> children;
  for (int c = 0; c < kChildProcesses; ++c) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(start[1]);
      char byte;
      while (::read(start[0], &byte, 1) < 0 && errno == EINTR) {
      }
      std::atomic<long> hits{0};
      const int wrong = run_workers(work, cache, kParentThreads + c * kThreadsPerChild, kThreadsPerChild, hits);
      ::_exit(wrong == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  ::close(start[0]);
  std::atomic<long> hits{0};
  std::thread parent_workers([&] { EXPECT_EQ(run_workers(work, cache, 0, kParentThreads, hits), 0); });
  ::close(start[1]);  // go
  parent_workers.join();

  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid << " status " << status;
  }
  EXPECT_GT(hits.load(), 0);

  // Afterwards: every key holds one of its values, and no temporary file is left.
  for (int k = 0; k < kSharedKeys; ++k) {
    const auto value = cache.load(work.shared_keys[k]);
    ASSERT_TRUE(value.has_value()) << "shared key " << k;
    EXPECT_TRUE(work.is_shared_value(k, *value)) << "shared key " << k;
  }
  for (int w = 0; w < kWorkers; ++w) EXPECT_EQ(cache.load(work.private_keys[w]), work.private_values[w]);
  for (const fs::path& file : files_under(directory.path())) {
    EXPECT_TRUE(is_content_hash(file.filename().string())) << file;
  }
  EXPECT_EQ(files_under(directory.path()).size(), static_cast<std::size_t>(kSharedKeys + kWorkers));
}

}  // namespace
}  // namespace cucl::compiler
