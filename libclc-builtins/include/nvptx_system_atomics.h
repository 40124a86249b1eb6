// nvptx64 read-modify-writes at system scope (PTX atom.sys, sm_60 and later): what
// memory_scope_all_svm_devices (and its OpenCL C 3.0 alias memory_scope_all_devices) asks
// for, so that host threads see them on managed memory while the kernel runs. The __sync and
// __nvvm_atom builtins of atomic_support.h give device-scope atom; clang 15's
// __nvvm_atom_sys_* builtins need the sm_60 target feature, which the builtin library is not
// compiled for, hence inline PTX. The address goes in as an integer: a generic address, which
// atom without a state space takes.
#pragma once

#ifdef __NVPTX__

#define NVPTX_SYS_RMW(name, T, INSTRUCTION, REG)                                            \
  OVLD static inline T nvptx_sys_##name(volatile T *p, T v) {                               \
    T old;                                                                                  \
    __asm__ volatile("atom.sys." INSTRUCTION " %0, [%1], %2;"                              \
                     : "=" REG(old) : "l"((ulong)p), REG(v) : "memory");                   \
    return old;                                                                             \
  }
// PTX has no atom.sub: it adds the negated operand (wrapping, as the subtraction does).
#define NVPTX_SYS_INTEGER_ATOMICS(T, BITS, SIGNED, REG)                                     \
  NVPTX_SYS_RMW(fetch_add, T, "add.u" #BITS, REG)                                           \
  OVLD static inline T nvptx_sys_fetch_sub(volatile T *p, T v) {                            \
    return nvptx_sys_fetch_add(p, (T)0 - v);                                                \
  }                                                                                         \
  NVPTX_SYS_RMW(fetch_and, T, "and.b" #BITS, REG)                                           \
  NVPTX_SYS_RMW(fetch_or, T, "or.b" #BITS, REG)                                             \
  NVPTX_SYS_RMW(fetch_xor, T, "xor.b" #BITS, REG)                                           \
  NVPTX_SYS_RMW(fetch_min, T, "min." SIGNED #BITS, REG)                                     \
  NVPTX_SYS_RMW(fetch_max, T, "max." SIGNED #BITS, REG)                                     \
  NVPTX_SYS_RMW(exchange, T, "exch.b" #BITS, REG)                                           \
  OVLD static inline T nvptx_sys_compare_and_swap(volatile T *p, T expected, T desired) {   \
    T old;                                                                                  \
    __asm__ volatile("atom.sys.cas.b" #BITS " %0, [%1], %2, %3;"                           \
                     : "=" REG(old) : "l"((ulong)p), REG(expected), REG(desired) : "memory"); \
    return old;                                                                             \
  }
NVPTX_SYS_INTEGER_ATOMICS(int, 32, "s", "r")
NVPTX_SYS_INTEGER_ATOMICS(uint, 32, "u", "r")
NVPTX_SYS_INTEGER_ATOMICS(long, 64, "s", "l")
NVPTX_SYS_INTEGER_ATOMICS(ulong, 64, "u", "l")
#undef NVPTX_SYS_INTEGER_ATOMICS
// cl_ext_float_atomics' adds (atomic_support.h builds the rest on them and on the
// compare-and-swap above; float add flushes subnormals, see there).
NVPTX_SYS_RMW(fetch_add, double, "add.f64", "d")
NVPTX_SYS_RMW(fetch_add, float, "add.f32", "f")
#undef NVPTX_SYS_RMW

#endif
