// The build-option parser: tokenising, every option of OpenCL 3.0 API 5.8.6/5.8.7, the error
// code of each use, the link-time combination, and that real clang-15 cc1 accepts what the
// parser produces and gives it the meaning the spec asks for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/compiler/build_options.h"
#include "base/error.h"

namespace {

using cucl::compiler::BuildOptions;
using cucl::compiler::combine_link_options;
using cucl::compiler::OptionsUse;
using cucl::compiler::parse_build_options;
using Args = std::vector<std::string>;

constexpr OptionsUse kAllUses[] = {OptionsUse::Build, OptionsUse::Compile, OptionsUse::Link};
constexpr OptionsUse kFrontEndUses[] = {OptionsUse::Build, OptionsUse::Compile};

cl_int expected_error(OptionsUse use) {
  switch (use) {
    case OptionsUse::Build: return CL_INVALID_BUILD_OPTIONS;
    case OptionsUse::Compile: return CL_INVALID_COMPILER_OPTIONS;
    case OptionsUse::Link: return CL_INVALID_LINKER_OPTIONS;
  }
  return CL_SUCCESS;
}

// The error code parse_build_options throws, or CL_SUCCESS.
cl_int parse_error(const std::string& text, OptionsUse use) {
  try {
    parse_build_options(text, use);
    return CL_SUCCESS;
  } catch (const cucl::Error& error) {
    return error.code();
  }
}

const char* use_name(OptionsUse use) {
  return use == OptionsUse::Build ? "Build" : use == OptionsUse::Compile ? "Compile" : "Link";
}

// ---- tokenising and the empty string -------------------------------------------------------

TEST(BuildOptions, EmptyAndBlankStringsAreValidAndSetNothing) {
  for (OptionsUse use : kAllUses) {
    for (const char* text : {"", "   ", " \t\n\r\v\f "}) {
      const BuildOptions options = parse_build_options(text, use);
      EXPECT_TRUE(options.clang_args.empty()) << use_name(use);
      EXPECT_FALSE(options.cl_std.has_value());
      EXPECT_FALSE(options.kernel_arg_info || options.opt_disable || options.debug_info ||
                   options.denorms_are_zero || options.fast_relaxed_math || options.mad_enable ||
                   options.no_signed_zeros || options.unsafe_math || options.finite_math_only ||
                   options.single_precision_constant ||
                   options.fp32_correctly_rounded_divide_sqrt ||
                   options.uniform_work_group_size || options.no_subgroup_ifp ||
                   options.create_library || options.enable_link_options);
      EXPECT_EQ(options.text, text);
    }
  }
}

TEST(BuildOptions, TextIsKeptAsGiven) {
  const std::string text = "  -cl-mad-enable\t-D  X=1 ";
  EXPECT_EQ(parse_build_options(text, OptionsUse::Build).text, text);
}

TEST(BuildOptions, AnyWhitespaceSeparatesOptions) {
  const BuildOptions options =
      parse_build_options("-cl-mad-enable\t-w\n-Werror\r\n-cl-opt-disable", OptionsUse::Build);
  EXPECT_EQ(options.clang_args, (Args{"-cl-mad-enable", "-w", "-Werror"}));
  EXPECT_TRUE(options.opt_disable);
  EXPECT_EQ(parse_build_options("\"-cl-mad-enable\"", OptionsUse::Build).clang_args,
            (Args{"-cl-mad-enable"}));
}

TEST(BuildOptions, QuotedDirectoryWithSpaces) {
  EXPECT_EQ(parse_build_options("-I \"/my dir\"", OptionsUse::Build).clang_args, (Args{"-I/my dir"}));
  EXPECT_EQ(parse_build_options("-I\"/my dir/x y\"", OptionsUse::Compile).clang_args,
            (Args{"-I/my dir/x y"}));
  EXPECT_EQ(parse_build_options("-I/a\" b\"/c", OptionsUse::Build).clang_args, (Args{"-I/a b/c"}));
}

TEST(BuildOptions, BackslashEscapesInsideQuotes) {
  EXPECT_EQ(parse_build_options(R"(-D "S=\"a b\"")", OptionsUse::Build).clang_args,
            (Args{R"(-DS="a b")"}));
  EXPECT_EQ(parse_build_options(R"(-I "C:\\dir \"q\"")", OptionsUse::Build).clang_args,
            (Args{R"(-IC:\dir "q")"}));
  // A backslash before anything else is kept: Windows paths need no doubling.
  EXPECT_EQ(parse_build_options(R"(-I "C:\my dir")", OptionsUse::Build).clang_args,
            (Args{R"(-IC:\my dir)"}));
}

TEST(BuildOptions, UnterminatedQuoteIsInvalid) {
  for (OptionsUse use : kAllUses) {
    EXPECT_EQ(parse_error("-I \"/my dir", use), expected_error(use)) << use_name(use);
    EXPECT_EQ(parse_error(R"(-D "X=\")", use), expected_error(use)) << use_name(use);
  }
}

// ---- preprocessor options -----------------------------------------------------------------

TEST(BuildOptions, DefineForms) {
  for (OptionsUse use : kFrontEndUses) {
    EXPECT_EQ(parse_build_options("-D FOO", use).clang_args, (Args{"-DFOO"}));
    EXPECT_EQ(parse_build_options("-DFOO", use).clang_args, (Args{"-DFOO"}));
    EXPECT_EQ(parse_build_options("-D FOO=3", use).clang_args, (Args{"-DFOO=3"}));
    EXPECT_EQ(parse_build_options("-DFOO=3", use).clang_args, (Args{"-DFOO=3"}));
    EXPECT_EQ(parse_build_options("-D FOO=", use).clang_args, (Args{"-DFOO="}));
    EXPECT_EQ(parse_build_options("-DFOO=", use).clang_args, (Args{"-DFOO="}));
    EXPECT_EQ(parse_build_options("-D _x1=a=b", use).clang_args, (Args{"-D_x1=a=b"}));
    EXPECT_EQ(parse_build_options("-D \"F(a,b)=a+b\"", use).clang_args, (Args{"-DF(a,b)=a+b"}));
  }
}

TEST(BuildOptions, DefinesKeepTheirOrderAmongIncludes) {
  const BuildOptions options =
      parse_build_options("-D A=1 -I inc -DB -cl-mad-enable -D A=2", OptionsUse::Build);
  EXPECT_EQ(options.clang_args, (Args{"-DA=1", "-Iinc", "-DB", "-cl-mad-enable", "-DA=2"}));
}

TEST(BuildOptions, DefinitionEndsAtEmbeddedNewline) {
  EXPECT_EQ(parse_build_options("-D \"X=1\n2\"", OptionsUse::Build).clang_args, (Args{"-DX=1"}));
}

TEST(BuildOptions, BadOrMissingMacroNameIsInvalid) {
  for (OptionsUse use : kFrontEndUses) {
    for (const char* text : {"-D", "-cl-mad-enable -D", "-D =3", "-D=3", "-D 1X", "-D \"\"",
                             "-D a-b", "-D -cl-mad-enable", "-D \"A B\"", "-D F(x", "-D (x)=1"}) {
      EXPECT_EQ(parse_error(text, use), expected_error(use)) << use_name(use) << ": " << text;
    }
  }
}

TEST(BuildOptions, IncludeForms) {
  for (OptionsUse use : kFrontEndUses) {
    EXPECT_EQ(parse_build_options("-I /inc", use).clang_args, (Args{"-I/inc"}));
    EXPECT_EQ(parse_build_options("-I/inc", use).clang_args, (Args{"-I/inc"}));
    EXPECT_EQ(parse_build_options("-I rel/dir -I/two", use).clang_args,
              (Args{"-Irel/dir", "-I/two"}));
  }
}

TEST(BuildOptions, MissingIncludeDirectoryIsInvalid) {
  for (OptionsUse use : kFrontEndUses) {
    for (const char* text : {"-I", "-w -I", "-I \"\"", "-I  "}) {
      EXPECT_EQ(parse_error(text, use), expected_error(use)) << use_name(use) << ": " << text;
    }
  }
}

// ---- flag options ---------------------------------------------------------------------------

struct FlagCase {
  const char* option;
  bool BuildOptions::*flag;  // null for -w, -Werror, -cl-strict-aliasing
  Args clang_args;
};

const std::vector<FlagCase>& front_end_flags() {
  static const std::vector<FlagCase> cases = {
      {"-cl-single-precision-constant", &BuildOptions::single_precision_constant,
       {"-cl-single-precision-constant"}},
      {"-cl-denorms-are-zero", &BuildOptions::denorms_are_zero, {}},
      {"-cl-fp32-correctly-rounded-divide-sqrt", &BuildOptions::fp32_correctly_rounded_divide_sqrt,
       {"-cl-fp32-correctly-rounded-divide-sqrt"}},
      {"-cl-opt-disable", &BuildOptions::opt_disable, {}},
      {"-cl-mad-enable", &BuildOptions::mad_enable, {"-cl-mad-enable"}},
      {"-cl-no-signed-zeros", &BuildOptions::no_signed_zeros, {"-cl-no-signed-zeros"}},
      {"-cl-unsafe-math-optimizations", &BuildOptions::unsafe_math, {"-cl-unsafe-math-optimizations"}},
      {"-cl-finite-math-only", &BuildOptions::finite_math_only, {"-cl-finite-math-only"}},
      {"-cl-fast-relaxed-math", &BuildOptions::fast_relaxed_math, {"-cl-fast-relaxed-math"}},
      {"-cl-uniform-work-group-size", &BuildOptions::uniform_work_group_size,
       {"-cl-uniform-work-group-size"}},
      {"-cl-no-subgroup-ifp", &BuildOptions::no_subgroup_ifp, {}},
      {"-cl-strict-aliasing", nullptr, {}},
      {"-cl-kernel-arg-info", &BuildOptions::kernel_arg_info, {}},
      {"-g", &BuildOptions::debug_info, {"-debug-info-kind=limited", "-dwarf-version=4"}},
      {"-w", nullptr, {"-w"}},
      {"-Werror", nullptr, {"-Werror"}},
  };
  return cases;
}

TEST(BuildOptions, EveryFrontEndFlagSetsItsFieldAndClangArgs) {
  for (OptionsUse use : kFrontEndUses) {
    for (const FlagCase& c : front_end_flags()) {
      const BuildOptions options = parse_build_options(c.option, use);
      if (c.flag) {
        EXPECT_TRUE(options.*c.flag) << use_name(use) << ": " << c.option;
      }
      EXPECT_EQ(options.clang_args, c.clang_args) << use_name(use) << ": " << c.option;
      EXPECT_FALSE(options.cl_std.has_value());
      EXPECT_FALSE(options.create_library || options.enable_link_options);
    }
  }
}

TEST(BuildOptions, FlagSetsOnlyItsOwnFieldUnlessTheSpecImpliesMore) {
  for (const FlagCase& c : front_end_flags()) {
    const std::string option = c.option;
    if (option == "-cl-unsafe-math-optimizations" || option == "-cl-fast-relaxed-math") continue;
    const BuildOptions options = parse_build_options(option, OptionsUse::Build);
    for (const FlagCase& other : front_end_flags()) {
      if (other.flag && other.flag != c.flag) {
        EXPECT_FALSE(options.*other.flag) << option << " sets the flag of " << other.option;
      }
    }
  }
}

TEST(BuildOptions, UnsafeMathImpliesNoSignedZerosMadAndDenormsAreZero) {
  for (OptionsUse use : kAllUses) {
    const BuildOptions options = parse_build_options("-cl-unsafe-math-optimizations", use);
    EXPECT_TRUE(options.unsafe_math && options.no_signed_zeros && options.mad_enable &&
                options.denorms_are_zero)
        << use_name(use);
    EXPECT_FALSE(options.finite_math_only || options.fast_relaxed_math);
  }
}

TEST(BuildOptions, FastRelaxedMathImpliesFiniteAndUnsafeMath) {
  for (OptionsUse use : kAllUses) {
    const BuildOptions options = parse_build_options("-cl-fast-relaxed-math", use);
    EXPECT_TRUE(options.fast_relaxed_math && options.finite_math_only && options.unsafe_math &&
                options.no_signed_zeros && options.mad_enable && options.denorms_are_zero)
        << use_name(use);
    EXPECT_FALSE(options.opt_disable || options.kernel_arg_info);
  }
}

// ---- -cl-std --------------------------------------------------------------------------------

TEST(BuildOptions, LanguageVersions) {
  const std::pair<const char*, cl_version> versions[] = {
      {"CL1.0", CL_MAKE_VERSION(1, 0, 0)}, {"CL1.1", CL_MAKE_VERSION(1, 1, 0)},
      {"CL1.2", CL_MAKE_VERSION(1, 2, 0)}, {"CL2.0", CL_MAKE_VERSION(2, 0, 0)},
      {"CL3.0", CL_MAKE_VERSION(3, 0, 0)}, {"CL3.1", CL_MAKE_VERSION(3, 1, 0)}};
  for (OptionsUse use : kFrontEndUses) {
    for (const auto& [name, version] : versions) {
      const BuildOptions options = parse_build_options(std::string("-cl-std=") + name, use);
      ASSERT_TRUE(options.cl_std.has_value()) << name;
      EXPECT_EQ(*options.cl_std, version) << name;
      // The front end passes the version to clang itself (3.1 as 3.0 with 3.1's macros).
      EXPECT_TRUE(options.clang_args.empty()) << name;
    }
  }
}

TEST(BuildOptions, LastLanguageVersionWins) {
  const BuildOptions options = parse_build_options("-cl-std=CL1.2 -cl-std=CL3.0", OptionsUse::Build);
  EXPECT_EQ(options.cl_std, CL_MAKE_VERSION(3, 0, 0));
}

TEST(BuildOptions, UnknownLanguageVersionIsInvalid) {
  for (OptionsUse use : kAllUses) {
    for (const char* text : {"-cl-std", "-cl-std=", "-cl-std=CL3.2", "-cl-std=CL2.1", "-cl-std=CL2.2",
                             "-cl-std=cl1.2", "-cl-std=CL", "-cl-std=CLC++", "-cl-std=CL1.2x",
                             "-cl-std CL1.2", "-cl-std=\"\""}) {
      EXPECT_EQ(parse_error(text, use), expected_error(use)) << use_name(use) << ": " << text;
    }
  }
}

// ---- which use accepts what -----------------------------------------------------------------

TEST(BuildOptions, UnknownOptionsAndStrayWordsAreInvalidWithTheUsesCode) {
  for (OptionsUse use : kAllUses) {
    for (const char* text :
         {"-O2", "-cl-mad-enable -cl-fancy", "-Wall", "-cl-opt-disable=1", "-g3", "-x spir",
          "-spir-std=1.2", "-cl-kernel-arg-info extra", "FOO", "-", "--", "-cl-mad-enable,-w",
          "-D FOO=1 bar", "-W", "-cl-MAD-ENABLE", "\"\""}) {
      EXPECT_EQ(parse_error(text, use), expected_error(use)) << use_name(use) << ": " << text;
    }
  }
}

TEST(BuildOptions, LibraryOptionsAreLinkOnly) {
  for (OptionsUse use : kFrontEndUses) {
    EXPECT_EQ(parse_error("-create-library", use), expected_error(use));
    EXPECT_EQ(parse_error("-enable-link-options", use), expected_error(use));
    EXPECT_EQ(parse_error("-create-library -enable-link-options", use), expected_error(use));
  }
}

TEST(BuildOptions, LinkAcceptsTheLinkerOptions) {
  const BuildOptions library = parse_build_options("-create-library", OptionsUse::Link);
  EXPECT_TRUE(library.create_library);
  EXPECT_FALSE(library.enable_link_options);
  const BuildOptions linkable =
      parse_build_options("-enable-link-options -create-library", OptionsUse::Link);
  EXPECT_TRUE(linkable.create_library && linkable.enable_link_options);
  for (const char* text : {"-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
                           "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp"}) {
    const BuildOptions options = parse_build_options(text, OptionsUse::Link);
    EXPECT_TRUE(options.clang_args.empty()) << text;  // linking runs no front end
    EXPECT_FALSE(options.create_library) << text;
  }
  const BuildOptions all = parse_build_options(
      "-create-library -enable-link-options -cl-denorms-are-zero -cl-no-signed-zeros "
      "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math -cl-no-subgroup-ifp",
      OptionsUse::Link);
  EXPECT_TRUE(all.denorms_are_zero && all.no_signed_zeros && all.unsafe_math &&
              all.finite_math_only && all.fast_relaxed_math && all.no_subgroup_ifp);
}

TEST(BuildOptions, EnableLinkOptionsNeedsCreateLibrary) {
  EXPECT_EQ(parse_error("-enable-link-options", OptionsUse::Link), CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(parse_error("-enable-link-options -cl-fast-relaxed-math", OptionsUse::Link),
            CL_INVALID_LINKER_OPTIONS);
}

TEST(BuildOptions, LinkRejectsCompilerOnlyOptions) {
  for (const char* text :
       {"-D X", "-DX=1", "-I /inc", "-Iinc", "-cl-std=CL1.2", "-cl-opt-disable", "-cl-mad-enable",
        "-cl-kernel-arg-info", "-g", "-w", "-Werror", "-cl-single-precision-constant",
        "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size",
        "-cl-strict-aliasing", "-create-library -cl-mad-enable"}) {
    EXPECT_EQ(parse_error(text, OptionsUse::Link), CL_INVALID_LINKER_OPTIONS) << text;
  }
}

// ---- combining the options of linked inputs -------------------------------------------------

BuildOptions compiled(const char* text) { return parse_build_options(text, OptionsUse::Compile); }
BuildOptions linked(const char* text) { return parse_build_options(text, OptionsUse::Link); }

TEST(BuildOptions, LinkOptionsApplyToEveryCompiledObject) {
  const BuildOptions a = compiled("-cl-kernel-arg-info");
  const BuildOptions b = compiled("-cl-finite-math-only");
  const BuildOptions link = linked("-cl-fast-relaxed-math");
  const BuildOptions* inputs[] = {&a, &b};
  const BuildOptions combined = combine_link_options(inputs, link);
  EXPECT_TRUE(combined.fast_relaxed_math && combined.finite_math_only && combined.unsafe_math &&
              combined.no_signed_zeros && combined.mad_enable && combined.denorms_are_zero);
  EXPECT_TRUE(combined.kernel_arg_info);
  EXPECT_EQ(combined.text, "-cl-fast-relaxed-math");
  EXPECT_TRUE(combined.clang_args.empty());
}

TEST(BuildOptions, RelaxationsNeedEveryInputAndRequirementsAnyInput) {
  const BuildOptions a = compiled("-cl-fast-relaxed-math -cl-uniform-work-group-size -g");
  const BuildOptions b = compiled("-cl-no-signed-zeros -cl-uniform-work-group-size -cl-opt-disable");
  const BuildOptions* inputs[] = {&a, &b};
  const BuildOptions combined = combine_link_options(inputs, linked(""));
  EXPECT_TRUE(combined.no_signed_zeros);
  EXPECT_TRUE(combined.uniform_work_group_size);
  EXPECT_FALSE(combined.fast_relaxed_math || combined.unsafe_math || combined.finite_math_only ||
               combined.mad_enable || combined.denorms_are_zero);
  EXPECT_TRUE(combined.debug_info && combined.opt_disable);
  EXPECT_FALSE(combined.kernel_arg_info);
}

TEST(BuildOptions, LinkOptionsReachALibraryOnlyIfItAllowsThem) {
  const BuildOptions object = compiled("");
  const BuildOptions* objects[] = {&object};
  const BuildOptions sealed = combine_link_options(objects, linked("-create-library"));
  const BuildOptions open =
      combine_link_options(objects, linked("-create-library -enable-link-options"));
  ASSERT_TRUE(sealed.create_library && !sealed.enable_link_options);
  ASSERT_TRUE(open.create_library && open.enable_link_options);

  const BuildOptions link = linked("-cl-denorms-are-zero -cl-no-subgroup-ifp");
  const BuildOptions* with_sealed[] = {&sealed};
  const BuildOptions* with_open[] = {&open};
  const BuildOptions from_sealed = combine_link_options(with_sealed, link);
  const BuildOptions from_open = combine_link_options(with_open, link);
  EXPECT_FALSE(from_sealed.denorms_are_zero || from_sealed.no_subgroup_ifp);
  EXPECT_TRUE(from_open.denorms_are_zero && from_open.no_subgroup_ifp);
  EXPECT_FALSE(from_open.create_library);
}

TEST(BuildOptions, LanguageVersionSurvivesLinkOnlyWhereInputsAgree) {
  const BuildOptions v12 = compiled("-cl-std=CL1.2");
  const BuildOptions v30 = compiled("-cl-std=CL3.0");
  const BuildOptions* same[] = {&v12, &v12};
  const BuildOptions* mixed[] = {&v12, &v30, &v12};
  EXPECT_EQ(combine_link_options(same, linked("")).cl_std, CL_MAKE_VERSION(1, 2, 0));
  EXPECT_FALSE(combine_link_options(mixed, linked("")).cl_std.has_value());
}

// ---- real clang-15 cc1 ----------------------------------------------------------------------

std::string run_and_read(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  std::array<char, 256> buffer;
  while (fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
  pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  return output;
}

std::string shell_quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A scratch directory, removed with what it holds.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cucl-build-options-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_file(const std::filesystem::path& path) {
  std::ostringstream text;
  if (std::ifstream file{path}) text << file.rdbuf();
  return text.str();
}

struct ClangRun {
  bool succeeded;
  std::string diagnostics;
  std::string ir;
};

class ClangAcceptsBuildOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    clang_ = run_and_read("command -v clang-15");
    ASSERT_FALSE(clang_.empty()) << "clang-15 is a build dependency and must be on PATH";
    resource_dir_ = run_and_read(shell_quote(clang_) + " -print-resource-dir");
    ASSERT_FALSE(resource_dir_.empty());
    ASSERT_FALSE(scratch_.path().empty());
  }

  // Compiles `source` to LLVM IR with cc1 as the in-process front end is driven, plus `args`.
  ClangRun compile(const std::string& source, const Args& args) {
    const auto kernel = scratch_.path() / "kernel.cl";
    const auto ir = scratch_.path() / "kernel.ll";
    const auto diagnostics = scratch_.path() / "diagnostics.txt";
    write_file(kernel, source);
    std::filesystem::remove(ir);
    std::string command = shell_quote(clang_) +
                          " -cc1 -triple x86_64-unknown-linux-gnu -ffake-address-space-map"
                          " -finclude-default-header -fdeclare-opencl-builtins -resource-dir " +
                          shell_quote(resource_dir_) + " -internal-isystem " +
                          shell_quote(resource_dir_ + "/include");
    for (const std::string& arg : args) command += " " + shell_quote(arg);
    command += " -emit-llvm -o " + shell_quote(ir.string()) + " " + shell_quote(kernel.string()) +
               " 2>" + shell_quote(diagnostics.string());
    const int status = std::system(command.c_str());
    return {status == 0, read_file(diagnostics), read_file(ir)};
  }

  ClangRun compile_with(const std::string& source, const std::string& options) {
    return compile(source, parse_build_options(options, OptionsUse::Build).clang_args);
  }

  const std::filesystem::path& scratch() const { return scratch_.path(); }

 private:
  ScratchDirectory scratch_;
  std::string clang_;
  std::string resource_dir_;
};

const std::string kPlainKernel =
    "kernel void k(global float* p) { p[get_global_id(0)] = p[1] * p[2] + 1.0f; }\n";

std::string require_macro(const std::string& condition) {
  return "#if !(" + condition + ")\n#error condition not met\n#endif\n" + kPlainKernel;
}

TEST_F(ClangAcceptsBuildOptions, EveryFrontEndFlagAlone) {
  ASSERT_TRUE(compile(kPlainKernel, {}).succeeded);
  for (const FlagCase& c : front_end_flags()) {
    const ClangRun run = compile_with(kPlainKernel, c.option);
    EXPECT_TRUE(run.succeeded) << c.option << ":\n" << run.diagnostics;
  }
}

TEST_F(ClangAcceptsBuildOptions, EveryLanguageVersionWithEveryFlagTogether) {
  std::string all_flags;
  for (const FlagCase& c : front_end_flags()) {
    if (std::string(c.option) != "-cl-strict-aliasing") all_flags += std::string(c.option) + " ";
  }
  for (const char* version : {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"}) {
    const ClangRun run =
        compile_with(kPlainKernel, all_flags + "-D A -DB=2 -I /tmp -cl-std=" + version);
    EXPECT_TRUE(run.succeeded) << version << ":\n" << run.diagnostics;
  }
}

TEST_F(ClangAcceptsBuildOptions, DefinedMacrosHaveTheirValues) {
  const std::string source = require_macro("FOO == 3");
  EXPECT_FALSE(compile_with(source, "").succeeded);
  EXPECT_FALSE(compile_with(source, "-DFOO=4").succeeded);
  EXPECT_TRUE(compile_with(source, "-DFOO=3").succeeded);
  EXPECT_TRUE(compile_with(source, "-D FOO=3").succeeded);
  EXPECT_TRUE(compile_with(require_macro("FOO == 1"), "-D FOO").succeeded);
  EXPECT_TRUE(compile_with(require_macro("FOO == 1"), "-DFOO").succeeded);
  EXPECT_TRUE(compile_with(require_macro("FOO + 0 == 0"), "-D FOO=").succeeded);
  EXPECT_TRUE(compile_with(require_macro("FOO == 7"), "-D FOO=5 -D FOO=7 -w").succeeded);
  EXPECT_TRUE(compile_with(require_macro("SUM(2, 3) == 5"), "-D \"SUM(a,b)=((a)+(b))\"").succeeded);
  EXPECT_TRUE(compile_with(require_macro("TWO_WORDS == 3"), "-D \"TWO_WORDS=1 + 2\"").succeeded);
}

TEST_F(ClangAcceptsBuildOptions, QuotedStringMacro) {
  const std::string source =
      "constant char s[] = MSG;\n"
      "kernel void k(global char* p) { p[0] = s[0]; p[1] = s[sizeof(s) - 2]; }\n";
  const ClangRun run = compile_with(source, R"(-D "MSG=\"a b\"")");
  EXPECT_TRUE(run.succeeded) << run.diagnostics;
  EXPECT_NE(run.ir.find("c\"a b\\00\""), std::string::npos) << run.ir;
}

TEST_F(ClangAcceptsBuildOptions, IncludeDirectoryWithSpaces) {
  const auto directory = scratch() / "my headers";
  std::filesystem::create_directories(directory);
  write_file(directory / "answer.h", "#define ANSWER 42\n");
  const std::string source = "#include \"answer.h\"\n" + require_macro("ANSWER == 42");
  EXPECT_FALSE(compile_with(source, "").succeeded);
  const ClangRun spaced = compile_with(source, "-I \"" + directory.string() + "\"");
  EXPECT_TRUE(spaced.succeeded) << spaced.diagnostics;
  EXPECT_TRUE(compile_with(source, "-I\"" + directory.string() + "\"").succeeded);
}

TEST_F(ClangAcceptsBuildOptions, FastRelaxedMathDefinesItsMacro) {
  const std::string source = require_macro("defined(__FAST_RELAXED_MATH__)");
  EXPECT_FALSE(compile_with(source, "").succeeded);
  EXPECT_FALSE(compile_with(source, "-cl-unsafe-math-optimizations -cl-finite-math-only").succeeded);
  const ClangRun run = compile_with(source, "-cl-fast-relaxed-math");
  EXPECT_TRUE(run.succeeded) << run.diagnostics;
  EXPECT_NE(run.ir.find("\"unsafe-fp-math\"=\"true\""), std::string::npos);
  EXPECT_NE(run.ir.find("\"no-nans-fp-math\"=\"true\""), std::string::npos);
}

TEST_F(ClangAcceptsBuildOptions, MathFlagsReachTheIr) {
  EXPECT_EQ(compile_with(kPlainKernel, "").ir.find("\"no-signed-zeros-fp-math\"=\"true\""),
            std::string::npos);
  EXPECT_NE(compile_with(kPlainKernel, "-cl-no-signed-zeros").ir.find("\"no-signed-zeros-fp-math\"=\"true\""),
            std::string::npos);
  EXPECT_NE(compile_with(kPlainKernel, "-cl-finite-math-only").ir.find("\"no-infs-fp-math\"=\"true\""),
            std::string::npos);
  EXPECT_NE(compile_with(kPlainKernel, "-cl-mad-enable").ir.find("\"less-precise-fpmad\"=\"true\""),
            std::string::npos);
}

TEST_F(ClangAcceptsBuildOptions, LanguageVersionSetsOpenclCVersion) {
  const std::pair<const char*, const char*> versions[] = {
      {"CL1.0", "100"}, {"CL1.1", "110"}, {"CL1.2", "120"}, {"CL2.0", "200"}, {"CL3.0", "300"}};
  for (const auto& [name, number] : versions) {
    const std::string source = require_macro(std::string("__OPENCL_C_VERSION__ == ") + number);
    const ClangRun run = compile(source, {std::string("-cl-std=") + name});
    EXPECT_TRUE(run.succeeded) << name << ":\n" << run.diagnostics;
  }
  EXPECT_FALSE(compile(require_macro("__OPENCL_C_VERSION__ == 300"), {"-cl-std=CL1.2"}).succeeded);
}

TEST_F(ClangAcceptsBuildOptions, DebugInfoIsEmitted) {
  EXPECT_EQ(compile_with(kPlainKernel, "").ir.find("DICompileUnit"), std::string::npos);
  const ClangRun run = compile_with(kPlainKernel, "-g");
  EXPECT_TRUE(run.succeeded) << run.diagnostics;
  EXPECT_NE(run.ir.find("DICompileUnit"), std::string::npos);
  EXPECT_NE(run.ir.find("!\"Dwarf Version\", i32 4"), std::string::npos);
}

TEST_F(ClangAcceptsBuildOptions, WarningOptions) {
  const std::string source = "#warning from the kernel\n" + kPlainKernel;
  const ClangRun plain = compile_with(source, "");
  EXPECT_TRUE(plain.succeeded);
  EXPECT_NE(plain.diagnostics.find("from the kernel"), std::string::npos);
  const ClangRun silenced = compile_with(source, "-w");
  EXPECT_TRUE(silenced.succeeded);
  EXPECT_EQ(silenced.diagnostics.find("from the kernel"), std::string::npos);
  EXPECT_FALSE(compile_with(source, "-Werror").succeeded);
}

TEST_F(ClangAcceptsBuildOptions, SinglePrecisionConstantMakesDoubleLiteralsFloat) {
  const std::string source = "kernel void k(global float* p) { p[0] = p[1] * 0.1; }\n";
  const ClangRun plain = compile_with(source, "-cl-std=CL3.0");
  const ClangRun single = compile_with(source, "-cl-std=CL3.0 -cl-single-precision-constant");
  ASSERT_TRUE(plain.succeeded && single.succeeded) << plain.diagnostics << single.diagnostics;
  EXPECT_NE(plain.ir.find("fpext"), std::string::npos);
  EXPECT_EQ(single.ir.find("fpext"), std::string::npos);
}

}  // namespace
