#include "platform/compiler/program_binary.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "platform/compiler/content_hash.h"
#include "base/error.h"

namespace cucl::compiler {
namespace {

constexpr std::array<unsigned char, 8> kMagic = {'C', 'U', 'C', 'L', 'B', 'I', 'N', '\0'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kFlagKernelArgInfo = 1u << 0;
constexpr std::size_t kSectionCount = 5;
constexpr std::size_t kHeaderSize = 8 + 4 * 4 + kSectionCount * 8;
constexpr std::size_t kTrailerSize = kContentDigestBytes;

bool is_binary_type(uint32_t type) {
  return type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || type == CL_PROGRAM_BINARY_TYPE_LIBRARY ||
         type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

void put_u32(std::vector<unsigned char>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

void put_u64(std::vector<unsigned char>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(value >> (8 * i)));
}

uint32_t get_u32(const unsigned char* at) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | at[i];
  return value;
}

uint64_t get_u64(const unsigned char* at) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | at[i];
  return value;
}

// The sections in their on-disk order.
std::array<const std::string*, kSectionCount> sections_of(const ProgramBinary& binary) {
  return {&binary.target, &binary.options, &binary.ir, &binary.native, &binary.source};
}

std::array<std::string*, kSectionCount> sections_of(ProgramBinary& binary) {
  return {&binary.target, &binary.options, &binary.ir, &binary.native, &binary.source};
}

ContentDigest checksum_of(const unsigned char* data, std::size_t size) {
  ContentHasher hasher;
  hasher.update(data, size);
  return hasher.digest();
}

}  // namespace

std::vector<unsigned char> serialize(const ProgramBinary& binary) {
  check(is_binary_type(binary.type), CL_INVALID_VALUE);
  const auto sections = sections_of(binary);
  std::size_t total = kHeaderSize + kTrailerSize;
  for (const std::string* section : sections) total += section->size();

  std::vector<unsigned char> out;
  out.reserve(total);
  out.insert(out.end(), kMagic.begin(), kMagic.end());
  put_u32(out, kFormatVersion);
  put_u32(out, binary.type);
  put_u32(out, binary.kernel_arg_info ? kFlagKernelArgInfo : 0);
  put_u32(out, 0);
  for (const std::string* section : sections) put_u64(out, section->size());
  for (const std::string* section : sections) out.insert(out.end(), section->begin(), section->end());
  const ContentDigest checksum = checksum_of(out.data(), out.size());
  out.insert(out.end(), checksum.begin(), checksum.end());
  return out;
}

ProgramBinary deserialize(const unsigned char* data, std::size_t size) {
  check(data != nullptr && size >= kHeaderSize + kTrailerSize, CL_INVALID_BINARY);
  check(std::memcmp(data, kMagic.data(), kMagic.size()) == 0, CL_INVALID_BINARY);
  check(get_u32(data + 8) == kFormatVersion, CL_INVALID_BINARY);

  // Every length is checked against what is left before it is added, so no sum overflows.
  uint64_t lengths[kSectionCount];
  uint64_t remaining = size - kHeaderSize - kTrailerSize;
  for (std::size_t i = 0; i < kSectionCount; ++i) {
    lengths[i] = get_u64(data + 24 + 8 * i);
    check(lengths[i] <= remaining, CL_INVALID_BINARY);
    remaining -= lengths[i];
  }
  check(remaining == 0, CL_INVALID_BINARY);

  const std::size_t payload_size = size - kTrailerSize;
  const ContentDigest checksum = checksum_of(data, payload_size);
  check(std::memcmp(checksum.data(), data + payload_size, kTrailerSize) == 0, CL_INVALID_BINARY);

  const uint32_t type = get_u32(data + 12);
  const uint32_t flags = get_u32(data + 16);
  check(is_binary_type(type), CL_INVALID_BINARY);
  check((flags & ~kFlagKernelArgInfo) == 0, CL_INVALID_BINARY);
  check(get_u32(data + 20) == 0, CL_INVALID_BINARY);

  ProgramBinary binary;
  binary.type = type;
  binary.kernel_arg_info = (flags & kFlagKernelArgInfo) != 0;
  const unsigned char* cursor = data + kHeaderSize;
  const auto sections = sections_of(binary);
  for (std::size_t i = 0; i < kSectionCount; ++i) {
    sections[i]->assign(reinterpret_cast<const char*>(cursor), static_cast<std::size_t>(lengths[i]));
    cursor += lengths[i];
  }
  return binary;
}

}  // namespace cucl::compiler
