// Hand-written PTX for fills whose pattern does not repeat at 1, 2 or 4 bytes. Each
// thread of a grid-stride loop stores one element (a 32-bit word or a byte) taken from
// the pattern, which is passed by value in the kernel parameters: pattern sizes are
// powers of two, so `index & mask` picks the element. The JIT compiles it for the device.
#pragma once

namespace cucl::backend::cuda {

inline constexpr const char kFillPtx[] = R"PTX(
.version 6.0
.target sm_50
.address_size 64

// fill(dst, count, mask, pattern): dst[i] = pattern[i & mask] for every i < count
.visible .entry cucl_fill_u32(.param .u64 dst, .param .u64 count, .param .u32 mask,
                              .param .align 4 .b8 pattern[128])
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [dst];
  ld.param.u64 %rd2, [count];
  ld.param.u32 %r1, [mask];
  mov.u64 %rd3, pattern;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd4, %r2, %r3;
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r5, %r3;
LOOP_U32:
  setp.ge.u64 %p, %rd4, %rd2;
  @%p bra DONE_U32;
  cvt.u32.u64 %r6, %rd4;
  and.b32 %r6, %r6, %r1;
  mul.wide.u32 %rd7, %r6, 4;
  add.u64 %rd8, %rd3, %rd7;
  ld.param.u32 %r7, [%rd8];
  shl.b64 %rd9, %rd4, 2;
  add.u64 %rd10, %rd1, %rd9;
  st.global.u32 [%rd10], %r7;
  add.u64 %rd4, %rd4, %rd6;
  bra.uni LOOP_U32;
DONE_U32:
  ret;
}

.visible .entry cucl_fill_u8(.param .u64 dst, .param .u64 count, .param .u32 mask,
                             .param .align 4 .b8 pattern[128])
{
  .reg .pred %p;
  .reg .b16 %h1;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [dst];
  ld.param.u64 %rd2, [count];
  ld.param.u32 %r1, [mask];
  mov.u64 %rd3, pattern;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd4, %r2, %r3;
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r5, %r3;
LOOP_U8:
  setp.ge.u64 %p, %rd4, %rd2;
  @%p bra DONE_U8;
  cvt.u32.u64 %r6, %rd4;
  and.b32 %r6, %r6, %r1;
  cvt.u64.u32 %rd7, %r6;
  add.u64 %rd8, %rd3, %rd7;
  ld.param.u8 %h1, [%rd8];
  add.u64 %rd10, %rd1, %rd4;
  st.global.u8 [%rd10], %h1;
  add.u64 %rd4, %rd4, %rd6;
  bra.uni LOOP_U8;
DONE_U8:
  ret;
}
)PTX";

}  // namespace cucl::backend::cuda
