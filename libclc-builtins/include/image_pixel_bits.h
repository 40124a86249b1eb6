// Loads and stores of one pixel's bytes, exactly pixel_size of them (1, 2, 3, 4, 6, 8, 12 or
// 16), as a uint4 holding them in little-endian order: byte b of the pixel is byte b % 4 of
// lane b / 4. A pixel of another size reads as 0 and is not written.
//
// x86 loads and stores at any address, so on the host a pixel may lie anywhere. PTX needs
// natural alignment: on nvptx64 a pixel's address must be a multiple of the largest power of
// two dividing its size (at most 16), which holds when the image data starts at a multiple of
// 16 bytes and the pitches are multiples of the pixel size.
#pragma once

#ifdef __NVPTX__
#define PIXEL_ALIGN(n) n
#else
#define PIXEL_ALIGN(n) 1
#endif
typedef ushort __attribute__((aligned(PIXEL_ALIGN(2)))) pixel_ushort;
typedef uint __attribute__((aligned(PIXEL_ALIGN(4)))) pixel_uint;
typedef uint2 __attribute__((aligned(PIXEL_ALIGN(8)))) pixel_uint2;
typedef uint4 __attribute__((aligned(PIXEL_ALIGN(16)))) pixel_uint4;
#undef PIXEL_ALIGN

// Three-component vectors are loaded and stored as four components by clang, so the 3-, 6- and
// 12-byte pixels go component by component.
static inline uint4 load_pixel_bits(const __global uchar* p, int pixel_size) {
  const __global pixel_ushort* s = (const __global pixel_ushort*)p;
  const __global pixel_uint* w = (const __global pixel_uint*)p;
  switch (pixel_size) {
    case 1: return (uint4)(p[0], 0, 0, 0);
    case 2: return (uint4)(s[0], 0, 0, 0);
    case 3: return (uint4)(p[0] | (uint)p[1] << 8 | (uint)p[2] << 16, 0, 0, 0);
    case 4: return (uint4)(w[0], 0, 0, 0);
    case 6: return (uint4)(s[0] | (uint)s[1] << 16, s[2], 0, 0);
    case 8: return (uint4)(*(const __global pixel_uint2*)p, 0, 0);
    case 12: return (uint4)(w[0], w[1], w[2], 0);
    case 16: return *(const __global pixel_uint4*)p;
    default: return (uint4)0;
  }
}

static inline void store_pixel_bits(__global uchar* p, int pixel_size, uint4 bits) {
  __global pixel_ushort* s = (__global pixel_ushort*)p;
  __global pixel_uint* w = (__global pixel_uint*)p;
  switch (pixel_size) {
    case 1: p[0] = (uchar)bits.x; break;
    case 2: s[0] = (ushort)bits.x; break;
    case 3: p[0] = (uchar)bits.x; p[1] = (uchar)(bits.x >> 8); p[2] = (uchar)(bits.x >> 16); break;
    case 4: w[0] = bits.x; break;
    case 6: s[0] = (ushort)bits.x; s[1] = (ushort)(bits.x >> 16); s[2] = (ushort)bits.y; break;
    case 8: *(__global pixel_uint2*)p = bits.xy; break;
    case 12: w[0] = bits.x; w[1] = bits.y; w[2] = bits.z; break;
    case 16: *(__global pixel_uint4*)p = bits; break;
    default: break;
  }
}
