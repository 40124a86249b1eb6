#include "platform/compiler/build_options.h"

#include <array>
#include <cctype>

#include "base/error.h"

namespace cucl::compiler {
namespace {

// Which of clBuildProgram, clCompileProgram, clLinkProgram accept an option.
constexpr unsigned kBuild = 1u << 0;
constexpr unsigned kCompile = 1u << 1;
constexpr unsigned kLink = 1u << 2;
constexpr unsigned kFrontEnd = kBuild | kCompile;
constexpr unsigned kAnyUse = kFrontEnd | kLink;

unsigned use_bit(OptionsUse use) {
  switch (use) {
    case OptionsUse::Build: return kBuild;
    case OptionsUse::Compile: return kCompile;
    case OptionsUse::Link: return kLink;
  }
  return 0;
}

cl_int invalid_options_code(OptionsUse use) {
  switch (use) {
    case OptionsUse::Build: return CL_INVALID_BUILD_OPTIONS;
    case OptionsUse::Compile: return CL_INVALID_COMPILER_OPTIONS;
    case OptionsUse::Link: return CL_INVALID_LINKER_OPTIONS;
  }
  return CL_INVALID_BUILD_OPTIONS;
}

// An option without an argument: the uses that accept it, the flag it sets (none for -w,
// -Werror and the ignored -cl-strict-aliasing) and its cc1 spelling (empty where cc1 gets
// nothing: the caller acts on the flag).
struct FlagOption {
  std::string_view name;
  unsigned uses;
  bool BuildOptions::*flag;
  std::array<std::string_view, 2> clang_args;
};

constexpr FlagOption kFlagOptions[] = {
    {"-cl-single-precision-constant", kFrontEnd, &BuildOptions::single_precision_constant,
     {"-cl-single-precision-constant"}},
    {"-cl-denorms-are-zero", kAnyUse, &BuildOptions::denorms_are_zero, {}},
    {"-cl-fp32-correctly-rounded-divide-sqrt", kFrontEnd,
     &BuildOptions::fp32_correctly_rounded_divide_sqrt, {"-cl-fp32-correctly-rounded-divide-sqrt"}},
    {"-cl-opt-disable", kFrontEnd, &BuildOptions::opt_disable, {}},
    {"-cl-mad-enable", kFrontEnd, &BuildOptions::mad_enable, {"-cl-mad-enable"}},
    {"-cl-no-signed-zeros", kAnyUse, &BuildOptions::no_signed_zeros, {"-cl-no-signed-zeros"}},
    {"-cl-unsafe-math-optimizations", kAnyUse, &BuildOptions::unsafe_math,
     {"-cl-unsafe-math-optimizations"}},
    {"-cl-finite-math-only", kAnyUse, &BuildOptions::finite_math_only, {"-cl-finite-math-only"}},
    {"-cl-fast-relaxed-math", kAnyUse, &BuildOptions::fast_relaxed_math, {"-cl-fast-relaxed-math"}},
    {"-cl-uniform-work-group-size", kFrontEnd, &BuildOptions::uniform_work_group_size,
     {"-cl-uniform-work-group-size"}},
    {"-cl-no-subgroup-ifp", kAnyUse, &BuildOptions::no_subgroup_ifp, {}},
    {"-cl-strict-aliasing", kFrontEnd, nullptr, {}},  // deprecated by OpenCL 1.1
    {"-cl-kernel-arg-info", kFrontEnd, &BuildOptions::kernel_arg_info, {}},
    {"-g", kFrontEnd, &BuildOptions::debug_info, {"-debug-info-kind=limited", "-dwarf-version=4"}},
    {"-w", kFrontEnd, nullptr, {"-w"}},
    {"-Werror", kFrontEnd, nullptr, {"-Werror"}},
    {"-create-library", kLink, &BuildOptions::create_library, {}},
    {"-enable-link-options", kLink, &BuildOptions::enable_link_options, {}},
};

struct LanguageVersion {
  std::string_view name;
  cl_version version;
};

constexpr LanguageVersion kLanguageVersions[] = {
    {"CL1.0", CL_MAKE_VERSION(1, 0, 0)}, {"CL1.1", CL_MAKE_VERSION(1, 1, 0)},
    {"CL1.2", CL_MAKE_VERSION(1, 2, 0)}, {"CL2.0", CL_MAKE_VERSION(2, 0, 0)},
    {"CL3.0", CL_MAKE_VERSION(3, 0, 0)}, {"CL3.1", CL_MAKE_VERSION(3, 1, 0)},
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Whitespace separates tokens; double quotes group characters, spaces included, into the
// current token, and inside quotes \" and \\ stand for " and \ (any other backslash is
// kept, so Windows paths survive).
std::vector<std::string> split_tokens(std::string_view text, cl_int error) {
  std::vector<std::string> tokens;
  std::string current;
  bool in_token = false;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!quoted && is_space(c)) {
      if (in_token) tokens.push_back(std::move(current));
      current.clear();
      in_token = false;
      continue;
    }
    in_token = true;
    if (c == '"') {
      quoted = !quoted;
    } else if (quoted && c == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
      current += text[++i];
    } else {
      current += c;
    }
  }
  check(!quoted, error);
  if (in_token) tokens.push_back(std::move(current));
  return tokens;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// `name`, `name=definition` or a function-like `name(params)=definition`. Clang checks the
// parameter list itself when it compiles.
bool is_macro_definition(std::string_view definition) {
  const std::string_view name = definition.substr(0, definition.find('='));
  const size_t paren = name.find('(');
  if (paren == std::string_view::npos) return is_identifier(name);
  return is_identifier(name.substr(0, paren)) && name.back() == ')';
}

const FlagOption* find_flag_option(std::string_view token) {
  for (const FlagOption& option : kFlagOptions) {
    if (option.name == token) return &option;
  }
  return nullptr;
}

cl_version language_version(std::string_view name, cl_int error) {
  for (const LanguageVersion& known : kLanguageVersions) {
    if (known.name == name) return known.version;
  }
  fail(error);
}

// -cl-fast-relaxed-math sets -cl-finite-math-only and -cl-unsafe-math-optimizations, which
// includes -cl-no-signed-zeros, -cl-mad-enable and -cl-denorms-are-zero (5.8.6.3).
void apply_implied_options(BuildOptions& options) {
  if (options.fast_relaxed_math) options.finite_math_only = options.unsafe_math = true;
  if (options.unsafe_math) options.no_signed_zeros = options.mad_enable = options.denorms_are_zero = true;
}

class OptionParser {
 public:
  OptionParser(std::string_view text, OptionsUse use)
      : use_(use_bit(use)), error_(invalid_options_code(use)), tokens_(split_tokens(text, error_)) {
    result_.text = std::string(text);
  }

  BuildOptions parse() {
    while (next_ < tokens_.size()) parse_option(tokens_[next_++]);
    check(!result_.enable_link_options || result_.create_library, error_);
    apply_implied_options(result_);
    return std::move(result_);
  }

 private:
  void parse_option(const std::string& token) {
    if (const FlagOption* option = find_flag_option(token)) return parse_flag(*option);
    check(use_ & kFrontEnd, error_);
    if (token.starts_with("-D")) return parse_define(token.substr(2));
    if (token.starts_with("-I")) return parse_include(token.substr(2));
    if (token.starts_with("-cl-std=")) return parse_language_version(token.substr(8));
    fail(error_);
  }

  void parse_flag(const FlagOption& option) {
    check(option.uses & use_, error_);
    if (option.flag) result_.*option.flag = true;
    if (use_ == kLink) return;
    for (std::string_view arg : option.clang_args) {
      if (!arg.empty()) result_.clang_args.emplace_back(arg);
    }
  }

  // The argument of -D or -I: the rest of the token, or the next token if the rest is empty.
  std::string option_argument(std::string attached) {
    if (!attached.empty()) return attached;
    check(next_ < tokens_.size(), error_);
    return tokens_[next_++];
  }

  void parse_define(std::string attached) {
    std::string definition = option_argument(std::move(attached));
    // An embedded newline ends the definition, as it would end a #define line.
    definition = definition.substr(0, definition.find('\n'));
    check(is_macro_definition(definition), error_);
    result_.clang_args.push_back("-D" + definition);
  }

  void parse_include(std::string attached) {
    const std::string directory = option_argument(std::move(attached));
    check(!directory.empty(), error_);
    result_.clang_args.push_back("-I" + directory);
  }

  void parse_language_version(const std::string& name) {
    // The front end passes the version itself (OpenCL C 3.1 reaches clang 15 as 3.0).
    result_.cl_std = language_version(name, error_);
  }

  const unsigned use_;
  const cl_int error_;
  const std::vector<std::string> tokens_;
  size_t next_ = 0;
  BuildOptions result_;
};

// Options that allow the compiler more freedom: the linked program keeps one only where every
// input allows it.
constexpr bool BuildOptions::*kRelaxations[] = {
    &BuildOptions::denorms_are_zero,         &BuildOptions::fast_relaxed_math,
    &BuildOptions::mad_enable,               &BuildOptions::no_signed_zeros,
    &BuildOptions::unsafe_math,              &BuildOptions::finite_math_only,
    &BuildOptions::single_precision_constant, &BuildOptions::uniform_work_group_size,
    &BuildOptions::no_subgroup_ifp,
};

// Options that ask for something extra: the linked program keeps one where any input asks.
constexpr bool BuildOptions::*kRequirements[] = {
    &BuildOptions::kernel_arg_info,
    &BuildOptions::opt_disable,
    &BuildOptions::debug_info,
    &BuildOptions::fp32_correctly_rounded_divide_sqrt,
};

// One input's options once the link options apply to it (5.8.7: to every compiled object,
// to a library only if created with -enable-link-options).
BuildOptions with_link_options(const BuildOptions& input, const BuildOptions& link_options) {
  BuildOptions effective = input;
  if (input.create_library && !input.enable_link_options) return effective;
  for (bool BuildOptions::*relaxation : kRelaxations) {
    effective.*relaxation = effective.*relaxation || link_options.*relaxation;
  }
  return effective;
}

}  // namespace

BuildOptions parse_build_options(std::string_view text, OptionsUse use) {
  return OptionParser(text, use).parse();
}

BuildOptions combine_link_options(std::span<const BuildOptions* const> inputs,
                                  const BuildOptions& link_options) {
  BuildOptions combined;
  combined.text = link_options.text;
  combined.create_library = link_options.create_library;
  combined.enable_link_options = link_options.enable_link_options;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const BuildOptions input = with_link_options(*inputs[i], link_options);
    const bool first = i == 0;
    for (bool BuildOptions::*relaxation : kRelaxations) {
      combined.*relaxation = input.*relaxation && (first || combined.*relaxation);
    }
    for (bool BuildOptions::*requirement : kRequirements) {
      combined.*requirement = combined.*requirement || input.*requirement;
    }
    if (first) {
      combined.cl_std = input.cl_std;
    } else if (combined.cl_std != input.cl_std) {
      combined.cl_std.reset();
    }
  }
  return combined;
}

}  // namespace cucl::compiler
