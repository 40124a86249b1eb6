// The OpenCL C kernel language on each device: barriers in loops and branches, __local
// memory in its forms, private arrays, structs by value, program-scope globals, __constant
// data, helper functions, kernels calling kernels, 64-bit integers and doubles.
#include <cmath>
#include <limits>

#include "program_test_helpers.h"
#include "support/byte_align_source.h"

using namespace cucl_test;
using namespace program_test;

namespace {

class KernelLanguage : public DeviceTest {};

// A work-group prefix sum (Hillis-Steele): a barrier inside a loop, twice per iteration.
TEST_P(KernelLanguage, BarriersInsideALoop) {
  BuiltProgram program(env, R"(
    kernel void scan(global int* data, local int* tmp) {
      size_t l = get_local_id(0), n = get_local_size(0);
      tmp[l] = data[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t step = 1; step < n; step *= 2) {
        int add = l >= step ? tmp[l - step] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[l] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      data[get_global_id(0)] = tmp[l];
    })");
  cl_kernel kernel = program.kernel("scan");
  ASSERT_NE(kernel, nullptr);
  constexpr int kGroup = 128, kItems = 1024;
  std::vector<int> values(kItems);
  for (int i = 0; i < kItems; ++i) values[i] = i % 7 + 1;
  DeviceBuffer data(env.context, kItems * sizeof(int), values.data());
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), data.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, kGroup * sizeof(int), nullptr), CL_SUCCESS);
  run_1d(env.queue, kernel, kItems, kGroup);
  const auto out = read_buffer<int>(env.queue, data.get(), kItems);
  int sum = 0;
  for (int i = 0; i < kItems; ++i) {
    sum = (i % kGroup == 0 ? 0 : sum) + values[i];
    ASSERT_EQ(out[i], sum) << i;
  }
}

// Barriers in branches every work-item of the group takes the same way, and several
// barriers in sequence.
TEST_P(KernelLanguage, BarriersInUniformBranchesAndSequences) {
  BuiltProgram program(env, R"(
    kernel void staged(global int* out, int mode) {
      local int a[64];
      local int b[64];
      size_t l = get_local_id(0), n = get_local_size(0);
      a[l] = (int)l;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (mode == 1) {
        b[l] = a[n - 1 - l] * 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        a[l] = b[(l + 1) % n];
      } else {
        b[l] = a[(l + 3) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        a[l] = b[l] + 100;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_group_id(0) % 2 == 0) {
        b[l] = a[(l + 5) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      out[get_global_id(0)] = get_group_id(0) % 2 == 0 ? b[l] : a[l];
    })");
  cl_kernel kernel = program.kernel("staged");
  ASSERT_NE(kernel, nullptr);
  constexpr int n = 64;
  for (int mode : {1, 2}) {
    DeviceBuffer out(env.context, 4 * n * sizeof(int));
    set_args(kernel, out.get(), mode);
    run_1d(env.queue, kernel, 4 * n, n);
    const auto values = read_buffer<int>(env.queue, out.get(), 4 * n);
    for (int i = 0; i < 4 * n; ++i) {
      auto a_after = [&](int l) { return mode == 1 ? (n - 1 - (l + 1) % n) * 2 : (l + 3) % n + 100; };
      const int l = i % n, group = i / n;
      const int expected = group % 2 == 0 ? a_after((l + 5) % n) : a_after(l);
      ASSERT_EQ(values[i], expected) << "mode " << mode << " at " << i;
    }
  }
}

// Kernel-scope __local arrays in several kernels of one program, and __local arguments of
// several sizes: no kernel's local memory overlaps another's.
TEST_P(KernelLanguage, LocalArraysAndLocalArgumentsOfSeveralSizes) {
  BuiltProgram program(env, R"(
    kernel void one(global int* out, local char* small, local double* big) {
      local int mine[32];
      size_t l = get_local_id(0);
      mine[l] = (int)l + 1;
      small[l] = (char)l;
      big[l] = l * 0.5;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = mine[31 - l] + small[31 - l] * 100 + (int)(big[31 - l] * 4) * 10000;
    }
    kernel void two(global int* out) {
      local short theirs[32];
      local long other[32];
      size_t l = get_local_id(0);
      theirs[l] = (short)(l * 3);
      other[l] = (long)l << 33;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = theirs[31 - l] + (int)(other[31 - l] >> 33);
    })");
  cl_kernel one = program.kernel("one");
  cl_kernel two = program.kernel("two");
  ASSERT_NE(one, nullptr);
  ASSERT_NE(two, nullptr);
  DeviceBuffer out1(env.context, 128 * sizeof(int)), out2(env.context, 128 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(one, 0, sizeof(cl_mem), out1.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(one, 1, 32, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(one, 2, 32 * sizeof(double), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(two, 0, sizeof(cl_mem), out2.address()), CL_SUCCESS);
  const size_t global = 128, local = 32;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, one, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, two, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
  const auto v1 = read_buffer<int>(env.queue, out1.get(), 128);
  const auto v2 = read_buffer<int>(env.queue, out2.get(), 128);
  for (int i = 0; i < 128; ++i) {
    const int r = 31 - i % 32;
    EXPECT_EQ(v1[i], (r + 1) + r * 100 + (r * 2) * 10000) << i;
    EXPECT_EQ(v2[i], r * 3 + r) << i;
  }
}

TEST_P(KernelLanguage, PrivateArrays) {
  BuiltProgram program(env, R"(
    kernel void sieve(global int* out) {
      int n = (int)get_global_id(0) + 2;
      char composite[200];
      for (int i = 0; i < 200; ++i) composite[i] = 0;
      int count = 0;
      for (int i = 2; i <= n; ++i) {
        if (composite[i]) continue;
        ++count;
        for (int j = i * i; j <= n; j += i) composite[j] = 1;
      }
      out[get_global_id(0)] = count;
    })");
  cl_kernel kernel = program.kernel("sieve");
  ASSERT_NE(kernel, nullptr);
  const auto values = run_on_ints(env, kernel, 190);
  int count = 0;
  for (int n = 2; n < 192; ++n) {
    bool prime = true;
    for (int d = 2; d * d <= n; ++d) prime = prime && n % d != 0;
    count += prime;
    ASSERT_EQ(values[n - 2], count) << n;
  }
}

// Loops of every exit shape with bounds known only at run time (the GPU code generator
// rewrites loop back edges: backends/cuda/codegen/loop_latches.h): counting up and down,
// a float condition that NaN never satisfies, nested loops with break and continue, a
// do-while. Compared with the same loops run here.
int loops_reference(int id) {
  unsigned x = 0;
  for (int k = 0; k < id % 37; ++k) x = x * 3u + static_cast<unsigned>(k);
  for (unsigned u = static_cast<unsigned>(id) * 2u + 9u; u != 7u; u -= 2u) x ^= u;
  float v = id % 5 == 0 ? std::nanf("") : static_cast<float>(id % 11) - 2.0f;
  int steps = 0;
  while (!(v >= 40.0f) && steps < 100) {
    v = v * 1.5f + 1.0f;
    ++steps;
  }
  for (float f = v; f < 50.0f; f += 3.0f) ++steps;
  int nested = 0;
  for (int i = 0; i < id % 13; ++i) {
    if (i == 5) continue;
    for (int j = i; j < 20; ++j) {
      if ((i * j) % 7 == 6) break;
      nested += j;
    }
  }
  int d = id;
  do {
    d /= 2;
    ++nested;
  } while (d > 3);
  return static_cast<int>(x) ^ (steps << 20) ^ (nested << 8);
}

TEST_P(KernelLanguage, LoopsOfEveryExitShape) {
  BuiltProgram program(env, R"(
    kernel void loops(global int* out) {
      int id = (int)get_global_id(0);
      uint x = 0;
      for (int k = 0; k < id % 37; ++k) x = x * 3u + (uint)k;
      for (uint u = (uint)id * 2u + 9u; u != 7u; u -= 2u) x ^= u;
      float v = id % 5 == 0 ? nan(0u) : (float)(id % 11) - 2.0f;
      int steps = 0;
      while (!(v >= 40.0f) && steps < 100) { v = v * 1.5f + 1.0f; ++steps; }
      for (float f = v; f < 50.0f; f += 3.0f) ++steps;
      int nested = 0;
      for (int i = 0; i < id % 13; ++i) {
        if (i == 5) continue;
        for (int j = i; j < 20; ++j) { if ((i * j) % 7 == 6) break; nested += j; }
      }
      int d = id;
      do { d /= 2; ++nested; } while (d > 3);
      out[id] = (int)x ^ (steps << 20) ^ (nested << 8);
    })");
  cl_kernel kernel = program.kernel("loops");
  ASSERT_NE(kernel, nullptr);
  constexpr int kItems = 1000;
  const auto values = run_on_ints(env, kernel, kItems);
  for (int id = 0; id < kItems; ++id) ASSERT_EQ(values[id], loops_reference(id)) << "work-item " << id;
}

struct Padded {  // must match the OpenCL C layout below
  cl_char c;
  cl_double d;
  cl_short s;
  cl_int i;
  cl_float3 f3;
  cl_uchar tail;
};

TEST_P(KernelLanguage, StructsByValueWithPaddingAndAFloat3) {
  BuiltProgram program(env, R"(
    typedef struct { char c; double d; short s; int i; float3 f3; uchar tail; } Padded;
    typedef struct { Padded inner; long scale; } Outer;
    kernel void use(global double* out, Padded p, Outer o) {
      out[0] = p.c; out[1] = p.d; out[2] = p.s; out[3] = p.i;
      out[4] = p.f3.x; out[5] = p.f3.y; out[6] = p.f3.z; out[7] = p.tail;
      out[8] = o.inner.d * o.scale + o.inner.f3.z;
      out[9] = sizeof(Padded);
    })");
  cl_kernel kernel = program.kernel("use");
  ASSERT_NE(kernel, nullptr);
  const Padded p{-3, 1.0e10, -300, 123456, {{1.5f, 2.5f, 3.5f}}, 250};
  struct Outer {
    Padded inner;
    cl_long scale;
  } const o{{1, 0.25, 2, 3, {{0, 0, -8.0f}}, 4}, 12};
  DeviceBuffer out(env.context, 10 * sizeof(double));
  set_args(kernel, out.get(), p, o);
  ASSERT_EQ(clEnqueueTask(env.queue, kernel, 0, nullptr, nullptr), CL_SUCCESS);
  const auto v = read_buffer<double>(env.queue, out.get(), 10);
  EXPECT_EQ(v, (std::vector<double>{-3, 1.0e10, -300, 123456, 1.5, 2.5, 3.5, 250, 0.25 * 12 - 8.0,
                                    static_cast<double>(sizeof(Padded))}));
}

// Program-scope variables (OpenCL C 3.0 with the feature) keep their values between launches.
TEST_P(KernelLanguage, ProgramScopeGlobalsPersistBetweenLaunches) {
  BuiltProgram program(env, R"(
    global int counter = 10;
    global int history[8];
    kernel void bump(global int* out) {
      int seen = counter;
      history[seen - 10] = seen;
      counter = seen + 1;
      out[0] = seen;
    }
    kernel void read_history(global int* out) { out[get_global_id(0)] = history[get_global_id(0)]; }
  )", "-cl-std=CL3.0");
  cl_kernel bump = program.kernel("bump");
  cl_kernel read = program.kernel("read_history");
  ASSERT_NE(bump, nullptr);
  DeviceBuffer out(env.context, 8 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(bump, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  for (int launch = 0; launch < 5; ++launch) {
    ASSERT_EQ(clEnqueueTask(env.queue, bump, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_buffer<int>(env.queue, out.get(), 1)[0], 10 + launch);
  }
  const auto history = run_on_ints(env, read, 8);
  EXPECT_EQ(history, (std::vector<int>{10, 11, 12, 13, 14, 0, 0, 0}));
}

TEST_P(KernelLanguage, ConstantArraysAndSharedHelpers) {
  BuiltProgram program(env, R"(
    constant int kPrimes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
    constant float kWeights[2][3] = {{0.5f, 1.5f, 2.5f}, {-1.0f, -2.0f, -3.0f}};
    int weigh(int i) { return kPrimes[i % 8] * (int)(kWeights[i % 2][i % 3] * 2.0f); }
    kernel void first(global int* out) { out[get_global_id(0)] = weigh((int)get_global_id(0)); }
    kernel void second(global int* out) { out[get_global_id(0)] = weigh((int)get_global_id(0) + 1) + 1; }
  )");
  const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  const float weights[2][3] = {{0.5f, 1.5f, 2.5f}, {-1.0f, -2.0f, -3.0f}};
  auto weigh = [&](int i) { return primes[i % 8] * static_cast<int>(weights[i % 2][i % 3] * 2.0f); };
  const auto a = run_on_ints(env, program.kernel("first"), 48);
  const auto b = run_on_ints(env, program.kernel("second"), 48);
  for (int i = 0; i < 48; ++i) {
    EXPECT_EQ(a[i], weigh(i)) << i;
    EXPECT_EQ(b[i], weigh(i + 1) + 1) << i;
  }
}

TEST_P(KernelLanguage, KernelsCallingKernels) {
  BuiltProgram program(env, R"(
    kernel void leaf(global int* out, int v) { out[get_global_id(0)] += v; }
    kernel void middle(global int* out, int v) { leaf(out, v); leaf(out, v * 10); }
    kernel void top(global int* out) { out[get_global_id(0)] = 1; middle(out, 2); }
  )");
  const auto values = run_on_ints(env, program.kernel("top"), 16);
  for (int v : values) EXPECT_EQ(v, 1 + 2 + 20);
}

TEST_P(KernelLanguage, SixtyFourBitIntegersAndDoubles) {
  BuiltProgram program(env, R"(
    kernel void wide(global ulong* u, global long* s, global double* d) {
      size_t i = get_global_id(0);
      ulong x = 0x9E3779B97F4A7C15UL * (i + 1);
      u[i] = (x >> 7) ^ (x << 13) ^ mul_hi(x, 0xD1B54A32D192ED03UL);
      s[i] = -(long)(x % 1000003) * 4611686018427LL / 7;
      double y = (double)(i + 1);
      d[i] = sqrt(y) * 1e-300 * 1e300 + exp(-y) + fma(y, 1.0000000000000002, -y) + (double)x;
    })");
  cl_kernel kernel = program.kernel("wide");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t n = 256;
  DeviceBuffer u(env.context, n * 8), s(env.context, n * 8), d(env.context, n * 8);
  set_args(kernel, u.get(), s.get(), d.get());
  run_1d(env.queue, kernel, n);
  const auto uu = read_buffer<cl_ulong>(env.queue, u.get(), n);
  const auto ss = read_buffer<cl_long>(env.queue, s.get(), n);
  const auto dd = read_buffer<cl_double>(env.queue, d.get(), n);
  for (size_t i = 0; i < n; ++i) {
    const cl_ulong x = 0x9E3779B97F4A7C15ULL * (i + 1);
    const cl_ulong hi = static_cast<cl_ulong>((static_cast<unsigned __int128>(x) * 0xD1B54A32D192ED03ULL) >> 64);
    EXPECT_EQ(uu[i], (x >> 7) ^ (x << 13) ^ hi) << i;
    EXPECT_EQ(ss[i], -static_cast<cl_long>(x % 1000003) * 4611686018427LL / 7) << i;
    const double y = static_cast<double>(i + 1);
    const double expected = std::sqrt(y) * 1e-300 * 1e300 + std::exp(-y) + std::fma(y, 1.0000000000000002, -y) +
                            static_cast<double>(x);
    EXPECT_NEAR(dd[i], expected, std::abs(expected) * 1e-15) << i;
  }
}

// OpenCL C 3.0 atomics with the orders and scopes the device reports
// (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: up to seq_cst, up to all devices where reported).
TEST_P(KernelLanguage, AtomicsWithDeviceScopeUnderOpenCLC30) {
  BuiltProgram program(env, std::string(kWidestAtomicScope) + R"(
    kernel void count(global atomic_int* total, global atomic_int* local_total) {
      atomic_fetch_add_explicit(total, 1, memory_order_relaxed, memory_scope_device);
      atomic_fetch_add_explicit(local_total, 2, memory_order_seq_cst, WIDEST_SCOPE);
      atomic_fetch_add_explicit(local_total, 1, memory_order_acq_rel, memory_scope_work_group);
    })", "-cl-std=CL3.0");
  cl_kernel kernel = program.kernel("count");
  ASSERT_NE(kernel, nullptr);
  const int zeros[2] = {0, 0};
  DeviceBuffer a(env.context, sizeof(int), zeros), b(env.context, sizeof(int), zeros);
  set_args(kernel, a.get(), b.get());
  run_1d(env.queue, kernel, 4096, 64);
  EXPECT_EQ(read_buffer<int>(env.queue, a.get(), 1)[0], 4096);
  EXPECT_EQ(read_buffer<int>(env.queue, b.get(), 1)[0], 3 * 4096);
}

// Integer division and remainder by zero, and the signed MIN / -1, have undefined results
// but must not stop the program: on x86 the divide instruction traps (SIGFPE) on both.
// Every integer type, scalar and vector; the well-defined lanes next to them stay exact.
template <class T>
void check_division_that_may_trap(const Env& env, const char* type) {
  constexpr bool is_signed = std::numeric_limits<T>::is_signed;
  constexpr size_t kCount = 96;  // divisible by every vector width
  std::string source;
  for (int width : {1, 2, 3, 4, 8, 16}) {
    const std::string n = width == 1 ? "" : std::to_string(width);
    const std::string v = type + n;
    const std::string load = width == 1 ? "p[i]" : "vload" + n + "(i, p)";
    source += "kernel void div" + std::to_string(width) + "(global " + type + "* a, global " + type + "* b, global " +
              type + "* q, global " + type + "* r) {\n  size_t i = get_global_id(0);\n";
    for (const char* p : {"a", "b"}) {
      std::string l = load;
      l.replace(l.find('p'), 1, p);
      source += "  " + v + " " + p + "v = " + l + ";\n";
    }
    if (width == 1) {
      source += "  q[i] = av / bv; r[i] = av % bv;\n}\n";
    } else {
      source += "  vstore" + n + "(av / bv, i, q); vstore" + n + "(av % bv, i, r);\n}\n";
    }
  }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  std::vector<T> a(kCount), b(kCount);
  for (size_t e = 0; e < kCount; ++e) {
    a[e] = static_cast<T>(e * 37 + 11);
    b[e] = static_cast<T>(e % 5 + 2);
    if (e % 4 == 0) b[e] = 0;
    if (e % 4 == 1 && is_signed) a[e] = std::numeric_limits<T>::min(), b[e] = static_cast<T>(-1);
  }
  DeviceBuffer da(env.context, sizeof(T) * kCount, a.data()), db(env.context, sizeof(T) * kCount, b.data());
  for (int width : {1, 2, 3, 4, 8, 16}) {
    SCOPED_TRACE(std::string(type) + (width == 1 ? "" : std::to_string(width)));
    cl_kernel kernel = program.kernel("div" + std::to_string(width));
    ASSERT_NE(kernel, nullptr);
    DeviceBuffer q(env.context, sizeof(T) * kCount), r(env.context, sizeof(T) * kCount);
    set_args(kernel, da.get(), db.get(), q.get(), r.get());
    run_1d(env.queue, kernel, kCount / width);
    const auto quotients = read_buffer<T>(env.queue, q.get(), kCount);
    const auto remainders = read_buffer<T>(env.queue, r.get(), kCount);
    for (size_t e = 0; e < kCount; ++e) {
      if (e % 4 == 0 || (e % 4 == 1 && is_signed)) continue;  // undefined: only surviving counts
      EXPECT_EQ(quotients[e], static_cast<T>(a[e] / b[e])) << e;
      EXPECT_EQ(remainders[e], static_cast<T>(a[e] % b[e])) << e;
    }
  }
}

TEST_P(KernelLanguage, IntegerDivisionByZeroAndSignedOverflowDoNotStopTheProgram) {
  check_division_that_may_trap<cl_char>(env, "char");
  check_division_that_may_trap<cl_uchar>(env, "uchar");
  check_division_that_may_trap<cl_short>(env, "short");
  check_division_that_may_trap<cl_ushort>(env, "ushort");
  check_division_that_may_trap<cl_int>(env, "int");
  check_division_that_may_trap<cl_uint>(env, "uint");
  check_division_that_may_trap<cl_long>(env, "long");
  check_division_that_may_trap<cl_ulong>(env, "ulong");
}

// Choices among shifts that the compiler folds into one funnel shift by the switched value
// (backends/codegen/linear_switch_arms.h), next to ones it must leave alone: arms that are
// not linear in the value, a value that is not the one switched on, a default arm that
// gives something else, and the choice made inside a loop on a value set outside it.
TEST_P(KernelLanguage, ChoicesAmongShiftsGiveEachArmsValue) {
  BuiltProgram program(env, std::string(kAlignBytesSource) + R"(
    uint not_linear(uint a, uint c) {
      switch (c & 3) {
        case 0: return a << 1;
        case 1: return a << 2;
        case 2: return a << 7;
        default: return a << 8;
      }
    }
    uint with_default(uint a, uint c) {
      switch (c) {
        case 0: return a;
        case 1: return a << 4;
        case 2: return a << 8;
        default: return 12345u;
      }
    }
    uint right_shifts(ulong a, uint c) {
      switch (c % 5u) {
        case 0: return (uint)(a >> 40);
        case 1: return (uint)(a >> 32);
        case 2: return (uint)(a >> 24);
        case 3: return (uint)(a >> 16);
        default: return (uint)(a >> 8);
      }
    }
    kernel void shifts(global uint* out, global const uint* words, int offset_base) {
      const uint i = get_global_id(0);
      const int offset = offset_base + (int)i;
      const uint a = words[i], b = words[i + 1];
      out[8 * i + 0] = align_bytes(a, b, offset);
      out[8 * i + 1] = align_bytes(0, a, offset);
      out[8 * i + 2] = align_bytes(b, 0, offset);
      out[8 * i + 3] = not_linear(a, (uint)offset);
      out[8 * i + 4] = with_default(a, (uint)offset % 5u);
      out[8 * i + 5] = right_shifts(upsample(a, b), (uint)offset);
      uint sum = 0;
      for (int k = 0; k < 4; ++k) sum += align_bytes(a, b, offset + k) ^ (uint)k;
      out[8 * i + 6] = sum;
      out[8 * i + 7] = align_bytes(a, b, offset >> 2);
    })");
  cl_kernel kernel = program.kernel("shifts");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kItems = 64;
  std::vector<cl_uint> words(kItems + 1);
  for (size_t i = 0; i < words.size(); ++i) words[i] = 0x9e3779b9u * static_cast<cl_uint>(i + 1) ^ 0x01234567u;
  DeviceBuffer in(env.context, words.size() * sizeof(cl_uint), words.data());
  DeviceBuffer out(env.context, kItems * 8 * sizeof(cl_uint));
  const cl_int offset_base = 3;
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), in.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(cl_int), &offset_base), CL_SUCCESS);
  run_1d(env.queue, kernel, kItems, 16);
  const auto got = read_buffer<cl_uint>(env.queue, out.get(), kItems * 8);
  auto align_bytes = [](cl_uint a, cl_uint b, int c) -> cl_uint {
    const int cm = c & 3;
    return cm == 0 ? b : (a >> (32 - 8 * cm)) | (b << (8 * cm));
  };
  for (size_t i = 0; i < kItems; ++i) {
    const int offset = offset_base + static_cast<int>(i);
    const cl_uint a = words[i], b = words[i + 1], c = static_cast<cl_uint>(offset);
    const cl_uint not_linear[] = {a << 1, a << 2, a << 7, a << 8};
    const cl_uint with_default[] = {a, a << 4, a << 8, 12345u, 12345u};
    const cl_ulong wide = (static_cast<cl_ulong>(a) << 32) | b;
    const cl_uint right[] = {static_cast<cl_uint>(wide >> 40), static_cast<cl_uint>(wide >> 32),
                             static_cast<cl_uint>(wide >> 24), static_cast<cl_uint>(wide >> 16),
                             static_cast<cl_uint>(wide >> 8)};
    cl_uint sum = 0;
    for (int k = 0; k < 4; ++k) sum += align_bytes(a, b, offset + k) ^ static_cast<cl_uint>(k);
    const cl_uint expected[] = {align_bytes(a, b, offset), align_bytes(0, a, offset), align_bytes(b, 0, offset),
                                not_linear[c & 3], with_default[c % 5], right[c % 5], sum,
                                align_bytes(a, b, offset >> 2)};
    for (size_t k = 0; k < 8; ++k) EXPECT_EQ(got[8 * i + k], expected[k]) << "item " << i << ", result " << k;
  }
}

// Volatile private variables, arrays and struct members keep their values whether the
// compiler keeps them in registers (backends/codegen/private_volatiles.h) or, where their
// address goes to a helper, in memory.
TEST_P(KernelLanguage, VolatilePrivateVariablesKeepTheirValues) {
  BuiltProgram program(env, R"(
    typedef struct { int a; volatile int b; } Pair;
    int read_through(volatile int* p) { return *p + 1; }
    kernel void volatiles(global int* out, int n) {
      const int i = get_global_id(0);
      volatile int index = i * 3;
      volatile int table[4] = {1, 2, 3, 4};
      Pair pair = {i, -i};
      int sum = 0;
      for (int k = 0; k < n; ++k) {
        table[k & 3] += index;
        pair.b += k;
        sum += table[(k + i) & 3];
      }
      volatile int escaped = sum;
      out[3 * i] = sum + index;
      out[3 * i + 1] = pair.a + pair.b;
      out[3 * i + 2] = read_through(&escaped);
    })");
  cl_kernel kernel = program.kernel("volatiles");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kItems = 64;
  const cl_int n = 7;
  DeviceBuffer out(env.context, kItems * 3 * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof n, &n), CL_SUCCESS);
  run_1d(env.queue, kernel, kItems, 16);
  const auto got = read_buffer<cl_int>(env.queue, out.get(), kItems * 3);
  for (int i = 0; i < static_cast<int>(kItems); ++i) {
    int table[4] = {1, 2, 3, 4}, b = -i, sum = 0;
    for (int k = 0; k < n; ++k) {
      table[k & 3] += i * 3;
      b += k;
      sum += table[(k + i) & 3];
    }
    EXPECT_EQ(got[3 * i], sum + i * 3) << i;
    EXPECT_EQ(got[3 * i + 1], i + b) << i;
    EXPECT_EQ(got[3 * i + 2], sum + 1) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelLanguage, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
