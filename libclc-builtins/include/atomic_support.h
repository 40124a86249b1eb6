// The atomic operations the generated atomics sources (gen/atomics.py) and the fences of
// src/synchronization.cl are made of, per target.
//
// Host: clang's __opencl_atomic_* and __atomic_* builtins (legacy atomics are seq_cst).
//
// nvptx64: clang 15 gives the target no lock-free atomic width, so those builtins become
// calls to a runtime library that does not exist, and LLVM 15's NVPTX back end selects
// neither fences nor atomic loads stronger than relaxed. So: read-modify-writes use the
// __sync and __nvvm_atom builtins (always atomicrmw/cmpxchg, which become PTX atom: relaxed,
// like CUDA's atomics), and at memory_scope_all_svm_devices PTX's system-scope atom.sys
// (nvptx_system_atomics.h); relaxed loads and stores are volatile accesses (relaxed at
// system scope in PTX's memory model, so right at every scope); stronger orders add a membar
// of the operation's scope before (release) and after (acquire) the access. Legacy atomics
// (atomic_add, atom_add, ...) are relaxed at device scope, which is what OpenCL 1.x asked of
// them.
//
// cl_ext_float_atomics (half, float and double; ATOMIC_FETCH_FLOAT): add
// and sub are LLVM's atomicrmw fadd/fsub on x86 (a compare-and-swap loop) and one
// atom.add.noftz.f16 or atom.add.f64 on nvptx64, where float add and sub are one
// atom.add.f32 or, for addends below 2^-100, a compare-and-swap loop (see
// nvptx_atomic_fetch_add); min and max are compare-and-swap loops on both targets.
#pragma once

// Floating-point min and max: whether the operand `v` replaces the `stored` value. As the
// extension asks, min(x, qNaN) = min(qNaN, x) = x: a NaN operand never replaces a number,
// and a number always replaces a stored NaN. Of two zeros the stored one stays (the
// extension lets either be the result). A value that stays is not written again.
#define FLOAT_MIN_REPLACES(stored, v) ((v) < (stored) || (__builtin_isnan(stored) && !__builtin_isnan(v)))
#define FLOAT_MAX_REPLACES(stored, v) ((v) > (stored) || (__builtin_isnan(stored) && !__builtin_isnan(v)))

#ifdef __NVPTX__

#include "nvptx_system_atomics.h"

// memory_scope_all_devices is the same value.
static inline bool nvptx_system_scope(memory_scope scope) {
  return scope == __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES;
}

static inline void nvptx_fence(memory_scope scope) {
  if (scope == memory_scope_device) __nvvm_membar_gl();
  else if (nvptx_system_scope(scope)) __nvvm_membar_sys();
  else __nvvm_membar_cta();  // work-item, sub-group and work-group scopes
}
static inline bool nvptx_releases(memory_order order) {
  return order == memory_order_release || order == memory_order_acq_rel || order == memory_order_seq_cst;
}
static inline bool nvptx_acquires(memory_order order) {
  return order == memory_order_acquire || order == memory_order_acq_rel || order == memory_order_seq_cst;
}

#define NVPTX_RMW(name, T, op)                                                              \
  OVLD static inline T nvptx_atomic_##name(volatile T *p, T v, memory_order order,          \
                                           memory_scope scope) {                            \
    if (nvptx_releases(order)) nvptx_fence(scope);                                          \
    T old = nvptx_system_scope(scope) ? nvptx_sys_##name(p, v) : op(p, v);                  \
    if (nvptx_acquires(order)) nvptx_fence(scope);                                          \
    return old;                                                                             \
  }
// Relaxed loads and stores are volatile accesses, between the fences of their order.
#define NVPTX_LOAD_STORE(T)                                                                 \
  OVLD static inline T nvptx_atomic_load(volatile T *p, memory_order order,                 \
                                         memory_scope scope) {                              \
    if (order == memory_order_seq_cst) nvptx_fence(scope);                                  \
    T v = *p;                                                                               \
    if (nvptx_acquires(order)) nvptx_fence(scope);                                          \
    return v;                                                                               \
  }                                                                                         \
  OVLD static inline void nvptx_atomic_store(volatile T *p, T v, memory_order order,        \
                                             memory_scope scope) {                          \
    if (nvptx_releases(order)) nvptx_fence(scope);                                          \
    *p = v;                                                                                 \
    if (order == memory_order_seq_cst) nvptx_fence(scope);                                  \
  }
// Compare-exchange on nvptx_compare_and_swap(p, expected, desired, scope), which returns
// the value it found.
#define NVPTX_COMPARE_EXCHANGE(T)                                                           \
  OVLD static inline bool nvptx_atomic_compare_exchange(volatile T *p, T *expected,         \
      T desired, memory_order success, memory_order failure, memory_scope scope) {          \
    if (nvptx_releases(success)) nvptx_fence(scope);                                        \
    T wanted = *expected;                                                                   \
    T old = nvptx_compare_and_swap(p, wanted, desired, scope);                              \
    bool exchanged = old == wanted;                                                         \
    if (nvptx_acquires(exchanged ? success : failure)) nvptx_fence(scope);                  \
    if (!exchanged) *expected = old;                                                        \
    return exchanged;                                                                       \
  }
#define NVPTX_INTEGER_ATOMICS(T, SUFFIX)                                                    \
  NVPTX_RMW(fetch_add, T, __sync_fetch_and_add)                                             \
  NVPTX_RMW(fetch_sub, T, __sync_fetch_and_sub)                                             \
  NVPTX_RMW(fetch_and, T, __sync_fetch_and_and)                                             \
  NVPTX_RMW(fetch_or, T, __sync_fetch_and_or)                                               \
  NVPTX_RMW(fetch_xor, T, __sync_fetch_and_xor)                                             \
  NVPTX_RMW(fetch_min, T, __nvvm_atom_min_gen_##SUFFIX)                                     \
  NVPTX_RMW(fetch_max, T, __nvvm_atom_max_gen_##SUFFIX)                                     \
  NVPTX_RMW(exchange, T, __sync_lock_test_and_set)                                          \
  NVPTX_LOAD_STORE(T)                                                                       \
  OVLD static inline T nvptx_compare_and_swap(volatile T *p, T expected, T desired,         \
                                              memory_scope scope) {                         \
    return nvptx_system_scope(scope) ? nvptx_sys_compare_and_swap(p, expected, desired)     \
                                     : __sync_val_compare_and_swap(p, expected, desired);   \
  }                                                                                         \
  NVPTX_COMPARE_EXCHANGE(T)
NVPTX_INTEGER_ATOMICS(int, i)
NVPTX_INTEGER_ATOMICS(uint, ui)
NVPTX_INTEGER_ATOMICS(long, l)
NVPTX_INTEGER_ATOMICS(ulong, ul)
#undef NVPTX_INTEGER_ATOMICS

// 16-bit atomics, for atomic_half: PTX's atom.cas.b16 (sm_70 and later, where the devices
// offer half atomics: backends/cuda/cuda_description.cpp; LLVM 15 would widen a 16-bit
// compare-and-swap to a masked 32-bit loop).
OVLD static inline ushort nvptx_compare_and_swap(volatile ushort *p, ushort expected, ushort desired,
                                                 memory_scope scope) {
  ushort old;
  if (nvptx_system_scope(scope)) {
    __asm__ volatile("atom.sys.cas.b16 %0, [%1], %2, %3;"
                     : "=h"(old) : "l"((ulong)p), "h"(expected), "h"(desired) : "memory");
  } else {
    __asm__ volatile("atom.cas.b16 %0, [%1], %2, %3;"
                     : "=h"(old) : "l"((ulong)p), "h"(expected), "h"(desired) : "memory");
  }
  return old;
}
NVPTX_LOAD_STORE(ushort)
NVPTX_COMPARE_EXCHANGE(ushort)
// PTX has no 16-bit atom.exch: a compare-and-swap loop. Under contention each success makes
// every other contender's attempt fail (1024 work-items exchanging on one half took minutes
// in the CTS's c11_atomics), so a failed attempt pauses (nanosleep, sm_70 and later, doubling
// up to a microsecond) and reads the value again before the next.
OVLD static inline ushort nvptx_atomic_exchange(volatile ushort *p, ushort v, memory_order order,
                                                memory_scope scope) {
  if (nvptx_releases(order)) nvptx_fence(scope);
  ushort stored = *p;
  for (uint pause = 32; nvptx_compare_and_swap(p, stored, v, scope) != stored; pause = min(2 * pause, 1024u)) {
    __asm__ volatile("nanosleep.u32 %0;" : : "r"(pause));
    stored = *p;
  }
  if (nvptx_acquires(order)) nvptx_fence(scope);
  return stored;
}
#undef NVPTX_COMPARE_EXCHANGE
#undef NVPTX_LOAD_STORE

// float and double atomics work on the bits (compare-exchange compares representations).
#define NVPTX_FLOAT_ATOMICS(T, BITS)                                                        \
  OVLD static inline T nvptx_atomic_exchange(volatile T *p, T v, memory_order order,        \
                                             memory_scope scope) {                          \
    return as_##T(nvptx_atomic_exchange((volatile BITS *)p, as_##BITS(v), order, scope));   \
  }                                                                                         \
  OVLD static inline T nvptx_atomic_load(volatile T *p, memory_order order,                 \
                                         memory_scope scope) {                              \
    return as_##T(nvptx_atomic_load((volatile BITS *)p, order, scope));                     \
  }                                                                                         \
  OVLD static inline void nvptx_atomic_store(volatile T *p, T v, memory_order order,        \
                                             memory_scope scope) {                          \
    nvptx_atomic_store((volatile BITS *)p, as_##BITS(v), order, scope);                     \
  }                                                                                         \
  OVLD static inline bool nvptx_atomic_compare_exchange(volatile T *p, T *expected,         \
      T desired, memory_order success, memory_order failure, memory_scope scope) {          \
    return nvptx_atomic_compare_exchange((volatile BITS *)p, (BITS *)expected,              \
                                         as_##BITS(desired), success, failure, scope);      \
  }
NVPTX_FLOAT_ATOMICS(half, ushort)
NVPTX_FLOAT_ATOMICS(float, uint)
NVPTX_FLOAT_ATOMICS(double, ulong)
#undef NVPTX_FLOAT_ATOMICS

// Double add is LLVM's atomicrmw fadd, which the NVPTX back end selects as one atom.add.f64.
// clang allows __nvvm_atom_add_gen_d only where the target has sm_60, which this library
// (built for no particular GPU) lacks, so that one function is built for sm_60; the kernel's
// code generator, which targets the device, emits atom.add.f64 from sm_60 on and a
// compare-and-swap loop below.
__attribute__((target("sm_60"))) OVLD static inline double nvptx_device_fetch_add(volatile double *p, double v) {
  return __nvvm_atom_add_gen_d(p, v);
}
NVPTX_RMW(fetch_add, double, nvptx_device_fetch_add)
// Float add: PTX's atom.add.f32 flushes subnormal operands and results to zero (on the H100
// the CTS's c11_atomics read 0 for denorm_min + 0), while the device computes with subnormals
// (CL_FP_DENORM), which its atomics must keep too; a compare-and-swap loop keeps them, ~40x
// slower under contention. The flush changes nothing for an addend v of magnitude 2^-101 or
// more (and for infinities and NaNs): v itself is normal; a subnormal value o read from memory
// is below half an ulp of v (ulp(v) >= 2^-124), so o + v rounds to v, which the flushed add
// stores too; and a normal o gives a sum that is zero or normal (below |v| / 2 or above 2|v|
// it exceeds a quarter of |v|; in between it is a multiple of ulp(o) >= 2^-125). So the
// hardware adds those, with a margin (2^-100), and a compare-and-swap loop the smaller ones,
// zero included (adding 0 to a subnormal must leave it).
OVLD static inline float nvptx_atomic_fetch_add(volatile float *p, float v, memory_order order,
                                                memory_scope scope) {
  if (nvptx_releases(order)) nvptx_fence(scope);
  float stored;
  if (__builtin_fabsf(v) < 0x1p-100f) {
    stored = *p;
    while (!nvptx_atomic_compare_exchange(p, &stored, stored + v, memory_order_relaxed, memory_order_relaxed,
                                          scope)) {}
  } else {
    stored = nvptx_system_scope(scope) ? nvptx_sys_fetch_add(p, v) : __nvvm_atom_add_gen_f((float *)p, v);
  }
  if (nvptx_acquires(order)) nvptx_fence(scope);
  return stored;
}
// Half add and sub: PTX's atom.add.noftz.f16 (sm_70 and later) rounds to nearest and keeps
// subnormals, as the device's half arithmetic does. Its NaN results are the canonical 0x7fff;
// the host device's (x86) and the CTS's reference are the stored value's NaN quieted, else
// the operand's, and 0xfe00 for inf - inf. Where the add made a NaN, a compare-and-swap puts
// that NaN in place of the canonical one (unless another update came first), so both devices
// leave the same bits. `operand` is what the caller added or subtracted, `addend` what is added.
OVLD static inline half nvptx_half_add(volatile half *p, half addend, half operand, memory_order order,
                                       memory_scope scope) {
  if (nvptx_releases(order)) nvptx_fence(scope);
  ushort old;
  if (nvptx_system_scope(scope)) {
    __asm__ volatile("atom.sys.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"((ulong)p), "h"(as_ushort(addend)) : "memory");
  } else {
    __asm__ volatile("atom.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"((ulong)p), "h"(as_ushort(addend)) : "memory");
  }
  const half stored = as_half(old);
  const bool invalid = __builtin_isinf(stored) && __builtin_isinf(addend) && signbit(stored) != signbit(addend);
  if (__builtin_isnan(stored) || __builtin_isnan(operand) || invalid) {
    const ushort quiet = 0x0200, canonical = 0x7fff;
    const ushort nan = __builtin_isnan(stored) ? old | quiet : __builtin_isnan(operand) ? as_ushort(operand) | quiet : 0xfe00;
    if (nan != canonical) nvptx_compare_and_swap((volatile ushort *)p, canonical, nan, scope);
  }
  if (nvptx_acquires(order)) nvptx_fence(scope);
  return stored;
}
OVLD static inline half nvptx_atomic_fetch_add(volatile half *p, half v, memory_order order, memory_scope scope) {
  return nvptx_half_add(p, v, v, order, scope);
}
OVLD static inline half nvptx_atomic_fetch_sub(volatile half *p, half v, memory_order order, memory_scope scope) {
  return nvptx_half_add(p, -v, v, order, scope);
}
// Floating-point min and max are compare-and-swap loops (PTX 7.5 has no floating-point atom
// min or max), relaxed, between the fences of the order.
#define NVPTX_FLOAT_MIN_MAX(name, T, REPLACES)                                              \
  OVLD static inline T nvptx_atomic_##name(volatile T *p, T v, memory_order order,          \
                                           memory_scope scope) {                            \
    if (nvptx_releases(order)) nvptx_fence(scope);                                          \
    T stored = *p;                                                                          \
    while (REPLACES(stored, v) && !nvptx_atomic_compare_exchange(p, &stored, v,             \
               memory_order_relaxed, memory_order_relaxed, scope)) {}                      \
    if (nvptx_acquires(order)) nvptx_fence(scope);                                          \
    return stored;                                                                          \
  }
// Subtraction adds the negated operand: a - v and a + (-v) are the same IEEE operation.
#define NVPTX_FLOAT_ARITHMETIC(T)                                                           \
  OVLD static inline T nvptx_atomic_fetch_sub(volatile T *p, T v, memory_order order,       \
                                              memory_scope scope) {                         \
    return nvptx_atomic_fetch_add(p, -v, order, scope);                                     \
  }                                                                                         \
  NVPTX_FLOAT_MIN_MAX(fetch_min, T, FLOAT_MIN_REPLACES)                                     \
  NVPTX_FLOAT_MIN_MAX(fetch_max, T, FLOAT_MAX_REPLACES)
NVPTX_FLOAT_MIN_MAX(fetch_min, half, FLOAT_MIN_REPLACES)
NVPTX_FLOAT_MIN_MAX(fetch_max, half, FLOAT_MAX_REPLACES)
NVPTX_FLOAT_ARITHMETIC(float)
NVPTX_FLOAT_ARITHMETIC(double)
#undef NVPTX_FLOAT_ARITHMETIC
#undef NVPTX_FLOAT_MIN_MAX
#undef NVPTX_RMW

// C11-style atomics: obj points to an atomic type T (in any address space).
#define ATOMIC_STORE(T, obj, v, order, scope) nvptx_atomic_store((volatile T *)(obj), v, order, scope)
#define ATOMIC_LOAD(T, obj, order, scope) nvptx_atomic_load((volatile T *)(obj), order, scope)
#define ATOMIC_EXCHANGE(T, obj, v, order, scope)                                            \
  nvptx_atomic_exchange((volatile T *)(obj), v, order, scope)
#define ATOMIC_COMPARE_EXCHANGE(strength, T, obj, expected, desired, success, failure, scope) \
  nvptx_atomic_compare_exchange((volatile T *)(obj), expected, desired, success, failure, scope)
#define ATOMIC_FETCH(op, T, obj, v, order, scope)                                           \
  nvptx_atomic_fetch_##op((volatile T *)(obj), v, order, scope)
#define ATOMIC_FETCH_FLOAT(op, T, obj, v, order, scope) ATOMIC_FETCH(op, T, obj, v, order, scope)

// OpenCL 1.x atomics: p points to a plain int, uint, long or ulong.
#define LEGACY_FETCH(op, p, v) nvptx_atomic_fetch_##op(p, v, memory_order_relaxed, memory_scope_device)
#define LEGACY_EXCHANGE(p, v) nvptx_atomic_exchange(p, v, memory_order_relaxed, memory_scope_device)
#define LEGACY_COMPARE_EXCHANGE(p, cmp, v) __sync_val_compare_and_swap(p, cmp, v)

#else

// What a compare-and-swap that fails, or a min or max that writes nothing, promises of an
// order: its load half.
static inline memory_order host_load_order(memory_order order) {
  if (order == memory_order_release) return memory_order_relaxed;
  return order == memory_order_acq_rel ? memory_order_acquire : order;
}
// Floating-point add and sub are clang's (atomicrmw fadd/fsub); min and max, which clang 15
// has only for integers, are compare-and-swap loops.
#define HOST_FLOAT_MIN_MAX(name, T, REPLACES)                                               \
  OVLD static inline T host_atomic_##name(volatile atomic_##T *obj, T v, memory_order order, \
                                          memory_scope scope) {                             \
    const memory_order load_order = host_load_order(order);                                 \
    T stored = __opencl_atomic_load(obj, load_order, scope);                                \
    while (REPLACES(stored, v) &&                                                           \
           !__opencl_atomic_compare_exchange_weak(obj, &stored, v, order, load_order, scope)) {} \
    return stored;                                                                          \
  }
#define HOST_FLOAT_ATOMICS(T)                                                               \
  OVLD static inline T host_atomic_fetch_add(volatile atomic_##T *obj, T v, memory_order order, \
                                             memory_scope scope) {                          \
    return __opencl_atomic_fetch_add(obj, v, order, scope);                                 \
  }                                                                                         \
  OVLD static inline T host_atomic_fetch_sub(volatile atomic_##T *obj, T v, memory_order order, \
                                             memory_scope scope) {                          \
    return __opencl_atomic_fetch_sub(obj, v, order, scope);                                 \
  }                                                                                         \
  HOST_FLOAT_MIN_MAX(fetch_min, T, FLOAT_MIN_REPLACES)                                      \
  HOST_FLOAT_MIN_MAX(fetch_max, T, FLOAT_MAX_REPLACES)
HOST_FLOAT_ATOMICS(half)
HOST_FLOAT_ATOMICS(float)
HOST_FLOAT_ATOMICS(double)
#undef HOST_FLOAT_ATOMICS
#undef HOST_FLOAT_MIN_MAX

#define ATOMIC_STORE(T, obj, v, order, scope) __opencl_atomic_store(obj, v, order, scope)
#define ATOMIC_LOAD(T, obj, order, scope) __opencl_atomic_load(obj, order, scope)
#define ATOMIC_EXCHANGE(T, obj, v, order, scope) __opencl_atomic_exchange(obj, v, order, scope)
#define ATOMIC_COMPARE_EXCHANGE(strength, T, obj, expected, desired, success, failure, scope) \
  __opencl_atomic_compare_exchange_##strength(obj, expected, desired, success, failure, scope)
#define ATOMIC_FETCH(op, T, obj, v, order, scope) __opencl_atomic_fetch_##op(obj, v, order, scope)
#define ATOMIC_FETCH_FLOAT(op, T, obj, v, order, scope)                                     \
  host_atomic_fetch_##op((volatile atomic_##T *)(obj), v, order, scope)

#define LEGACY_FETCH(op, p, v) __atomic_fetch_##op(p, v, __ATOMIC_SEQ_CST)
#define LEGACY_EXCHANGE(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define LEGACY_COMPARE_EXCHANGE(p, cmp, v)                                                  \
  (__atomic_compare_exchange_n(p, &(cmp), v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST), (cmp))

#endif
