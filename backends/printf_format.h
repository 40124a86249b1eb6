// printf in kernels, shared by every backend. Generated code appends one record per call
// to a per-launch buffer; after the launch the host formats the records, in buffer order,
// with the OpenCL C rules (vectors, length modifiers) and writes them to stdout.
//
// Buffer: [u64 bytes reserved][u64 capacity of the record area][records...]
// Record: [u32 record bytes][u32 call site][each argument's bytes, padded to 8]
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cucl::backend {

struct PrintfArgument {
  enum class Kind : uint8_t { Int, Float, Pointer, String };
  Kind kind = Kind::Int;
  uint8_t element_bytes = 4;  // of one element
  uint8_t width = 1;          // vector width, 1 for scalars
  std::string text;           // String: the constant string the call passes

  // Bytes in a record (String arguments take none: their text is in the table).
  size_t record_bytes() const { return kind == Kind::String ? 0 : (element_bytes * width + 7) / 8 * 8; }
};

struct PrintfCallSite {
  std::string format;
  std::vector<PrintfArgument> arguments;
};

constexpr size_t kPrintfHeaderBytes = 16;
constexpr size_t kPrintfRecordHeaderBytes = 8;

std::string encode_printf_table(const std::vector<PrintfCallSite>& sites);
// Empty when the table is damaged.
std::vector<PrintfCallSite> decode_printf_table(std::string_view table);

// The text of every complete record of `buffer` (the header included).
std::string format_printf_buffer(const char* buffer, const std::vector<PrintfCallSite>& sites);

// One call's text: `format` applied to the argument bytes of a record.
std::string format_printf_call(const PrintfCallSite& site, const char* arguments, size_t size);

}  // namespace cucl::backend
