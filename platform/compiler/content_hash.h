// Strong content hashes (BLAKE3) for cache keys and for the checksums of cucl's own
// file formats: the program binary container and the compile cache's entries.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace cucl::compiler {

inline constexpr std::size_t kContentDigestBytes = 32;
inline constexpr std::size_t kContentHashHexLength = 2 * kContentDigestBytes;
using ContentDigest = std::array<unsigned char, kContentDigestBytes>;

// Incremental hasher. `update` feeds raw bytes; `add_part` feeds one length-framed part,
// so that a sequence of parts hashes differently from any other split of the same bytes.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(ContentHasher&&) noexcept;
  ContentHasher& operator=(ContentHasher&&) noexcept;
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void update(const void* data, std::size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  void add_part(std::string_view part);
  ContentDigest digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string to_hex(const ContentDigest& digest);

// Lower-case hex digest of the length-framed parts: ("ab", "c") != ("a", "bc").
std::string content_hash(std::initializer_list<std::string_view> parts);

// True for strings content_hash can return: kContentHashHexLength characters of [0-9a-f].
bool is_content_hash(std::string_view text);

}  // namespace cucl::compiler
