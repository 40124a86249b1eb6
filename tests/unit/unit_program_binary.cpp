// The program binary container: round trips, and rejection (never a crash) of anything
// serialize did not produce.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "platform/compiler/content_hash.h"
#include "platform/compiler/program_binary.h"
#include "base/error.h"

namespace cucl::compiler {
namespace {

using Bytes = std::vector<unsigned char>;

// Layout facts from program_binary.h, needed to build structurally wrong binaries whose
// checksum is nevertheless right.
constexpr std::size_t kHeaderSize = 64;
constexpr std::size_t kLengthsOffset = 24;
constexpr std::size_t kTrailerSize = kContentDigestBytes;

ProgramBinary small_binary() {
  ProgramBinary binary;
  binary.type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  binary.target = "x86_64-unknown-linux-gnu/znver3";
  binary.options = "-cl-std=CL3.0 -O2";
  binary.ir = std::string("BC\xc0\xde\x00\x01", 6);
  binary.native = std::string("\x7f" "ELF\x00\x02", 6);
  binary.source = "kernel void k(global int* p) { p[0] = 1; }";
  binary.kernel_arg_info = true;
  return binary;
}

// Rejected with CL_INVALID_BINARY (and nothing else).
bool rejected(const Bytes& bytes) {
  try {
    deserialize(bytes.data(), bytes.size());
    return false;
  } catch (const Error& error) {
    return error.code() == CL_INVALID_BINARY;
  }
}

// Recomputes the trailing checksum, so a mutation reaches the structural checks.
void reseal(Bytes& bytes) {
  if (bytes.size() < kTrailerSize) return;
  ContentHasher hasher;
  hasher.update(bytes.data(), bytes.size() - kTrailerSize);
  const ContentDigest digest = hasher.digest();
  std::memcpy(bytes.data() + bytes.size() - kTrailerSize, digest.data(), kTrailerSize);
}

void put_u64(Bytes& bytes, std::size_t offset, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[offset + i] = static_cast<unsigned char>(value >> (8 * i));
}

TEST(ProgramBinary, RoundTripsEveryField) {
  const ProgramBinary binary = small_binary();
  const Bytes bytes = serialize(binary);
  EXPECT_EQ(deserialize(bytes.data(), bytes.size()), binary);
}

TEST(ProgramBinary, RoundTripsEveryBinaryTypeAndFlag) {
  for (cl_program_binary_type type : {CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, CL_PROGRAM_BINARY_TYPE_LIBRARY,
                                      CL_PROGRAM_BINARY_TYPE_EXECUTABLE}) {
    for (bool arg_info : {false, true}) {
      ProgramBinary binary = small_binary();
      binary.type = type;
      binary.kernel_arg_info = arg_info;
      const Bytes bytes = serialize(binary);
      const ProgramBinary back = deserialize(bytes.data(), bytes.size());
      EXPECT_EQ(back.type, type);
      EXPECT_EQ(back.kernel_arg_info, arg_info);
      EXPECT_EQ(back, binary);
    }
  }
}

TEST(ProgramBinary, RoundTripsEmptyStrings) {
  ProgramBinary binary;
  binary.type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  const Bytes bytes = serialize(binary);
  EXPECT_EQ(bytes.size(), kHeaderSize + kTrailerSize);
  EXPECT_EQ(deserialize(bytes.data(), bytes.size()), binary);
}

TEST(ProgramBinary, RoundTripsEachSectionAloneSoSectionsCannotBleed) {
  for (int section = 0; section < 5; ++section) {
    ProgramBinary binary;
    binary.type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    std::string* fields[] = {&binary.target, &binary.options, &binary.ir, &binary.native, &binary.source};
    *fields[section] = std::string("only\0here", 9);
    const Bytes bytes = serialize(binary);
    EXPECT_EQ(deserialize(bytes.data(), bytes.size()), binary) << "section " << section;
  }
}

TEST(ProgramBinary, RoundTripsLargeStrings) {
  std::mt19937_64 random(7);
  ProgramBinary binary = small_binary();
  binary.ir.resize(10 << 20);
  for (char& c : binary.ir) c = static_cast<char>(random());
  binary.native.assign(10 << 20, '\0');
  binary.native.back() = 'x';
  binary.source.assign(3 << 20, 'k');
  const Bytes bytes = serialize(binary);
  EXPECT_EQ(deserialize(bytes.data(), bytes.size()), binary);
}

TEST(ProgramBinary, SerializeRejectsTypeNone) {
  ProgramBinary binary = small_binary();
  binary.type = CL_PROGRAM_BINARY_TYPE_NONE;
  try {
    serialize(binary);
    FAIL() << "serialized a binary of type NONE";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), CL_INVALID_VALUE);
  }
}

TEST(ProgramBinary, EveryTruncationIsRejected) {
  const Bytes bytes = serialize(small_binary());
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_TRUE(rejected(Bytes(bytes.begin(), bytes.begin() + length))) << "length " << length;
  }
}

TEST(ProgramBinary, TrailingBytesAreRejected) {
  Bytes bytes = serialize(small_binary());
  bytes.push_back(0);
  EXPECT_TRUE(rejected(bytes));
  reseal(bytes);
  EXPECT_TRUE(rejected(bytes));
}

TEST(ProgramBinary, EverySingleByteChangeIsRejected) {
  const Bytes original = serialize(small_binary());
  for (std::size_t at = 0; at < original.size(); ++at) {
    for (int mask = 1; mask < 256; ++mask) {
      Bytes bytes = original;
      bytes[at] ^= static_cast<unsigned char>(mask);
      ASSERT_TRUE(rejected(bytes)) << "byte " << at << " xor " << mask;
    }
  }
}

TEST(ProgramBinary, ForeignDataIsRejected) {
  EXPECT_TRUE(rejected({}));
  EXPECT_THROW(deserialize(nullptr, 0), Error);
  EXPECT_THROW(deserialize(nullptr, 100), Error);
  Bytes elf(4096, 0);
  const unsigned char elf_header[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  std::memcpy(elf.data(), elf_header, sizeof elf_header);
  EXPECT_TRUE(rejected(elf));
  const std::string ptx = "//\n// Generated by LLVM NVPTX Back-End\n//\n.version 7.0\n.target sm_80\n"
                          ".address_size 64\n.visible .entry k() { ret; }\n";
  EXPECT_TRUE(rejected(Bytes(ptx.begin(), ptx.end())));
  const std::string bitcode("BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00\x62\x0c\x30\x24", 16);
  EXPECT_TRUE(rejected(Bytes(bitcode.begin(), bitcode.end())));
  EXPECT_TRUE(rejected(Bytes(1 << 16, 0)));
  EXPECT_TRUE(rejected(Bytes(1 << 16, 0xff)));
}

TEST(ProgramBinary, RandomGarbageIsRejected) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 2000; ++round) {
    Bytes bytes(random() % 600);
    for (unsigned char& byte : bytes) byte = static_cast<unsigned char>(random());
    // Half of them carry the real magic and version, so they get past the first checks.
    if (round % 2 == 0 && bytes.size() >= 12) {
      std::memcpy(bytes.data(), "CUCLBIN\0\1\0\0\0", 12);
    }
    ASSERT_TRUE(rejected(bytes)) << "round " << round;
  }
}

TEST(ProgramBinary, OtherFormatVersionsAreRejectedEvenWithAValidChecksum) {
  for (uint32_t version : {0u, 2u, 0x01000000u, 0xffffffffu}) {
    Bytes bytes = serialize(small_binary());
    for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<unsigned char>(version >> (8 * i));
    reseal(bytes);
    EXPECT_TRUE(rejected(bytes)) << "version " << version;
  }
}

TEST(ProgramBinary, BadTypeFlagsOrReservedFieldAreRejectedEvenWithAValidChecksum) {
  const Bytes original = serialize(small_binary());
  struct Field {
    std::size_t offset;
    uint32_t value;
  };
  for (Field field : {Field{12, CL_PROGRAM_BINARY_TYPE_NONE}, Field{12, 0x2005}, Field{12, 0xffffffff},
                      Field{16, 2}, Field{16, 0x80000001}, Field{20, 1}}) {
    Bytes bytes = original;
    for (int i = 0; i < 4; ++i) bytes[field.offset + i] = static_cast<unsigned char>(field.value >> (8 * i));
    reseal(bytes);
    EXPECT_TRUE(rejected(bytes)) << "offset " << field.offset << " value " << field.value;
  }
}

TEST(ProgramBinary, OversizedSectionLengthsAreRejectedEvenWithAValidChecksum) {
  const Bytes original = serialize(small_binary());
  const uint64_t lengths[] = {original.size(), uint64_t{1} << 40, UINT64_MAX, UINT64_MAX - 10,
                              (uint64_t{1} << 63) + 5};
  for (std::size_t section = 0; section < 5; ++section) {
    for (uint64_t length : lengths) {
      Bytes bytes = original;
      put_u64(bytes, kLengthsOffset + 8 * section, length);
      reseal(bytes);
      EXPECT_TRUE(rejected(bytes)) << "section " << section << " length " << length;
    }
  }
  // Two lengths whose sum wraps around to the true total of target and options.
  const ProgramBinary binary = small_binary();
  Bytes bytes = original;
  put_u64(bytes, kLengthsOffset, UINT64_MAX);
  put_u64(bytes, kLengthsOffset + 8, 1 + binary.target.size() + binary.options.size());
  reseal(bytes);
  EXPECT_TRUE(rejected(bytes));
}

TEST(ProgramBinary, ShiftedSectionBoundariesFailTheChecksum) {
  // Moving one byte from a section to its neighbour keeps the total size; the checksum
  // covering the lengths is what rejects it.
  const ProgramBinary binary = small_binary();
  Bytes bytes = serialize(binary);
  put_u64(bytes, kLengthsOffset, binary.target.size() - 1);
  put_u64(bytes, kLengthsOffset + 8, binary.options.size() + 1);
  EXPECT_TRUE(rejected(bytes));
}

// Random mutations, half of them resealed so they reach the structural checks. Every
// input must either be rejected with CL_INVALID_BINARY or decode to a binary that
// serializes back to exactly the same bytes.
TEST(ProgramBinary, FuzzedMutationsNeverCrash) {
  const Bytes original = serialize(small_binary());
  std::mt19937_64 random(20240601);
  int accepted = 0;
  for (int round = 0; round < 5000; ++round) {
    Bytes bytes = original;
    const int mutations = 1 + static_cast<int>(random() % 4);
    for (int m = 0; m < mutations; ++m) {
      switch (random() % 6) {
        case 0:  // flip bits of one byte
          if (!bytes.empty()) bytes[random() % bytes.size()] ^= static_cast<unsigned char>(1 + random() % 255);
          break;
        case 1:  // truncate
          bytes.resize(random() % (bytes.size() + 1));
          break;
        case 2:  // extend with random bytes
          for (int n = static_cast<int>(random() % 64); n > 0; --n) bytes.push_back(static_cast<unsigned char>(random()));
          break;
        case 3:  // a random section length
          if (bytes.size() >= kHeaderSize) {
            const uint64_t value = random() % 2 ? random() : random() % (bytes.size() + 8);
            put_u64(bytes, kLengthsOffset + 8 * (random() % 5), value);
          }
          break;
        case 4:  // a random type or flags word
          if (bytes.size() >= kHeaderSize) bytes[12 + random() % 8] = static_cast<unsigned char>(random());
          break;
        case 5:  // erase a range
          if (!bytes.empty()) {
            const std::size_t from = random() % bytes.size();
            const std::size_t count = random() % (bytes.size() - from + 1);
            bytes.erase(bytes.begin() + from, bytes.begin() + from + count);
          }
          break;
      }
    }
    if (round % 2 == 0) reseal(bytes);
    try {
      const ProgramBinary binary = deserialize(bytes.data(), bytes.size());
      ++accepted;
      ASSERT_EQ(serialize(binary), bytes) << "round " << round;
    } catch (const Error& error) {
      ASSERT_EQ(error.code(), CL_INVALID_BINARY) << "round " << round;
    }
  }
  // Only resealed, structurally consistent mutations may be accepted.
  EXPECT_LT(accepted, 2500);
}

}  // namespace
}  // namespace cucl::compiler
