// Hand-written PTX for fills whose pattern does not repeat at 1, 2 or 4 bytes, and for the
// rows of image fills. Each thread of a grid-stride loop along a row stores one element (a
// 32-bit word or a byte) taken from the pattern, which is passed by value in the kernel
// parameters: pattern sizes are powers of two, so `index & mask` picks the element. The
// grid's y and z pick the row and the slice. The JIT compiles it for the device.
#pragma once

#include <string>
#include <string_view>

namespace cucl::backend::cuda {

// fill(dst, count, mask, pattern, row_pitch, slice_pitch): for the row at
// dst + ctaid.z * slice_pitch + ctaid.y * row_pitch, row[i] = pattern[i & mask] for every
// i < count, with elements of `bytes` = 1 << `shift` bytes of PTX type `type`. Narrow
// elements travel in 32-bit registers (ld and st take wider registers than their type).
inline std::string fill_entry_ptx(std::string_view name, std::string_view type, unsigned shift) {
  const std::string n(name), t(type), bytes = std::to_string(1u << shift), s = std::to_string(shift);
  return ".visible .entry " + n + R"PTX((.param .u64 dst, .param .u64 count, .param .u32 mask,
    .param .align 4 .b8 pattern[128], .param .u64 row_pitch, .param .u64 slice_pitch)
{
  .reg .pred %p;
  .reg .b32 %r<10>;
  .reg .b64 %rd<14>;
  ld.param.u64 %rd1, [dst];
  ld.param.u64 %rd2, [count];
  ld.param.u32 %r1, [mask];
  ld.param.u64 %rd11, [row_pitch];
  ld.param.u64 %rd12, [slice_pitch];
  mov.u64 %rd3, pattern;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r8, %ctaid.y;
  cvt.u64.u32 %rd13, %r8;
  mad.lo.u64 %rd1, %rd13, %rd11, %rd1;
  mov.u32 %r9, %ctaid.z;
  cvt.u64.u32 %rd13, %r9;
  mad.lo.u64 %rd1, %rd13, %rd12, %rd1;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd4, %r2, %r3;
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r5, %r3;
LOOP:
  setp.ge.u64 %p, %rd4, %rd2;
  @%p bra DONE;
  cvt.u32.u64 %r6, %rd4;
  and.b32 %r6, %r6, %r1;
  mul.wide.u32 %rd7, %r6, )PTX" + bytes + R"PTX(;
  add.u64 %rd8, %rd3, %rd7;
  ld.param.)PTX" + t + R"PTX( %r7, [%rd8];
  shl.b64 %rd9, %rd4, )PTX" + s + R"PTX(;
  add.u64 %rd10, %rd1, %rd9;
  st.global.)PTX" + t + R"PTX( [%rd10], %r7;
  add.u64 %rd4, %rd4, %rd6;
  bra.uni LOOP;
DONE:
  ret;
}
)PTX";
}

// The fill module: cucl_fill_u32 (32-bit words) and cucl_fill_u8 (bytes).
inline std::string fill_ptx() {
  return ".version 6.0\n.target sm_50\n.address_size 64\n\n" + fill_entry_ptx("cucl_fill_u32", "u32", 2) + "\n" +
         fill_entry_ptx("cucl_fill_u8", "u8", 0);
}

}  // namespace cucl::backend::cuda
