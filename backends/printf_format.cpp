#include "backends/printf_format.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cucl::backend {
namespace {

template <class T>
T read(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

void append_u32(std::string& out, uint32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); }

struct Conversion {
  std::string flags_width_precision;  // what goes between '%' and the length modifier
  unsigned vector_width = 1;
  std::string length;                 // hh, h, hl, l (or empty)
  char specifier = 0;
};

// Parses the conversion after '%' at format[i]; returns the index after it.
size_t parse_conversion(std::string_view format, size_t i, Conversion& c) {
  const size_t start = i;
  while (i < format.size() && std::strchr("-+ #0", format[i])) ++i;
  while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
  if (i < format.size() && format[i] == '.') {
    ++i;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
  }
  c.flags_width_precision = std::string(format.substr(start, i - start));
  if (i < format.size() && format[i] == 'v') {
    ++i;
    unsigned width = 0;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) width = width * 10 + (format[i++] - '0');
    c.vector_width = width;
  }
  // z (size_t) and t (ptrdiff_t): OpenCL C 3.1's.
  for (const char* length : {"hh", "hl", "h", "ll", "l", "z", "t"}) {
    if (format.substr(i).starts_with(length)) {
      c.length = length;
      i += std::strlen(length);
      break;
    }
  }
  if (i < format.size()) c.specifier = format[i++];
  return i;
}

std::string snprintf_string(const std::string& spec, auto value) {
  char small[128];
  const int needed = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (needed < 0) return {};
  if (static_cast<size_t>(needed) < sizeof small) return std::string(small, static_cast<size_t>(needed));
  std::string big(static_cast<size_t>(needed) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  big.resize(static_cast<size_t>(needed));
  return big;
}

// The integer of `bytes` bytes at `at`, narrowed to what the length modifier says and
// sign- or zero-extended as the conversion says.
std::string format_integer(const Conversion& c, const char* at, unsigned bytes) {
  int64_t raw = 0;
  switch (bytes) {
    case 1: raw = read<int8_t>(at); break;
    case 2: raw = read<int16_t>(at); break;
    case 4: raw = read<int32_t>(at); break;
    default: raw = read<int64_t>(at); break;
  }
  unsigned target = 4;
  if (c.length == "hh") target = 1;
  else if (c.length == "h") target = 2;
  else if (c.length == "l" || c.length == "ll" || c.length == "z" || c.length == "t") target = 8;
  const bool is_signed = c.specifier == 'd' || c.specifier == 'i';
  const std::string spec = "%" + c.flags_width_precision + "ll" + c.specifier;
  if (c.specifier == 'c') return snprintf_string("%" + c.flags_width_precision + "c", static_cast<int>(static_cast<unsigned char>(raw)));
  if (is_signed) {
    int64_t value = target == 1 ? int8_t(raw) : target == 2 ? int16_t(raw) : target == 4 ? int32_t(raw) : raw;
    return snprintf_string(spec, static_cast<long long>(value));
  }
  uint64_t value = target == 1 ? uint8_t(raw) : target == 2 ? uint16_t(raw) : target == 4 ? uint32_t(raw) : uint64_t(raw);
  return snprintf_string(spec, static_cast<unsigned long long>(value));
}

double half_to_double(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(mantissa, -24)
                     : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                      : std::ldexp(mantissa + 1024, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

std::string format_float(const Conversion& c, const char* at, unsigned bytes) {
  const double value = bytes == 2   ? half_to_double(read<uint16_t>(at))
                       : bytes == 4 ? static_cast<double>(read<float>(at))
                                    : read<double>(at);
  return snprintf_string("%" + c.flags_width_precision + c.specifier, value);
}

std::string format_argument(const Conversion& c, const PrintfArgument& argument, const char* at) {
  if (c.specifier == 's') {
    if (argument.kind == PrintfArgument::Kind::String) return snprintf_string("%" + c.flags_width_precision + "s", argument.text.c_str());
    // A string whose address is known only at run time: host memory holds it.
    if (argument.kind == PrintfArgument::Kind::Pointer) {
      return snprintf_string("%" + c.flags_width_precision + "s", read<const char*>(at));
    }
    return {};
  }
  if (c.specifier == 'p') return snprintf_string("%" + c.flags_width_precision + "p", read<void*>(at));
  const bool floating = std::strchr("fFeEgGaA", c.specifier) != nullptr;
  if (c.vector_width <= 1) {
    if (floating) return argument.kind == PrintfArgument::Kind::Float ? format_float(c, at, argument.element_bytes) : "";
    return format_integer(c, at, argument.element_bytes);
  }
  // A vector. Its elements are read as the conversion says: the ABI may have passed a small
  // vector as one integer or double (x86-64 does), so the argument's own type says little.
  unsigned element_bytes = floating ? 4 : argument.element_bytes;
  if (c.length == "hh") element_bytes = 1;
  else if (c.length == "h") element_bytes = 2;
  else if (c.length == "hl") element_bytes = 4;
  else if (c.length == "l") element_bytes = 8;
  if (element_bytes * c.vector_width > argument.element_bytes * argument.width) return {};
  Conversion element = c;
  element.length = element_bytes == 8 ? "l" : element_bytes == 2 ? "h" : element_bytes == 1 ? "hh" : "";
  std::string text;
  for (unsigned e = 0; e < c.vector_width; ++e) {
    if (e) text += ',';
    const char* value = at + e * element_bytes;
    text += floating ? format_float(element, value, element_bytes) : format_integer(element, value, element_bytes);
  }
  return text;
}

}  // namespace

std::string encode_printf_table(const std::vector<PrintfCallSite>& sites) {
  std::string out;
  append_u32(out, static_cast<uint32_t>(sites.size()));
  for (const PrintfCallSite& site : sites) {
    append_u32(out, static_cast<uint32_t>(site.format.size()));
    out += site.format;
    append_u32(out, static_cast<uint32_t>(site.arguments.size()));
    for (const PrintfArgument& argument : site.arguments) {
      out += static_cast<char>(argument.kind);
      out += static_cast<char>(argument.element_bytes);
      out += static_cast<char>(argument.width);
      append_u32(out, static_cast<uint32_t>(argument.text.size()));
      out += argument.text;
    }
  }
  return out;
}

std::vector<PrintfCallSite> decode_printf_table(std::string_view table) {
  std::vector<PrintfCallSite> sites;
  size_t at = 0;
  auto u32 = [&](uint32_t& value) {
    if (table.size() - at < 4) return false;
    value = read<uint32_t>(table.data() + at);
    at += 4;
    return true;
  };
  auto text = [&](std::string& value) {
    uint32_t size = 0;
    if (!u32(size) || table.size() - at < size) return false;
    value.assign(table.substr(at, size));
    at += size;
    return true;
  };
  uint32_t count = 0;
  if (!u32(count)) return {};
  for (uint32_t s = 0; s < count; ++s) {
    PrintfCallSite site;
    uint32_t arguments = 0;
    if (!text(site.format) || !u32(arguments)) return {};
    for (uint32_t a = 0; a < arguments; ++a) {
      if (table.size() - at < 3) return {};
      PrintfArgument argument;
      argument.kind = static_cast<PrintfArgument::Kind>(table[at]);
      argument.element_bytes = static_cast<uint8_t>(table[at + 1]);
      argument.width = static_cast<uint8_t>(table[at + 2]);
      at += 3;
      if (!text(argument.text)) return {};
      site.arguments.push_back(std::move(argument));
    }
    sites.push_back(std::move(site));
  }
  return sites;
}

std::string format_printf_call(const PrintfCallSite& site, const char* arguments, size_t size) {
  std::string out;
  const std::string_view format = site.format;
  size_t next_argument = 0;
  size_t offset = 0;
  for (size_t i = 0; i < format.size();) {
    if (format[i] != '%') {
      out += format[i++];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    Conversion conversion;
    i = parse_conversion(format, i + 1, conversion);
    if (next_argument >= site.arguments.size()) break;
    const PrintfArgument& argument = site.arguments[next_argument++];
    if (offset + argument.record_bytes() > size) break;
    out += format_argument(conversion, argument, arguments + offset);
    offset += argument.record_bytes();
  }
  return out;
}

std::string format_printf_buffer(const char* buffer, const std::vector<PrintfCallSite>& sites) {
  const uint64_t reserved = read<uint64_t>(buffer);
  const uint64_t capacity = read<uint64_t>(buffer + 8);
  const uint64_t used = std::min(reserved, capacity);
  const char* records = buffer + kPrintfHeaderBytes;
  std::string out;
  for (uint64_t at = 0; at + kPrintfRecordHeaderBytes <= used;) {
    const uint32_t bytes = read<uint32_t>(records + at);
    const uint32_t site = read<uint32_t>(records + at + 4);
    if (bytes < kPrintfRecordHeaderBytes || at + bytes > used || site >= sites.size()) break;
    out += format_printf_call(sites[site], records + at + kPrintfRecordHeaderBytes, bytes - kPrintfRecordHeaderBytes);
    at += bytes;
  }
  return out;
}

}  // namespace cucl::backend
