// A content-addressed on-disk cache of compiled code, shared by every process of the user.
//
// Keys are content_hash() digests; entry <key> lives at <directory>/<key[0..2]>/<key>.
// Writers publish an entry by renaming a finished temporary file over its name, so readers
// see either no entry or a whole one. Each entry carries its length and a checksum over
// key and value; an entry that fails them is a miss and is removed. The cache never throws
// and never fails a build: any problem (unwritable directory, full disk, corrupt entry)
// is a miss.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/settings.h"

namespace cucl::compiler {

struct CacheSettings {
  bool enabled = false;
  std::string directory;
};

// CUCL_CACHE_DIR selects the directory (default: $XDG_CACHE_HOME/cucl, else
// $HOME/.cache/cucl); CUCL_CACHE=0, off, false or no (any case) disables the cache, as does
// having no directory at all. `getenv_fn` is the environment lookup (tests pass their own).
CacheSettings cache_settings_from_environment(
    const std::function<const char*(const char*)>& getenv_fn = settings::environment);

class CompileCache {
 public:
  explicit CompileCache(CacheSettings settings);

  bool enabled() const { return settings_.enabled && !settings_.directory.empty(); }
  const std::string& directory() const { return settings_.directory; }

  // The value stored under `key`, or nullopt on a miss, an invalid key or any read problem.
  std::optional<std::string> load(std::string_view key) const;
  // Stores `value` under `key`, replacing what was there. Never throws; failures are silent.
  void store(std::string_view key, std::string_view value) const;

  // Where entry `key` lives (the key must satisfy is_content_hash).
  std::string entry_path(std::string_view key) const;

 private:
  CacheSettings settings_;
};

}  // namespace cucl::compiler
