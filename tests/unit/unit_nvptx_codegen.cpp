// The NVPTX code generator on the CPU: sample kernels through the real front end and code
// generator, and the PTX checked by ptxas from the CUDA toolkit (the GPU's own assembler).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "backends/compiler_description.h"
#include "backends/cuda/codegen/nvptx_codegen.h"
#include "backends/cuda/kernel_abi.h"
#include "backends/cuda/nvptx_program.h"
#include "platform/compiler/frontend.h"
#include "platform/compiler/spirv_reader.h"
#include "tests/support/byte_align_source.h"
#include "tests/support/spirv_samples.h"

namespace {

using cucl::backend::CodegenOptions;
using cucl::backend::CodegenResult;
using cucl::backend::DeviceDescription;
using cucl::backend::cuda::kTexturedEntrySuffix;
using cucl::backend::cuda::NvptxTarget;

const NvptxTarget kTarget = cucl::backend::cuda::nvptx_target_for(9, 0);

DeviceDescription nvptx_description() {
  DeviceDescription d;
  d.compiler.triple = "nvptx64-nvidia-cuda";
  d.compiler.clang_args = {"-ffake-address-space-map"};
  d.numeric_version = CL_MAKE_VERSION(3, 0, 0);
  const cl_version v3 = CL_MAKE_VERSION(3, 0, 0), v1 = CL_MAKE_VERSION(1, 0, 0);
  for (const char* feature : {"__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_generic_address_space",
                              "__opencl_c_program_scope_global_variables", "__opencl_c_atomic_order_acq_rel",
                              "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
                              "__opencl_c_work_group_collective_functions",
                              "__opencl_c_integer_dot_product_input_4x8bit",
                              "__opencl_c_integer_dot_product_input_4x8bit_packed"}) {
    d.opencl_c_features.push_back({v3, feature});
  }
  for (const char* extension : {"cl_khr_fp64", "cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
                                "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
                                "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
                                "cl_khr_int64_extended_atomics", "cl_khr_integer_dot_product"}) {
    d.extensions.push_back({v1, extension});
  }
  d.opencl_c_features.push_back({v3, "__opencl_c_images"});
  d.image_support = CL_TRUE;
  d.max_work_group_size = 1024;
  cucl::backend::describe_sub_groups(d, 32, /*independent_forward_progress=*/true);
  cucl::backend::describe_float_atomics(d);
  cucl::backend::describe_half_precision(d, 2, /*hardware_fma=*/true);
  cucl::backend::describe_half_atomics(d);
  return d;
}

// A GPU with SVM atomics: memory_scope_all_svm_devices and memory_scope_all_devices exist.
DeviceDescription nvptx_description_with_all_devices_scope() {
  DeviceDescription d = nvptx_description();
  d.opencl_c_features.push_back({CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"});
  return d;
}

CodegenResult compile_for(const DeviceDescription& description, const std::string& source,
                          const std::string& cl_std = "CL3.0", CodegenOptions options = {}) {
  cucl::compiler::FrontendRequest request;
  request.source = source;
  request.cl_std = cl_std;
  cucl::compiler::FrontendResult front = cucl::compiler::compile_opencl_c(request, description);
  EXPECT_TRUE(front.ok) << front.log;
  if (!front.ok) return {};
  return cucl::backend::cuda::generate_nvptx_code(front.bitcode, options, kTarget);
}

CodegenResult compile(const std::string& source, const std::string& cl_std = "CL3.0", CodegenOptions options = {}) {
  return compile_for(nvptx_description(), source, cl_std, options);
}

cucl::backend::cuda::NvptxProgram decoded(const CodegenResult& result) {
  auto program = cucl::backend::cuda::decode_nvptx_program(result.native, nvptx_code_target(kTarget));
  EXPECT_TRUE(program.has_value());
  return program.value_or(cucl::backend::cuda::NvptxProgram{});
}

#define SKIP_WITHOUT_PTXAS() \
  if (std::string(CUCL_PTXAS).empty()) GTEST_SKIP() << "the CUDA toolkit's ptxas was not found at configure time"

// ptxas's verdict on `ptx`.
::testing::AssertionResult ptxas_accepts(const std::string& ptx) {
  const std::string ptxas = CUCL_PTXAS;
  const auto dir = std::filesystem::temp_directory_path() / ("cucl-ptx-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "kernel.ptx";
  std::ofstream(file) << ptx;
  const std::string command = ptxas + " -arch=sm_" + std::to_string(kTarget.sm) + " " + file.string() + " -o " +
                              (dir / "kernel.cubin").string() + " > " + (dir / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log_file(dir / "log");
  const std::string log((std::istreambuf_iterator<char>(log_file)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  if (status == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "ptxas failed:\n" << log << "\n" << ptx;
}

struct Sample {
  const char* name;
  const char* source;
};

const Sample kSamples[] = {
    {"work_items", R"(
kernel void ids(global ulong* out) {
  size_t i = get_global_linear_id();
  out[i] = get_global_id(0) + get_local_id(1) * 3 + get_group_id(2) * 5 + get_num_groups(0) * 7 +
           get_global_size(1) + get_local_size(2) + get_enqueued_local_size(0) + get_global_offset(1) + get_work_dim();
  uint d = (uint)out[0];
  out[i + 1] = get_global_id(d) + get_local_size(d);
})"},
    {"local_memory", R"(
kernel void reduce(global const float* in, global float* out, local float* scratch, local int* other) {
  local float tile[64];
  size_t l = get_local_id(0);
  tile[l % 64] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[l] = tile[(l + 1) % 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) { out[get_group_id(0)] = scratch[0]; other[0] = 1; }
})"},
    {"by_value", R"(
typedef struct { int a; float b; double c; char d[3]; } Params;
kernel void args(global float4* out, Params p, float4 v, float3 w, char c, ulong u, constant float* table) {
  out[get_global_id(0)] = v + w.xyzz + (float4)(p.a + p.b + (float)p.c + p.d[2] + c + u + table[1]);
})"},
    {"math", R"(
kernel void math(global float* f, global double* d) {
  size_t i = get_global_id(0);
  f[i] = sin(f[i]) + exp(f[i]) + pow(f[i], 2.5f) + erfc(f[i]) + tgamma(f[i]) + fma(f[i], 2.0f, 1.0f) + sqrt(f[i]) +
         native_sin(f[i]) + half_exp(f[i]) + lgamma(f[i]) + atan2(f[i], 1.0f) + rootn(f[i], 3) + fmod(f[i], 3.0f);
  int q; float r = remquo(f[i], 2.0f, &q);
  d[i] = cos(d[i]) + log(d[i]) + cbrt(d[i]) + sinpi(d[i]) + r + q + frexp(d[i], &q) + hypot(d[i], 3.0);
})"},
    {"atomics", R"(
kernel void count(global int* g, global long* g64, local int* l, volatile global atomic_int* c11) {
  atomic_add(g, 1); atomic_max(g + 1, (int)get_global_id(0)); atom_add(g64, 5L); atomic_cmpxchg(g + 2, 0, 1);
  atomic_inc(l); atomic_xchg(l + 1, 3);
  atomic_fetch_add_explicit(c11, 2, memory_order_acq_rel, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
})"},
    {"generic", R"(
int get(int* p) { return *p; }
kernel void spaces(global int* g, local int* l) {
  private int p = 3;
  int* ptrs[3] = {g, l, &p};
  int n = 0;
  for (int i = 0; i < 3; ++i) n += (to_global(ptrs[i]) != 0) + 2 * (to_local(ptrs[i]) != 0) + 4 * (to_private(ptrs[i]) != 0);
  g[0] = n + get(g) + get(l) + get_fence(ptrs[1]);
})"},
    {"explicit_casts", R"(
kernel void casts(local int* l, global int* g) {
  int* p = l;
  local int* q = (local int*)p;
  q[0] = 1;
  global int* r = (global int*)(int*)l;
  g[0] = r == 0;
})"},
    {"constant_struct_copy", R"(
typedef struct { int a[16]; float f; } Table;
constant Table table = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 2.5f};
kernel void copy(global Table* out, constant Table* in) {
  Table t = table;
  Table u = *in;
  t.a[get_global_id(0) % 16] += u.a[1];
  out[get_global_id(0)] = t;
})"},
    {"null_casts", R"(
kernel void nulls(global uint* results) {
  int* ptr = NULL;
  local int* lptr = NULL;
  global int* gptr = NULL;
  ptr = lptr;
  results[get_global_id(0)] = (gptr == ptr) && (lptr == ptr);
})"},
    {"printf", R"(
kernel void say(global int* g) {
  printf("%d %f %s %v4d\n", g[0], 1.5f, "text", (int4)(1, 2, 3, 4));
  printf("no arguments\n");
})"},
    {"program_scope", R"(
global int counter = 5;
constant float table[4] = {1, 2, 3, 4};
kernel void bump(global float* out) { out[get_global_id(0)] = table[get_global_id(0) % 4] + counter++; }
kernel void second(global float* out, int n) { out[0] = vload_half(0, (global half*)out) + n; vstore_half_rtn(out[1], 1, (global half*)out); }
)"},
    {"async_copy", R"(
kernel void copy(global const float4* in, global float4* out, local float4* tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * get_local_size(0), get_local_size(0), 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)] + convert_float4(convert_int4_sat_rte(tile[0]));
})"},
    {"sub_groups", R"(
kernel void warps(global int* g, global double* d, global ulong* u) {
  size_t i = get_global_id(0);
  int v = g[i];
  g[i] = sub_group_reduce_add(v) + sub_group_scan_exclusive_min(v) + sub_group_broadcast(v, 3u) + sub_group_any(v > 2);
  d[i] = sub_group_scan_inclusive_max(d[i]) + sub_group_shuffle_xor(d[i], 1u) + sub_group_rotate(d[i], -2);
  if (v & 1) {
    uint4 b = sub_group_ballot(v > 5);
    g[i] += sub_group_ballot_bit_count(b) + sub_group_non_uniform_reduce_mul(v) +
            sub_group_non_uniform_scan_exclusive_xor(v) + sub_group_clustered_reduce_max(v, 8u) + sub_group_elect();
    u[i] = sub_group_non_uniform_scan_inclusive_add(u[i]) + sub_group_clustered_reduce_or(u[i], 4u);
  }
})"},
    {"integer_dot", R"(
kernel void dots(global uint* u, global int* s, global const uchar4* a, global const char4* b) {
  size_t i = get_global_id(0);
  u[i] = dot(a[i], a[i + 1]) + dot_acc_sat_4x8packed_uu_uint(u[i], u[i + 1], 7u);
  s[i] = dot(a[i], b[i]) + dot_acc_sat(b[i], b[i + 1], s[i]) + dot_4x8packed_su_int(u[i], u[i + 2]);
})"},
    {"work_group_collectives", R"(
kernel void groups(global float* f, global long* l, global int* n) {
  size_t i = get_global_id(0);
  f[i] = work_group_reduce_add(f[i]) + work_group_scan_exclusive_max(f[i]) + work_group_broadcast(f[i], 5, 0);
  l[i] = work_group_scan_inclusive_add(l[i]) + work_group_reduce_min(l[i]);
  n[i] = work_group_all(n[i] > 0) + work_group_any(n[i] == 3);
})"},
};

class NvptxSample : public ::testing::TestWithParam<Sample> {};

TEST_P(NvptxSample, CompilesToPtxThatPtxasAccepts) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(GetParam().source);
  ASSERT_TRUE(result.ok) << result.log;
  const auto program = decoded(result);
  ASSERT_FALSE(program.kernels.empty());
  for (const auto& kernel : program.kernels) {
    EXPECT_NE(program.ptx.find(".entry " + kernel.name + "("), std::string::npos) << kernel.name << "\n" << program.ptx;
  }
  EXPECT_EQ(program.ptx.find("Sleef_"), std::string::npos);
  EXPECT_TRUE(ptxas_accepts(program.ptx));
}

INSTANTIATE_TEST_SUITE_P(Samples, NvptxSample, ::testing::ValuesIn(kSamples),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(NvptxCodegen, PrintfSitesAreRecorded) {
  const auto program = decoded(compile(kSamples[9].source));
  ASSERT_EQ(program.kernels.size(), 1u);
  EXPECT_TRUE(program.kernels[0].uses_printf);
  ASSERT_EQ(program.printf_sites.size(), 2u);
  EXPECT_EQ(program.printf_sites[0].format, "%d %f %s %v4d\n");
  EXPECT_EQ(program.printf_sites[0].arguments.size(), 4u);
}

TEST(NvptxCodegen, LocalArgumentsBecomeOffsetsIntoDynamicSharedMemory) {
  const auto program = decoded(compile(kSamples[1].source));
  EXPECT_NE(program.ptx.find(".extern .shared .align 16 .b8 __cucl_dynamic_shared[]"), std::string::npos) << program.ptx;
  EXPECT_NE(program.ptx.find(".shared .align 4 .b8 reduce"), std::string::npos) << "static shared:\n" << program.ptx;
  EXPECT_NE(program.ptx.find("bar.sync"), std::string::npos);
}

TEST(NvptxCodegen, ConstantArgumentsAreReadFromGlobalMemory) {
  const auto program = decoded(compile(kSamples[2].source));
  EXPECT_EQ(program.ptx.find("ld.const"), std::string::npos) << program.ptx;
}

TEST(NvptxCodegen, RecursionIsABuildError) {
  const CodegenResult result = compile("int f(int n) { return n ? f(n - 1) : 0; }\n"
                                       "kernel void k(global int* g) { g[0] = f(g[1]); }");
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("recursion"), std::string::npos) << result.log;
}

TEST(NvptxCodegen, UndefinedFunctionIsABuildError) {
  const CodegenResult result = compile("int missing(int);\nkernel void k(global int* g) { g[0] = missing(g[1]); }");
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("'missing' is used but not defined"), std::string::npos) << result.log;
}

TEST(NvptxCodegen, OptimizationCanBeDisabled) {
  SKIP_WITHOUT_PTXAS();
  CodegenOptions options;
  options.optimize = false;
  const CodegenResult result = compile(kSamples[1].source, "CL3.0", options);
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_TRUE(ptxas_accepts(decoded(result).ptx));
}

TEST(NvptxCodegen, OpenCL12ProgramsCompile) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(kSamples[3].source, "CL1.2");
  ASSERT_TRUE(result.ok) << result.log;
  EXPECT_TRUE(ptxas_accepts(decoded(result).ptx));
}

// Branches of `ptx` that jump back to a label defined before them, without a predicate.
std::vector<std::string> unconditional_back_branches(const std::string& ptx) {
  std::vector<std::string> found;
  std::set<std::string> labels_so_far;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '$' && line.back() == ':') labels_so_far.insert(line.substr(0, line.size() - 1));
    const size_t bra = line.find("bra");
    if (bra == std::string::npos || line.find('@') != std::string::npos) continue;
    const size_t label = line.find('$', bra);
    if (label == std::string::npos) continue;
    const std::string target = line.substr(label, line.find(';', label) - label);
    if (labels_so_far.count(target)) found.push_back(line);
  }
  return found;
}

// ptxas leaves a loop unoptimised unless its back edge is taken on a predicate
// (backends/cuda/codegen/loop_latches.h). Loops one after the other (nested loops and
// loops with several exits may be laid out with an exit branching backwards, which this
// reading of the PTX could not tell from a back edge).
TEST(NvptxCodegen, LoopBackEdgesAreTakenOnAPredicate) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(R"(
kernel void loops(global int* out, global float* f, int n, float limit) {
  int x = 0;
  for (int i = 0; i < n; ++i) x = x * 3 + i;
  for (uint u = (uint)n; u != 7; u -= 2) x ^= (int)u;
  float v = f[0];
  while (!(v >= limit)) v = v * 1.5f + 1.0f;
  out[0] = x; f[1] = v;
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
  EXPECT_NE(ptx.find("@%p"), std::string::npos);
  const std::vector<std::string> back = unconditional_back_branches(ptx);
  EXPECT_TRUE(back.empty()) << "unconditional back edge: " << (back.empty() ? "" : back[0]) << "\n" << ptx;
}

// Portable byte alignment (hashcat's generic hc_bytealign and code like it) chooses among
// shifts by 8 * (c & 3): the choice folds into one funnel shift by a register
// (backends/codegen/linear_switch_arms.h), which PTX has as one `shf.l.wrap`
// (backends/cuda/codegen/funnel_shifts.h), with no branch left.
TEST(NvptxCodegen, ByteAlignmentChainsBecomeOneFunnelShift) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(std::string(cucl_test::kAlignBytesSource) + R"(
kernel void align(global uint* out, global const uint* in, int offset) {
  out[0] = align_bytes(in[0], in[1], offset);
  out[1] = align_bytes(0, in[1], offset);
  out[2] = align_bytes(in[0], 0, offset);
}
// A phi whose first value is an intrinsic call without arguments (the thread index): once
// crashed the pass.
kernel void strided(global float* out, uint count) {
  for (uint i = get_local_id(0); i < count; i += get_local_size(0)) out[i] = (float)i;
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
  size_t shifts = 0;
  for (size_t at = ptx.find("shf.l.wrap.b32"); at != std::string::npos; at = ptx.find("shf.l.wrap.b32", at + 1)) ++shifts;
  EXPECT_EQ(shifts, 3u) << ptx;
  const size_t entry = ptx.find(".entry align(");
  ASSERT_NE(entry, std::string::npos) << ptx;
  const std::string align = ptx.substr(entry, ptx.find("\n}\n", entry) - entry);
  EXPECT_EQ(align.find("bra"), std::string::npos) << align;
}

// The same fold when the switch lists its cases out of order: the value reaching the default
// is then not one range LazyValueInfo can tell (backends/codegen/linear_switch_arms.cpp).
TEST(NvptxCodegen, ByteAlignmentSwitchWithCasesOutOfOrderBecomesOneFunnelShift) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(R"(
kernel void out_of_order(global uint* out, global const uint* in, int c) {
  uint a = in[0], r;
  switch (c & 3) {
    case 3: r = a >> 8; break;
    case 1: r = a >> 24; break;
    case 2: r = a >> 16; break;
    default: r = 0; break;
  }
  out[0] = r;
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
  EXPECT_NE(ptx.find("shf.l.wrap.b32"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("bra"), std::string::npos) << ptx;
}

// Vector loads of halves widened to float or double keep a cvt per half
// (backends/cuda/codegen/half_extending_loads.h): LLVM 15 would load 8 or 16 halves' bits
// straight into float and double registers.
TEST(NvptxCodegen, WidenedHalfVectorLoadsConvertEachHalf) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void widen(global const half8* h8, global const half16* h16, global float8* f8, global double8* d8,
                  global float16* f16) {
  size_t g = get_global_id(0);
  f8[g] = convert_float8(h8[g]) * 2.0f;
  d8[g] = convert_double8(h8[g]);
  f16[g] = convert_float16(h16[g]);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
  const std::regex unconverted(R"(ld\.[a-z0-9.]*b16\s+\{?%f)");
  EXPECT_FALSE(std::regex_search(ptx, unconverted)) << ptx;
  size_t conversions = 0;
  for (const char* cvt : {"cvt.f32.f16", "cvt.f64.f16"})
    for (size_t at = ptx.find(cvt); at != std::string::npos; at = ptx.find(cvt, at + 1)) ++conversions;
  EXPECT_EQ(conversions, 8u + 8u + 16u) << ptx;
}

// A volatile private variable that nothing else can see lives in a register
// (backends/codegen/private_volatiles.h): CLBlast's xgemm declares its thread index so.
TEST(NvptxCodegen, VolatilePrivateVariablesLiveInRegisters) {
  SKIP_WITHOUT_PTXAS();
  const CodegenResult result = compile(R"(
kernel void tiles(global float* out, global const float* in, int tiles) {
  volatile int tid = get_local_id(0) + 16 * get_local_id(1);
  float sum = 0.0f;
  for (int t = 0; t < tiles; ++t) sum += in[t * 256 + tid];
  out[tid] = sum;
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
  EXPECT_EQ(ptx.find("volatile"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("__local_depot"), std::string::npos) << ptx;
}

// A restrict pointer to const global memory that the kernel never writes through is read
// through the non-coherent path (ld.global.nc), as NVIDIA's compiler reads CLBlast's GEMM
// operands; one the kernel writes through, or without restrict, is not.
TEST(NvptxCodegen, RestrictConstGlobalPointersAreReadThroughTheNonCoherentPath) {
  const CodegenResult result = compile(R"(
kernel void reads_restrict(global const float4* restrict in, global float4* restrict out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void reads_plain(global const float4* in, global float4* out) { out[get_global_id(0)] = in[get_global_id(0)]; }
kernel void reads_written(global float4* restrict io) { io[get_global_id(0)] = io[get_global_id(0) + 1]; })");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  const auto body_of = [&](const std::string& kernel) {
    const size_t start = ptx.find(".entry " + kernel + "(");
    EXPECT_NE(start, std::string::npos) << ptx;
    return ptx.substr(start, ptx.find("\n}", start) - start);
  };
  EXPECT_NE(body_of("reads_restrict").find("ld.global.nc.v4.f32"), std::string::npos) << ptx;
  for (const char* kernel : {"reads_plain", "reads_written"}) {
    const std::string body = body_of(kernel);
    EXPECT_EQ(body.find("ld.global.nc"), std::string::npos) << body;
    EXPECT_NE(body.find("ld.global.v4.f32"), std::string::npos) << body;
  }
}

// Unrolled loads whose int indices differ by constants share one address and take the
// constants as immediate offsets (CLBlast's Xgemm with strided access, and NVIDIA's compiler
// on it): int column = get_local_id(1) + i * 8 is exact in 64 bits, since the thread index is
// below 1024 and i below 8 (backends/codegen/index_widening.h).
TEST(NvptxCodegen, UnrolledIntIndicesBecomeImmediateOffsets) {
  const CodegenResult result = compile(R"(
kernel void strided(global const float* restrict b, global float* out, int n) {
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) {
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
      int column = get_local_id(1) + i * 8;
      sum += b[k * n + column + get_group_id(1) * 64];
    }
  }
  out[get_global_id(0)] = sum;
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  // ld.global.nc.f32 %f6, [%rd25+-128]: the base register and the offset, if any.
  const std::regex load(R"(ld\.global\.nc\.f32\s+%f\d+, \[(%rd\d+)(?:\+(-?\d+))?\])");
  std::set<std::string> bases;
  std::set<int> offsets;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), load); it != std::sregex_iterator(); ++it) {
    bases.insert((*it)[1]);
    offsets.insert((*it)[2].matched ? std::stoi((*it)[2]) : 0);
  }
  EXPECT_EQ(bases.size(), 1u) << ptx;
  ASSERT_EQ(offsets.size(), 8u) << ptx;
  for (auto it = std::next(offsets.begin()); it != offsets.end(); ++it) EXPECT_EQ(*it - *std::prev(it), 32) << ptx;
}

// A kernel with reqd_work_group_size tells ptxas its largest block (.maxntid, not .reqntid:
// a non-uniform range's edge groups are smaller blocks); a kernel without says nothing.
TEST(NvptxCodegen, RequiredWorkGroupSizeBoundsTheBlock) {
  const CodegenResult result = compile(R"(
kernel __attribute__((reqd_work_group_size(64, 2, 1))) void fixed(global int* g) { g[get_global_id(0)] = 1; }
kernel void free_size(global int* g) { g[get_global_id(0)] = 2; })");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  const size_t fixed = ptx.find(".entry fixed");
  const size_t free_size = ptx.find(".entry free_size");
  ASSERT_NE(fixed, std::string::npos) << ptx;
  ASSERT_NE(free_size, std::string::npos) << ptx;
  const size_t bound = ptx.find(".maxntid 64, 2, 1");
  ASSERT_NE(bound, std::string::npos) << ptx;
  EXPECT_EQ(ptx.find(".maxntid", bound + 1), std::string::npos) << "only the fixed kernel is bounded\n" << ptx;
  EXPECT_EQ(ptx.find(".reqntid"), std::string::npos) << ptx;
  // The directive belongs to the fixed kernel: it lies between that kernel's name and its body.
  EXPECT_GT(bound, fixed);
  EXPECT_LT(bound, ptx.find('{', fixed));
}

// native_ functions with a fast hardware form within the half_ limits use it.
TEST(NvptxCodegen, NativeFunctionsUseTheHardwaresApproximations) {
  const CodegenResult result = compile(R"(
kernel void fast(global float* f) {
  f[0] = native_divide(f[1], f[2]); f[3] = native_recip(f[4]); f[5] = native_sqrt(f[6]);
  f[7] = native_rsqrt(f[8]); f[9] = native_exp(f[10]); f[11] = native_powr(f[12], f[13]);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  for (const char* instruction : {"div.full.f32", "sqrt.approx.f32", "rsqrt.approx.f32", "ex2.approx.f32", "lg2.approx.f32"}) {
    EXPECT_NE(ptx.find(instruction), std::string::npos) << instruction << "\n" << ptx;
  }
  EXPECT_EQ(ptx.find("div.rn.f32"), std::string::npos) << ptx;
}

// fp32 division and sqrt in the program's own code take PTX's fast forms (within OpenCL's
// 2.5 and 3 ulp), unless -cl-fp32-correctly-rounded-divide-sqrt asks for the exact ones; a
// division by a power of two stays an exact multiplication either way.
TEST(NvptxCodegen, DivideAndSqrtAreFastUnlessCorrectlyRoundedIsAskedFor) {
  SKIP_WITHOUT_PTXAS();
  const char* source = R"(
kernel void k(global float* f, global float4* v) {
  f[0] = f[1] / f[2]; f[3] = sqrt(f[4]); f[5] = f[6] / 4.0f;
  v[0] = v[1] / v[2]; v[3] = sqrt(v[4]);
})";
  const CodegenResult fast = compile(source);
  ASSERT_TRUE(fast.ok) << fast.log;
  const std::string fast_ptx = decoded(fast).ptx;
  EXPECT_TRUE(ptxas_accepts(fast_ptx));
  EXPECT_NE(fast_ptx.find("div.full.f32"), std::string::npos) << fast_ptx;
  EXPECT_NE(fast_ptx.find("sqrt.approx.f32"), std::string::npos) << fast_ptx;
  EXPECT_NE(fast_ptx.find("0f3E800000"), std::string::npos) << "f[6] / 4 as a multiplication by 0.25\n" << fast_ptx;
  EXPECT_EQ(fast_ptx.find("div.rn.f32"), std::string::npos) << fast_ptx;
  EXPECT_EQ(fast_ptx.find("sqrt.rn.f32"), std::string::npos) << fast_ptx;

  CodegenOptions exact_options;
  exact_options.correctly_rounded_divide_sqrt = true;
  const CodegenResult exact = compile(source, "CL3.0", exact_options);
  ASSERT_TRUE(exact.ok) << exact.log;
  const std::string exact_ptx = decoded(exact).ptx;
  EXPECT_NE(exact_ptx.find("div.rn.f32"), std::string::npos) << exact_ptx;
  EXPECT_NE(exact_ptx.find("sqrt.rn.f32"), std::string::npos) << exact_ptx;
  EXPECT_EQ(exact_ptx.find("div.full"), std::string::npos) << exact_ptx;
  EXPECT_EQ(exact_ptx.find("sqrt.approx"), std::string::npos) << exact_ptx;
}

// SPIR-V's DontInline puts noinline on the call as well as on the function; the code
// generator inlines everything into the kernel entry all the same (CTS op_function_noinline).
// The PTX of SPIR-V assembly (spirv-as, then the SPIR-V reader, then the code generator).
std::string ptx_of_spirv_assembly(const char* assembly) {
  const auto dir = std::filesystem::temp_directory_path() / ("cucl-spv-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "k.spvasm") << assembly;
  const std::string assemble = "spirv-as --target-env spv1.0 " + (dir / "k.spvasm").string() + " -o " +
                               (dir / "k.spv").string();
  EXPECT_EQ(std::system(assemble.c_str()), 0) << assemble;
  std::ifstream in(dir / "k.spv", std::ios::binary);
  const std::string il((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  const cucl::compiler::FrontendResult front = cucl::compiler::translate_spirv(il, {});
  EXPECT_TRUE(front.ok) << front.log;
  if (!front.ok) return {};
  const CodegenResult result = cucl::backend::cuda::generate_nvptx_code(front.bitcode, {}, kTarget);
  EXPECT_TRUE(result.ok) << result.log;
  return result.ok ? decoded(result).ptx : std::string();
}

// SPIR-V's DontInline puts noinline on the call as well as on the function; the code
// generator inlines everything into the kernel entry all the same (CTS op_function_noinline).
TEST(NvptxCodegen, DontInlineCallsFromSpirvAreInlined) {
  SKIP_WITHOUT_PTXAS();
  const std::string ptx = ptx_of_spirv_assembly(spirv_samples::kDontInlineCall);
  ASSERT_FALSE(ptx.empty());
  EXPECT_EQ(ptx.find("call."), std::string::npos) << ptx;
  EXPECT_TRUE(ptxas_accepts(ptx));
}

TEST(NvptxProgramFormat, RejectsOtherTargetsAndDamage) {
  const CodegenResult result = compile(kSamples[0].source);
  ASSERT_TRUE(result.ok);
  using cucl::backend::cuda::decode_nvptx_program;
  EXPECT_FALSE(decode_nvptx_program(result.native, "nvptx64-nvidia-cuda/sm_70/ptx75").has_value());
  for (size_t cut = 0; cut < result.native.size(); cut += result.native.size() / 50 + 1) {
    EXPECT_FALSE(decode_nvptx_program(result.native.substr(0, cut), nvptx_code_target(kTarget)).has_value()) << cut;
  }
  std::string extra = result.native + "x";
  EXPECT_FALSE(decode_nvptx_program(extra, nvptx_code_target(kTarget)).has_value());
}

}  // namespace
// The same non-uniform call on both sides of a branch: each side keeps its own read of the
// converged lanes (activemask), so each half of a sub-group broadcasts among itself.
TEST(NvptxCodegen, NonUniformCallsOnBothSidesOfABranchStayInTheirBranch) {
  const CodegenResult result = compile(R"(
kernel void k(global const int* in, global const int* pick, global int* out) {
  int i = get_global_id(0);
  if (pick[i] < 16) {
    out[i] = sub_group_broadcast_first(in[i]);
  } else {
    out[i] = sub_group_broadcast_first(in[i]);
  }
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  size_t reads = 0;
  for (size_t at = ptx.find("activemask"); at != std::string::npos; at = ptx.find("activemask", at + 1)) ++reads;
  EXPECT_EQ(reads, 2u) << ptx;
}

namespace {

// The PTX of one entry: from its .entry line to the next entry (or the end).
std::string entry_text(const std::string& ptx, const std::string& name) {
  const size_t start = ptx.find(".entry " + name + "(");
  if (start == std::string::npos) return {};
  return ptx.substr(start, ptx.find(".entry ", start + 1) - start);
}

size_t instruction_count(const std::string& text) {
  size_t count = 0;
  for (size_t at = text.find(";\n"); at != std::string::npos; at = text.find(";\n", at + 1)) ++count;
  return count;
}

}  // namespace

// A kernel that samples 2D images gets a second entry for launches where every such image has
// textures: there each sampled read is one texture instruction and the software sampler is
// gone. A kernel that samples nothing has no second entry.
TEST(NvptxCodegen, KernelsSamplingImagesGetATexturedEntryWithoutTheSoftwareSampler) {
  const CodegenResult result = compile(R"(
constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void sample(read_only image2d_t src, sampler_t chosen, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(src, bilinear, (float2)(0.5f, 0.25f * i)) + read_imagef(src, chosen, (float2)(i, 2.5f));
}
kernel void plain(global int* g) { g[get_global_id(0)] = 1; })");
  ASSERT_TRUE(result.ok) << result.log;
  const auto program = decoded(result);
  ASSERT_EQ(program.kernels.size(), 2u);
  EXPECT_EQ(program.kernels[0].name, "sample");
  EXPECT_TRUE(program.kernels[0].textured_variant);
  EXPECT_FALSE(program.kernels[1].textured_variant);
  const std::string general = entry_text(program.ptx, "sample");
  const std::string textured = entry_text(program.ptx, std::string("sample") + kTexturedEntrySuffix);
  ASSERT_FALSE(textured.empty()) << program.ptx;
  EXPECT_TRUE(entry_text(program.ptx, std::string("plain") + kTexturedEntrySuffix).empty());
  size_t reads = 0;
  for (size_t at = textured.find("tex.2d"); at != std::string::npos; at = textured.find("tex.2d", at + 1)) ++reads;
  EXPECT_EQ(reads, 2u) << textured;
  // The software sampler's texel decoding and weighing: hundreds of instructions.
  EXPECT_LT(instruction_count(textured) * 4, instruction_count(general)) << textured;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(program.ptx));
}

// 3D images read through 3D textures and 2D arrays through layered ones (CUDA arrays,
// backends/cuda/cuda_image_arrays.h), each in the textured entry without the software sampler.
TEST(NvptxCodegen, ThreeDImagesAndTwoDArraysGetTexturedReads) {
  const CodegenResult result = compile(R"(
kernel void volume(read_only image3d_t v, read_only image2d_array_t layers, sampler_t s, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(v, s, (float4)(0.5f, 0.25f * i, 1.5f, 0.0f)) + read_imagef(layers, s, (float4)(i, 2.5f, 1.0f, 0.0f));
})");
  ASSERT_TRUE(result.ok) << result.log;
  const auto program = decoded(result);
  ASSERT_EQ(program.kernels.size(), 1u);
  EXPECT_TRUE(program.kernels[0].textured_variant);
  const std::string general = entry_text(program.ptx, "volume");
  const std::string textured = entry_text(program.ptx, std::string("volume") + kTexturedEntrySuffix);
  ASSERT_FALSE(textured.empty()) << program.ptx;
  auto count = [&](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(textured, "tex.3d."), 1u) << textured;
  EXPECT_EQ(count(textured, "tex.a2d."), 1u) << textured;
  EXPECT_EQ(count(textured, "tex.2d."), 0u) << textured;
  EXPECT_EQ(count(general, "tex.3d."), 1u) << "the general entry reads through a texture where the slot has one";
  EXPECT_LT(instruction_count(textured) * 4, instruction_count(general)) << textured;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(program.ptx));
}

// The software linear filter (3D images of float formats have no texture for it) reads an RGBA
// float image's 8 corners with one 16-byte load each, free of the decoding switch over every
// data type and pixel size, which would load a pixel with narrower loads.
TEST(NvptxCodegen, SoftwareLinearFilterOfFloatPixelsLoadsEachCornerWhole) {
  const CodegenResult result = compile(R"(
constant sampler_t trilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void resample(read_only image3d_t v, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(v, trilinear, (float4)(0.1f * i, 0.2f, 0.3f, 0.0f));
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string general = entry_text(decoded(result).ptx, "resample");
  size_t loads = 0;
  for (size_t at = general.find("ld.global.v4.f32"); at != std::string::npos; at = general.find("ld.global.v4.f32", at + 1))
    ++loads;
  EXPECT_EQ(loads, 8u) << general;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(decoded(result).ptx));
}

// A textured read places the texture's channels (as they lie in memory) as the image's order
// says; CL_RGBA, already in OpenCL's order, skips the placement after one compare.
TEST(NvptxCodegen, TexturedReadsOfRgbaImagesSkipTheChannelPlacementAfterOneCompare) {
  const CodegenResult result = compile(R"(
kernel void gather(read_only image2d_t src, sampler_t s, global const float2* at, global uint4* out) {
  const int i = get_global_id(0);
  out[i] = read_imageui(src, s, at[i]);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string textured = entry_text(decoded(result).ptx, std::string("gather") + kTexturedEntrySuffix);
  const size_t read = textured.find("tex.2d");
  ASSERT_NE(read, std::string::npos) << textured;
  const size_t compare = textured.find("setp.", read);
  ASSERT_NE(compare, std::string::npos) << textured;
  const std::string line = textured.substr(compare, textured.find('\n', compare) - compare);
  EXPECT_EQ(line.rfind("setp.eq.", 0), 0u) << line;
  EXPECT_NE(line.find(", " + std::to_string(CL_RGBA) + ";"), std::string::npos) << line << "\n" << textured;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(decoded(result).ptx));
}

// The builtins' atomics take generic pointers; on a global pointer they become atomics of the
// global space (InferAddressSpaces in the O3 pipeline), as NVIDIA's compiler emits them, not a
// generic atom behind a cvta and a NULL test.
TEST(NvptxCodegen, AtomicsOnGlobalPointersUseTheGlobalSpace) {
  const CodegenResult result = compile(R"(
kernel void legacy(global int* counters, uint mask) { atomic_add(&counters[get_global_id(0) & mask], 1); }
kernel void c11(volatile global atomic_int* counter, global int* old) {
  old[get_global_id(0)] = atomic_fetch_max_explicit(counter, 7, memory_order_relaxed, memory_scope_device);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  const std::string legacy = entry_text(ptx, "legacy"), c11 = entry_text(ptx, "c11");
  EXPECT_NE(legacy.find("atom.global.add.u32"), std::string::npos) << legacy;
  EXPECT_NE(c11.find("atom.global.max.s32"), std::string::npos) << c11;
  for (const std::string& entry : {legacy, c11}) EXPECT_EQ(entry.find("cvta"), std::string::npos) << entry;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}

// vloadn/vstoren take generic pointers too: on a global pointer they are global loads and
// stores, and a builtin's output through a pointer to a private variable (sincos) a local one.
TEST(NvptxCodegen, VectorLoadsAndStoresOnGlobalPointersUseTheGlobalSpace) {
  const CodegenResult result = compile(R"(
kernel void rows(global float* f, global float4* out) {
  const int i = get_global_id(0);
  float c;
  const float s = sincos(f[i], &c);
  out[i] = vload4(i, f) + (float4)(s, c, 0.0f, 0.0f);
  vstore4(out[i + 1], i + 2, f);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  const std::string rows = entry_text(ptx, "rows");
  for (const char* generic : {"\tld.f32", "\tst.f32", "\tld.v", "\tst.v", "cvta"})
    EXPECT_EQ(rows.find(generic), std::string::npos) << generic << "\n" << rows;
  EXPECT_NE(rows.find("ld.global"), std::string::npos) << rows;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}

// memory_scope_all_svm_devices (and memory_scope_all_devices, the same scope) atomics are
// PTX's system-scope atom.sys, which host threads see on managed memory while the kernel
// runs; every other scope keeps the device-scope atom, without .sys.
TEST(NvptxCodegen, AllSvmDevicesAtomicsAreSystemScopeAndDeviceScopeOnesAreNot) {
  const CodegenResult result = compile_for(nvptx_description_with_all_devices_scope(), R"(
kernel void system_add(volatile global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_svm_devices);
}
kernel void all_devices_add(volatile global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_devices);
}
kernel void device_add(volatile global atomic_int* counter) {
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  for (const char* kernel : {"system_add", "all_devices_add"}) {
    EXPECT_NE(entry_text(ptx, kernel).find("atom.sys.add.u32"), std::string::npos) << kernel << "\n" << ptx;
  }
  const std::string device = entry_text(ptx, "device_add");
  EXPECT_NE(device.find("atom.global.add.u32"), std::string::npos) << device;
  EXPECT_EQ(device.find(".sys"), std::string::npos) << device;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}

// Every C11 atomic on every type at system scope: read-modify-writes are atom.sys (min and max
// signed or not as the type is), loads and stores volatile accesses (relaxed at system scope
// in PTX) with membar.sys for their order, and no device-scope atom is left.
TEST(NvptxCodegen, EveryAtomicAtAllSvmDevicesScopeIsSystemScope) {
  const CodegenResult result = compile_for(nvptx_description_with_all_devices_scope(), R"(
#define SCOPE memory_scope_all_svm_devices
#define RMW(T, i)                                                                          \
  r[i] = atomic_fetch_add_explicit(&p[0], (T)1, memory_order_relaxed, SCOPE)               \
       + atomic_fetch_sub_explicit(&p[1], (T)2, memory_order_acq_rel, SCOPE)               \
       + atomic_fetch_and_explicit(&p[2], (T)3, memory_order_relaxed, SCOPE)               \
       + atomic_fetch_or_explicit(&p[3], (T)4, memory_order_relaxed, SCOPE)                \
       + atomic_fetch_xor_explicit(&p[4], (T)5, memory_order_relaxed, SCOPE)               \
       + atomic_fetch_min_explicit(&p[5], (T)6, memory_order_relaxed, SCOPE)               \
       + atomic_fetch_max_explicit(&p[6], (T)7, memory_order_seq_cst, SCOPE)               \
       + atomic_exchange_explicit(&p[7], (T)8, memory_order_relaxed, SCOPE)                \
       + atomic_load_explicit(&p[8], memory_order_seq_cst, SCOPE);                         \
  atomic_store_explicit(&p[9], (T)9, memory_order_release, SCOPE);                         \
  T expected##i = 0;                                                                       \
  r[i] += atomic_compare_exchange_strong_explicit(&p[10], &expected##i, (T)1,              \
            memory_order_acq_rel, memory_order_acquire, SCOPE)                             \
        + atomic_compare_exchange_weak_explicit(&p[11], &expected##i, (T)2,                \
            memory_order_relaxed, memory_order_relaxed, SCOPE);
kernel void ints(volatile global atomic_int* p, global int* r) { RMW(int, 0) }
kernel void uints(volatile global atomic_uint* p, global uint* r) { RMW(uint, 0) }
kernel void longs(volatile global atomic_long* p, global long* r) { RMW(long, 0) }
kernel void ulongs(volatile global atomic_ulong* p, global ulong* r) { RMW(ulong, 0) }
kernel void floats(volatile global atomic_float* f, volatile global atomic_double* d, global double* r) {
  float expected = 0.0f;
  r[0] = atomic_exchange_explicit(f, 1.0f, memory_order_relaxed, SCOPE)
       + atomic_load_explicit(f + 1, memory_order_acquire, SCOPE)
       + atomic_compare_exchange_strong_explicit(f + 2, &expected, 2.0f, memory_order_relaxed,
                                                 memory_order_relaxed, SCOPE)
       + atomic_exchange_explicit(d, 3.0, memory_order_relaxed, SCOPE);
  atomic_store_explicit(d + 1, 4.0, memory_order_seq_cst, SCOPE);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_devices);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  for (const char* instruction :
       {"atom.sys.add.u32", "atom.sys.add.u64", "atom.sys.and.b32", "atom.sys.and.b64", "atom.sys.or.b32",
        "atom.sys.or.b64", "atom.sys.xor.b32", "atom.sys.xor.b64", "atom.sys.min.s32", "atom.sys.min.u32",
        "atom.sys.min.s64", "atom.sys.min.u64", "atom.sys.max.s32", "atom.sys.max.u32", "atom.sys.max.s64",
        "atom.sys.max.u64", "atom.sys.exch.b32", "atom.sys.exch.b64", "atom.sys.cas.b32", "atom.sys.cas.b64",
        "membar.sys", "ld.volatile", "st.volatile"}) {
    EXPECT_NE(ptx.find(instruction), std::string::npos) << instruction << "\n" << ptx;
  }
  for (size_t at = ptx.find("atom."); at != std::string::npos; at = ptx.find("atom.", at + 1)) {
    EXPECT_EQ(ptx.compare(at, 9, "atom.sys."), 0) << ptx.substr(at, ptx.find('\n', at) - at);
  }
  EXPECT_EQ(ptx.find("membar.gl"), std::string::npos) << ptx;
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}


// cl_ext_float_atomics: add and sub of double are one atom (or red) .add.f64 (in global, shared
// or generic space: the null-preserving casts of legalize_address_space_casts leave most
// pointers generic), never a compare-and-swap loop, and atom.sys at memory_scope_all_svm_devices;
// so are float add and sub of operands known to be 2^-100 or more in magnitude (atom.add.f32
// flushes subnormals, which smaller operands alone can meet: an operand not known takes a
// compare-and-swap loop beside the instruction); min and max are compare-and-swap loops on the bits.
// How many times `pattern` (a regular expression) matches in `text`.
std::ptrdiff_t count_matches(const std::string& text, const std::string& pattern) {
  const std::regex instruction(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), instruction), std::sregex_iterator());
}

TEST(NvptxCodegen, AtomicAddsAreOneInstructionAndMinMaxCompareAndSwapLoops) {
  const CodegenResult result = compile_for(nvptx_description_with_all_devices_scope(), R"(
float add_generic(volatile atomic_float* p, float v) { return atomic_fetch_add(p, v); }
kernel void add_f32(volatile global atomic_float* f, global float* r) {
  r[get_global_id(0)] = atomic_fetch_add_explicit(f, 1.0f, memory_order_relaxed, memory_scope_device);
}
kernel void sub_f32(volatile global atomic_float* f) { atomic_fetch_sub(f, 2.0f); }
kernel void add_any_f32(volatile global atomic_float* f, float v) { atomic_fetch_add(f, v); }
kernel void add_f64(volatile global atomic_double* d, global double* r) {
  r[get_global_id(0)] = atomic_fetch_add_explicit(d, 1.0, memory_order_relaxed, memory_scope_device);
}
kernel void sub_f64(volatile global atomic_double* d) {
  atomic_fetch_sub_explicit(d, 3.0, memory_order_relaxed, memory_scope_work_group);
}
kernel void local_add_f32(global float* out) {
  local atomic_float l;
  if (get_local_id(0) == 0) atomic_init(&l, 0.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&l, 1.0f, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = atomic_load(&l);
}
kernel void local_add_f64(global double* out) {
  local atomic_double l;
  if (get_local_id(0) == 0) atomic_init(&l, 0.0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_sub_explicit(&l, 1.0, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = atomic_load(&l);
}
kernel void generic_add(volatile global atomic_float* f) { add_generic(f, 1.0f); }
kernel void system_add(volatile global atomic_float* f, volatile global atomic_double* d) {
  atomic_fetch_add_explicit(f, 1.0f, memory_order_relaxed, memory_scope_all_svm_devices);
  atomic_fetch_sub_explicit(d, 1.0, memory_order_relaxed, memory_scope_all_devices);
}
kernel void min_f32(volatile global atomic_float* f) {
  atomic_fetch_min_explicit(f, 1.0f, memory_order_relaxed, memory_scope_device);
}
kernel void max_f64(volatile global atomic_double* d) {
  atomic_fetch_max_explicit(d, 1.0, memory_order_relaxed, memory_scope_device);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  const std::string any_space = R"((\.global|\.shared)?)";
  for (const char* kernel : {"add_f64", "sub_f64", "local_add_f64"}) {
    const std::string text = entry_text(ptx, kernel);
    EXPECT_EQ(count_matches(text, "(atom|red)" + any_space + "\\.add\\.f64\\s"), 1) << kernel << "\n" << text;
    EXPECT_EQ(count_matches(text, "\\.cas\\."), 0) << kernel << "\n" << text;
  }
  for (const char* kernel : {"add_f32", "sub_f32", "local_add_f32", "generic_add"}) {
    const std::string text = entry_text(ptx, kernel);
    EXPECT_EQ(count_matches(text, "(atom|red)" + any_space + "\\.add\\.f32\\s"), 1) << kernel << "\n" << text;
    EXPECT_EQ(count_matches(text, "\\.cas\\."), 0) << kernel << "\n" << text;
  }
  const std::string any = entry_text(ptx, "add_any_f32");
  EXPECT_EQ(count_matches(any, "(atom|red)" + any_space + "\\.add\\.f32\\s"), 1) << any;
  EXPECT_EQ(count_matches(any, "atom" + any_space + "\\.cas\\.b32\\s"), 1) << any;
  const std::string system = entry_text(ptx, "system_add");
  EXPECT_EQ(count_matches(system, "atom\\.sys\\.add\\.f32\\s"), 1) << system;
  EXPECT_EQ(count_matches(system, "atom\\.sys\\.add\\.f64\\s"), 1) << system;
  EXPECT_EQ(count_matches(system, "\\.cas\\."), 0) << system;
  const std::pair<const char*, const char*> loops[] = {{"min_f32", "b32"}, {"max_f64", "b64"}};
  for (const auto& [kernel, bits] : loops) {
    const std::string text = entry_text(ptx, kernel);
    EXPECT_EQ(count_matches(text, "atom" + any_space + "\\.cas\\." + bits + "\\s"), 1) << kernel << "\n" << text;
    EXPECT_GE(count_matches(text, "\\bbra"), 1) << kernel << "\n" << text;
  }
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}

// atomic_half: add and sub are one atom.add.noftz.f16 (rounded to nearest, subnormals kept),
// at system scope atom.sys, and a compare-and-swap where the result is NaN; exchange, min and
// max loop on atom.cas.b16 (exchange with a pause between attempts); loads and stores are
// 16-bit accesses.
TEST(NvptxCodegen, HalfAtomicsAreAtomAddNoftzAndSixteenBitCompareAndSwap) {
  const CodegenResult result = compile_for(nvptx_description_with_all_devices_scope(), R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void add_f16(volatile global atomic_half* h, global half* r) {
  r[get_global_id(0)] = atomic_fetch_add_explicit(h, 1.0h, memory_order_relaxed, memory_scope_device);
}
kernel void sub_f16(volatile global atomic_half* h) { atomic_fetch_sub(h, 2.0h); }
kernel void local_add_f16(global half* out) {
  local atomic_half l;
  if (get_local_id(0) == 0) atomic_store(&l, 0.0h);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&l, 1.0h, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = atomic_load(&l);
}
kernel void system_add_f16(volatile global atomic_half* h) {
  atomic_fetch_add_explicit(h, 1.0h, memory_order_relaxed, memory_scope_all_svm_devices);
}
kernel void min_f16(volatile global atomic_half* h) {
  atomic_fetch_min_explicit(h, 1.0h, memory_order_relaxed, memory_scope_device);
}
kernel void exchange_f16(volatile global atomic_half* h, global half* r) { r[0] = atomic_exchange(h, 3.0h); }
kernel void system_max_f16(volatile global atomic_half* h) {
  atomic_fetch_max_explicit(h, 1.0h, memory_order_relaxed, memory_scope_all_devices);
})");
  ASSERT_TRUE(result.ok) << result.log;
  const std::string ptx = decoded(result).ptx;
  for (const char* kernel : {"add_f16", "sub_f16", "local_add_f16"}) {
    const std::string text = entry_text(ptx, kernel);
    EXPECT_EQ(count_matches(text, "atom\\.add\\.noftz\\.f16\\s"), 1) << kernel << "\n" << text;
    // One compare-and-swap, outside any loop, gives NaN results the host's bits.
    EXPECT_EQ(count_matches(text, "atom\\.cas\\.b16\\s"), 1) << kernel << "\n" << text;
  }
  const std::string system = entry_text(ptx, "system_add_f16");
  EXPECT_EQ(count_matches(system, "atom\\.sys\\.add\\.noftz\\.f16\\s"), 1) << system;
  for (const char* kernel : {"min_f16", "exchange_f16"}) {
    const std::string text = entry_text(ptx, kernel);
    EXPECT_EQ(count_matches(text, "atom\\.cas\\.b16\\s"), 1) << kernel << "\n" << text;
    EXPECT_EQ(count_matches(text, "atom[.a-z]*\\.b32\\s"), 0) << "a 16-bit atomic widened to 32 bits\n" << text;
    EXPECT_GE(count_matches(text, "\\bbra"), 1) << kernel << "\n" << text;
  }
  EXPECT_EQ(count_matches(entry_text(ptx, "system_max_f16"), "atom\\.sys\\.cas\\.b16\\s"), 1);
  // The exchange loop pauses between failed attempts.
  EXPECT_EQ(count_matches(entry_text(ptx, "exchange_f16"), "nanosleep\\.u32\\s"), 1);
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}

// SPIR-V atomics keep the order of their memory semantics: the reader asks the translator for
// OpenCL C 2.0's atomic_*_explicit (OpenCL 1.2's names would make every one a relaxed
// atom on GPUs), so acquire and release get their device-scope fence and relaxed none.
TEST(NvptxCodegen, SpirvAtomicsKeepTheirMemoryOrder) {
  const std::string ptx = ptx_of_spirv_assembly(spirv_samples::kOrderedAtomics);
  ASSERT_FALSE(ptx.empty());
  const auto fences = [&](const char* kernel) {
    const std::string text = entry_text(ptx, kernel);
    size_t n = 0;
    for (size_t at = text.find("membar.gl"); at != std::string::npos; at = text.find("membar.gl", at + 1)) ++n;
    return n;
  };
  EXPECT_GE(fences("acquire_load"), 1u) << entry_text(ptx, "acquire_load");
  EXPECT_GE(fences("release_store"), 1u) << entry_text(ptx, "release_store");
  EXPECT_EQ(fences("seq_cst_add"), 2u) << entry_text(ptx, "seq_cst_add");
  EXPECT_EQ(fences("relaxed_load"), 0u) << entry_text(ptx, "relaxed_load");
  SKIP_WITHOUT_PTXAS();
  EXPECT_TRUE(ptxas_accepts(ptx));
}
