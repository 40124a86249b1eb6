// The warp operations the GPU's sub-group and work-group collective functions are made of
// (nvptx64 only). A sub-group is a warp: lane i is sub-group local id i.
//
// The operations are LLVM's NVVM intrinsics, named through asm labels (clang's __nvvm_*
// builtins need a PTX target feature the library is not compiled with): they carry the
// convergent attribute, so no optimisation moves them into divergent code.
#pragma once

#ifdef __NVPTX__

uint nvptx_lane_id(void) __asm("llvm.nvvm.read.ptx.sreg.laneid");
uint nvptx_lanemask_eq(void) __asm("llvm.nvvm.read.ptx.sreg.lanemask.eq");
uint nvptx_lanemask_ge(void) __asm("llvm.nvvm.read.ptx.sreg.lanemask.ge");
uint nvptx_lanemask_gt(void) __asm("llvm.nvvm.read.ptx.sreg.lanemask.gt");
uint nvptx_lanemask_le(void) __asm("llvm.nvvm.read.ptx.sreg.lanemask.le");
uint nvptx_lanemask_lt(void) __asm("llvm.nvvm.read.ptx.sreg.lanemask.lt");
int nvptx_shuffle_index(uint mask, int value, int lane, int clamp) __asm("llvm.nvvm.shfl.sync.idx.i32");
int nvptx_shuffle_up(uint mask, int value, int delta, int clamp) __asm("llvm.nvvm.shfl.sync.up.i32");
int nvptx_shuffle_down(uint mask, int value, int delta, int clamp) __asm("llvm.nvvm.shfl.sync.down.i32");
int nvptx_shuffle_xor(uint mask, int value, int lanes, int clamp) __asm("llvm.nvvm.shfl.sync.bfly.i32");
uint nvptx_ballot(uint mask, bool predicate) __asm("llvm.nvvm.vote.ballot.sync");
void nvptx_warp_sync(uint mask) __asm("llvm.nvvm.bar.warp.sync");
// bar.sync 0 of the whole block, and its forms that also and/or a predicate over the block.
void nvptx_block_barrier(void) __asm("llvm.nvvm.barrier0");
int nvptx_block_barrier_and(int predicate) __asm("llvm.nvvm.barrier0.and");
int nvptx_block_barrier_or(int predicate) __asm("llvm.nvvm.barrier0.or");

#define WARP 32u
// shfl's clamp operand: the source lane stays within the whole warp.
#define WHOLE_WARP 31
// up: lanes below the delta keep their value (clamp 0 for shfl.up).
#define FROM_LANE_ZERO 0

// 64-bit values move as two 32-bit halves.
#define SHUFFLE_64(name)                                                                \
  static inline long name##_64(uint mask, long value, int lane, int clamp) {            \
    const int lo = name(mask, (int)value, lane, clamp);                                 \
    const int hi = name(mask, (int)(value >> 32), lane, clamp);                         \
    return (long)(((ulong)(uint)hi << 32) | (uint)lo);                                  \
  }
SHUFFLE_64(nvptx_shuffle_index)
SHUFFLE_64(nvptx_shuffle_up)
SHUFFLE_64(nvptx_shuffle_down)
SHUFFLE_64(nvptx_shuffle_xor)
#undef SHUFFLE_64

// A half moves as its bits in the low 16 of a lane's 32 (bits, not value: NaN payloads and
// signalling NaNs arrive unchanged).
#define SHUFFLE_HALF(name)                                                              \
  static inline half name##_half(uint mask, half value, int lane, int clamp) {          \
    return as_half((ushort)name(mask, (int)as_ushort(value), lane, clamp));             \
  }
SHUFFLE_HALF(nvptx_shuffle_index)
SHUFFLE_HALF(nvptx_shuffle_up)
SHUFFLE_HALF(nvptx_shuffle_down)
SHUFFLE_HALF(nvptx_shuffle_xor)
#undef SHUFFLE_HALF

// The lanes of a sub-group of `size` work-items.
static inline uint sub_group_mask(uint size) { return size >= WARP ? 0xffffffffu : (1u << size) - 1u; }

// The lanes converged at this point of the program: the functions that need not be reached
// by every work-item take part with these (a mask naming a lane that never makes the call
// would hang the warp).
static inline uint active_lanes(void) {
  uint mask;
  __asm__ volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
}

static inline uint first_active_lane(uint active) { return (uint)__builtin_ctz(active); }
static inline uint last_active_lane(uint active) { return 31u - (uint)__builtin_clz(active); }

// fns: the lane `count` set bits of `lanes` above (count > 0) or below (count < 0) `lane`,
// counting `lane` itself as the first; ~0u where there is none.
static inline uint nvptx_find_lane(uint lanes, uint lane, int count) {
  uint found;
  __asm__("fns.b32 %0, %1, %2, %3;" : "=r"(found) : "r"(lanes), "r"(lane), "r"(count));
  return found;
}

// Each operand is evaluated once or twice: never a shuffle (it would run in divergent code).
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))
#define AND(a, b) ((a) & (b))
#define OR(a, b) ((a) | (b))
#define XOR(a, b) ((a) ^ (b))

#endif  // __NVPTX__
