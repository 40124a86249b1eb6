#include "platform/compiler/compile_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <thread>

#include "base/file_descriptor.h"
#include "platform/compiler/content_hash.h"

namespace cucl::compiler {
namespace {

// Entry format, version 1 (integers little-endian):
//   8 bytes magic "CUCLCCE\0", u32 version, u32 reserved (0), u64 value length,
//   32 bytes BLAKE3 over the length-framed parts (key, value), then the value.
constexpr std::array<unsigned char, 8> kEntryMagic = {'C', 'U', 'C', 'L', 'C', 'C', 'E', '\0'};
constexpr uint32_t kEntryVersion = 1;
constexpr std::size_t kEntryHeaderSize = 8 + 4 + 4 + 8 + kContentDigestBytes;
constexpr int kTemporaryNameAttempts = 8;

bool read_fully(int fd, char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_fully(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void put_u32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

void put_u64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

uint64_t get_le(const char* at, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(at[i]);
  return value;
}

ContentDigest entry_checksum(std::string_view key, std::string_view value) {
  ContentHasher hasher;
  hasher.add_part(key);
  hasher.add_part(value);
  return hasher.digest();
}

std::string entry_header(std::string_view key, std::string_view value) {
  std::string header(kEntryMagic.begin(), kEntryMagic.end());
  put_u32(header, kEntryVersion);
  put_u32(header, 0);
  put_u64(header, value.size());
  const ContentDigest checksum = entry_checksum(key, value);
  header.append(checksum.begin(), checksum.end());
  return header;
}

// The value length a well-formed header declares, or nullopt.
std::optional<uint64_t> declared_length(const char* header) {
  if (std::memcmp(header, kEntryMagic.data(), kEntryMagic.size()) != 0) return std::nullopt;
  if (get_le(header + 8, 4) != kEntryVersion || get_le(header + 12, 4) != 0) return std::nullopt;
  return get_le(header + 16, 8);
}

// Removes a bad entry, unless another writer has already replaced it with a new file.
void remove_if_unchanged(const std::string& path, const struct stat& seen) {
  struct stat now;
  if (::lstat(path.c_str(), &now) == 0 && now.st_dev == seen.st_dev && now.st_ino == seen.st_ino) {
    ::unlink(path.c_str());
  }
}

// mkdir -p with mode 0700 for the directories it creates.
bool make_directories(const std::string& path) {
  if (path.empty()) return false;
  if (::mkdir(path.c_str(), 0700) == 0) return true;
  if (errno == ENOENT) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return false;
    if (!make_directories(path.substr(0, slash))) return false;
    if (::mkdir(path.c_str(), 0700) == 0) return true;
  }
  if (errno != EEXIST) return false;
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string hex_number(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  return text;
}

// Creates a temporary file beside `final_path` that no other thread or process can share.
std::optional<std::pair<std::string, int>> create_temporary(const std::string& final_path) {
  const std::size_t slash = final_path.find_last_of('/');
  const std::string folder = final_path.substr(0, slash + 1);
  const std::string name = final_path.substr(slash + 1);
  std::random_device random;
  const uint64_t thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  for (int attempt = 0; attempt < kTemporaryNameAttempts; ++attempt) {
    const uint64_t nonce = (uint64_t{random()} << 32) | random();
    const std::string path = folder + "." + name + ".tmp." + std::to_string(::getpid()) + "." +
                             hex_number(thread) + "." + hex_number(nonce);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) return std::make_pair(path, fd);
    if (errno != EEXIST) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

CacheSettings cache_settings_from_environment(const std::function<const char*(const char*)>& getenv_fn) {
  const auto variable = [&](const char* name) -> std::string_view {
    const char* value = getenv_fn(name);
    return value ? std::string_view(value) : std::string_view();
  };
  CacheSettings result;
  if (const std::string_view chosen = variable(settings::variable(settings::Name::CUCL_CACHE_DIR)); !chosen.empty()) {
    result.directory = chosen;
  } else if (const std::string_view xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/') {
    // The XDG base directory specification says relative paths are to be ignored.
    result.directory = std::string(xdg) + "/cucl";
  } else if (const std::string_view home = variable("HOME"); !home.empty()) {
    result.directory = std::string(home) + "/.cache/cucl";
  }
  const std::string_view cache = variable(settings::variable(settings::Name::CUCL_CACHE));
  result.enabled = !result.directory.empty() && (cache.empty() || settings::flag_value(cache));
  return result;
}

CompileCache::CompileCache(CacheSettings settings) : settings_(std::move(settings)) {}

std::string CompileCache::entry_path(std::string_view key) const {
  std::string path = settings_.directory;
  path += '/';
  path += key.substr(0, 2);
  path += '/';
  path += key;
  return path;
}

std::optional<std::string> CompileCache::load(std::string_view key) const {
  if (!enabled() || !is_content_hash(key)) return std::nullopt;
  try {
    const std::string path = entry_path(key);
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!file.valid()) return std::nullopt;
    struct stat info;
    if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;

    // Entries are replaced, never rewritten in place, so the file read is the file stat'ed.
    const uint64_t file_size = static_cast<uint64_t>(info.st_size);
    char header[kEntryHeaderSize];
    if (file_size < kEntryHeaderSize || !read_fully(file.get(), header, kEntryHeaderSize)) {
      remove_if_unchanged(path, info);
      return std::nullopt;
    }
    const std::optional<uint64_t> length = declared_length(header);
    if (!length || *length != file_size - kEntryHeaderSize) {
      remove_if_unchanged(path, info);
      return std::nullopt;
    }
    std::string value(static_cast<std::size_t>(*length), '\0');
    if (!read_fully(file.get(), value.data(), value.size())) {
      remove_if_unchanged(path, info);
      return std::nullopt;
    }
    const ContentDigest checksum = entry_checksum(key, value);
    if (std::memcmp(checksum.data(), header + 24, kContentDigestBytes) != 0) {
      remove_if_unchanged(path, info);
      return std::nullopt;
    }
    return value;
  } catch (...) {
    return std::nullopt;  // out of memory for a huge entry: a miss
  }
}

void CompileCache::store(std::string_view key, std::string_view value) const {
  if (!enabled() || !is_content_hash(key)) return;
  try {
    const std::string path = entry_path(key);
    if (!make_directories(path.substr(0, path.find_last_of('/')))) return;
    const std::string header = entry_header(key, value);
    const auto temporary = create_temporary(path);
    if (!temporary) return;
    const std::string& temporary_path = temporary->first;
    FileDescriptor file(temporary->second);
    const bool written = write_fully(file.get(), header.data(), header.size()) &&
                         write_fully(file.get(), value.data(), value.size());
    if (!file.close() || !written || ::rename(temporary_path.c_str(), path.c_str()) != 0) {
      ::unlink(temporary_path.c_str());
    }
  } catch (...) {
    // A cache that cannot store is only slower.
  }
}

}  // namespace cucl::compiler
