#include "backends/cuda/nvptx_program.h"

#include <cstdint>
#include <cstring>

namespace cucl::backend::cuda {
namespace {

constexpr std::string_view kMagic{"CUCLPTX1", 8};

void put_field(std::string& out, std::string_view field) {
  const uint64_t length = field.size();
  out.append(reinterpret_cast<const char*>(&length), sizeof length);
  out.append(field);
}

// Reads fields written by put_field; any overrun marks the reader failed.
class FieldReader {
 public:
  explicit FieldReader(std::string_view in) : in_(in) {}
  std::string_view field() {
    uint64_t length = 0;
    if (failed_ || in_.size() < sizeof length) return fail();
    std::memcpy(&length, in_.data(), sizeof length);
    in_.remove_prefix(sizeof length);
    if (in_.size() < length) return fail();
    std::string_view field = in_.substr(0, length);
    in_.remove_prefix(length);
    return field;
  }
  bool ok() const { return !failed_; }
  bool at_end() const { return in_.empty(); }

 private:
  std::string_view fail() {
    failed_ = true;
    return {};
  }
  std::string_view in_;
  bool failed_ = false;
};

bool is_flag(std::string_view field) { return field == "0" || field == "1"; }

}  // namespace

std::string encode_nvptx_program(std::string_view code_target, const NvptxProgram& program) {
  std::string out(kMagic);
  put_field(out, code_target);
  put_field(out, program.ptx);
  put_field(out, std::to_string(program.kernels.size()));
  for (const NvptxKernel& kernel : program.kernels) {
    put_field(out, kernel.name);
    put_field(out, kernel.uses_printf ? "1" : "0");
    put_field(out, kernel.textured_variant ? "1" : "0");
  }
  put_field(out, encode_printf_table(program.printf_sites));
  return out;
}

std::optional<NvptxProgram> decode_nvptx_program(std::string_view native, std::string_view code_target) {
  if (!native.starts_with(kMagic)) return std::nullopt;
  FieldReader reader(native.substr(kMagic.size()));
  if (reader.field() != code_target || !reader.ok()) return std::nullopt;
  NvptxProgram program;
  program.ptx = std::string(reader.field());
  const std::string count_text(reader.field());
  if (!reader.ok() || count_text.empty() || count_text.size() > 6 ||
      count_text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const size_t count = std::stoul(count_text);
  for (size_t i = 0; i < count && reader.ok(); ++i) {
    NvptxKernel kernel;
    kernel.name = std::string(reader.field());
    const std::string_view printf_flag = reader.field(), textured_flag = reader.field();
    if (!is_flag(printf_flag) || !is_flag(textured_flag)) return std::nullopt;
    kernel.uses_printf = printf_flag == "1";
    kernel.textured_variant = textured_flag == "1";
    program.kernels.push_back(std::move(kernel));
  }
  const std::string_view table = reader.field();
  if (!reader.ok() || !reader.at_end()) return std::nullopt;
  program.printf_sites = decode_printf_table(table);
  if (program.printf_sites.empty() && table != encode_printf_table({})) return std::nullopt;
  if (program.ptx.empty()) return std::nullopt;
  return program;
}

}  // namespace cucl::backend::cuda
