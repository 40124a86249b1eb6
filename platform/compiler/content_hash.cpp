#include "platform/compiler/content_hash.h"

#include <llvm/Support/BLAKE3.h>

#include <cstdint>

namespace cucl::compiler {

struct ContentHasher::State {
  llvm::BLAKE3 hasher;
};

ContentHasher::ContentHasher() : state_(std::make_unique<State>()) {}
ContentHasher::~ContentHasher() = default;
ContentHasher::ContentHasher(ContentHasher&&) noexcept = default;
ContentHasher& ContentHasher::operator=(ContentHasher&&) noexcept = default;

void ContentHasher::update(const void* data, std::size_t size) {
  state_->hasher.update(llvm::ArrayRef<uint8_t>(static_cast<const uint8_t*>(data), size));
}

void ContentHasher::add_part(std::string_view part) {
  // Each part is preceded by its length (8 bytes, little-endian): a prefix-free framing.
  unsigned char length[8];
  uint64_t n = part.size();
  for (unsigned char& byte : length) {
    byte = static_cast<unsigned char>(n & 0xff);
    n >>= 8;
  }
  update(length, sizeof length);
  update(part);
}

ContentDigest ContentHasher::digest() const {
  llvm::BLAKE3Result<kContentDigestBytes> result = state_->hasher.final<kContentDigestBytes>();
  ContentDigest digest;
  for (std::size_t i = 0; i < kContentDigestBytes; ++i) digest[i] = result[i];
  return digest;
}

std::string to_hex(const ContentDigest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(kContentHashHexLength);
  for (unsigned char byte : digest) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0xf]);
  }
  return hex;
}

std::string content_hash(std::initializer_list<std::string_view> parts) {
  ContentHasher hasher;
  for (std::string_view part : parts) hasher.add_part(part);
  return to_hex(hasher.digest());
}

bool is_content_hash(std::string_view text) {
  if (text.size() != kContentHashHexLength) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace cucl::compiler
