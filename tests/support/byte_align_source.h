// OpenCL C of portable byte alignment as hashcat's generic code writes it (a choice among
// shifts by 8 * (c & 3)), for the tests of the compiler's fold of such choices
// (backends/codegen/linear_switch_arms.h).
#pragma once

namespace cucl_test {

inline constexpr const char* kAlignBytesSource = R"(
uint align_bytes(uint a, uint b, int c) {
  uint r = 0;
  const int cm = c & 3;
       if (cm == 0) { r = b; }
  else if (cm == 1) { r = (a >> 24) | (b <<  8); }
  else if (cm == 2) { r = (a >> 16) | (b << 16); }
  else if (cm == 3) { r = (a >>  8) | (b << 24); }
  return r;
}
)";

}  // namespace cucl_test
