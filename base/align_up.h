// `value` rounded up to a multiple of `alignment` (not 0; any alignment, not only powers of
// two), in the value's type.
#pragma once

namespace cucl {

template <class T, class Alignment>
constexpr T align_up(T value, Alignment alignment) {
  const T a = static_cast<T>(alignment);
  return (value + a - 1) / a * a;
}

}  // namespace cucl
