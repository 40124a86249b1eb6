// cl_khr_extended_bit_ops (bitfield_insert, bitfield_extract_signed/_unsigned, bit_reverse)
// on every integer type, scalar and vector, for every valid offset and count, exactly
// against a host reference.
#include <random>

#include "support/builtin_reference.h"

using namespace cucl_test;
using namespace cucl_test::builtin;

namespace {

template <class T>
using U = std::make_unsigned_t<T>;
template <class T>
using S = std::make_signed_t<T>;

// The (offset, count) pair of element i: every pair with offset + count <= bits, in turn.
std::pair<unsigned, unsigned> field_of(size_t i, int bits) {
  unsigned offset = static_cast<unsigned>((i / 3) % (bits + 1));
  unsigned count = static_cast<unsigned>((i / 3 / (bits + 1)) % (bits + 1));
  if (offset + count > static_cast<unsigned>(bits)) count = bits - offset;
  return {offset, count};
}

template <class T>
uint64_t field_mask(unsigned offset, unsigned count) {
  const uint64_t low = count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
  return offset >= 64 ? 0 : (low << offset) & (sizeof(T) == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * sizeof(T))) - 1);
}

template <class T>
T insert_reference(T base, T insert, unsigned offset, unsigned count) {
  const uint64_t mask = count == 0 ? 0 : field_mask<T>(offset, count);
  const uint64_t shifted = offset >= 64 ? 0 : uint64_t(U<T>(insert)) << offset;
  return T(U<T>((uint64_t(U<T>(base)) & ~mask) | (shifted & mask)));
}

template <class T>
U<T> extract_unsigned_reference(T base, unsigned offset, unsigned count) {
  if (count == 0) return 0;
  return U<T>((uint64_t(U<T>(base)) & field_mask<T>(offset, count)) >> offset);
}

template <class T>
S<T> extract_signed_reference(T base, unsigned offset, unsigned count) {
  if (count == 0) return 0;
  const uint64_t field = extract_unsigned_reference(base, offset, count);
  const bool negative = (field >> (count - 1)) & 1;
  const uint64_t extended = negative && count < 64 ? field | (~uint64_t(0) << count) : field;
  return S<T>(U<T>(extended));
}

template <class T>
T reverse_reference(T x) {
  const int bits = 8 * sizeof(T);
  U<T> r = 0;
  for (int b = 0; b < bits; ++b) {
    if ((U<T>(x) >> b) & 1) r = U<T>(r | (U<T>(1) << (bits - 1 - b)));
  }
  return T(r);
}

template <class T>
void check_type(const Env& env) {
  const int bits = 8 * sizeof(T);
  const std::string t = cl_name<T>(), s = cl_name<S<T>>(), u = cl_name<U<T>>();
  const std::vector<int> widths = {1, 2, 3, 4, 8, 16};
  // Three elements per pair (of (bits + 1)^2), a multiple of every width.
  const size_t count = 3 * (bits + 1) * (bits + 1) * 16;
  std::string source;
  for (int w : widths) {
    const std::string ws = w == 1 ? "" : std::to_string(w);
    auto load = [&](const char* p) { return w == 1 ? std::string(p) + "[i]" : "vload" + ws + "(i, " + p + ")"; };
    auto store = [&](const std::string& value, const std::string& to) {
      return w == 1 ? "  " + to + "[i] = " + value + ";\n" : "  vstore" + ws + "(" + value + ", i, " + to + ");\n";
    };
    // Each vector's offset and count are those of its first element.
    source += "kernel void w" + std::to_string(w) + "(global const " + t + "* a, global const " + t +
              "* b, global const uint* offsets, global const uint* counts, global " + t + "* inserted, global " + s +
              "* signed_field, global " + u + "* unsigned_field, global " + t + "* reversed) {\n" +
              "  size_t i = get_global_id(0);\n  uint offset = offsets[i * " + std::to_string(w) +
              "], count = counts[i * " + std::to_string(w) + "];\n" +
              store("bitfield_insert(" + load("a") + ", " + load("b") + ", offset, count)", "inserted") +
              store("bitfield_extract_signed(" + load("a") + ", offset, count)", "signed_field") +
              store("bitfield_extract_unsigned(" + load("a") + ", offset, count)", "unsigned_field") +
              store("bit_reverse(" + load("a") + ")", "reversed") + "}\n";
  }
  BuiltProgram program(env, source);
  ASSERT_TRUE(program);
  std::mt19937_64 rng(bits);
  std::vector<T> a(count), b(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = static_cast<T>(rng());
    b[i] = static_cast<T>(rng());
  }
  for (int w : widths) {
    std::vector<cl_uint> offsets(count), counts(count);
    for (size_t i = 0; i < count; ++i) {
      auto [offset, field] = field_of(i / w * w, bits);
      offsets[i] = offset;
      counts[i] = field;
    }
    Launch launch(env, program.kernel("w" + std::to_string(w)));
    launch.in(a).in(b).in(offsets).in(counts).template out<T>(count).template out<S<T>>(count).template out<U<T>>(count).template out<T>(
        count);
    launch.run(count / w);
    auto inserted = launch.template result<T>(4);
    auto signed_field = launch.template result<S<T>>(5);
    auto unsigned_field = launch.template result<U<T>>(6);
    auto reversed = launch.template result<T>(7);
    int failures = 0;
    for (size_t i = 0; i < count && failures < 5; ++i) {
      const unsigned offset = offsets[i], field = counts[i];
      const std::string what = t + (w > 1 ? std::to_string(w) : "") + " a=" + hex(a[i]) + " b=" + hex(b[i]) +
                               " offset=" + std::to_string(offset) + " count=" + std::to_string(field);
      if (inserted[i] != insert_reference(a[i], b[i], offset, field) && ++failures)
        ADD_FAILURE() << "bitfield_insert(" << what << "): got " << hex(inserted[i]);
      if (signed_field[i] != extract_signed_reference(a[i], offset, field) && ++failures)
        ADD_FAILURE() << "bitfield_extract_signed(" << what << "): got " << hex(signed_field[i]);
      if (unsigned_field[i] != extract_unsigned_reference(a[i], offset, field) && ++failures)
        ADD_FAILURE() << "bitfield_extract_unsigned(" << what << "): got " << hex(unsigned_field[i]);
      if (reversed[i] != reverse_reference(a[i]) && ++failures)
        ADD_FAILURE() << "bit_reverse(" << what << "): got " << hex(reversed[i]);
    }
  }
}

class ExtendedBitOps : public DeviceTest {};

TEST_P(ExtendedBitOps, TheDeviceListsTheExtensionAndTheMacroIsDefined) {
  EXPECT_NE(device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_extended_bit_ops"), std::string::npos);
  BuiltProgram program(env, R"(
    #ifndef cl_khr_extended_bit_ops
    #error cl_khr_extended_bit_ops is not defined
    #endif
    kernel void k(global uint* r) { r[0] = bit_reverse(1u); })");
  ASSERT_TRUE(program);
  Launch launch(env, program.kernel("k"));
  launch.out<cl_uint>(1);
  launch.run(1);
  EXPECT_EQ(launch.result<cl_uint>(0)[0], 0x80000000u);
}

TEST_P(ExtendedBitOps, Char) { check_type<int8_t>(env); }
TEST_P(ExtendedBitOps, Uchar) { check_type<uint8_t>(env); }
TEST_P(ExtendedBitOps, Short) { check_type<int16_t>(env); }
TEST_P(ExtendedBitOps, Ushort) { check_type<uint16_t>(env); }
TEST_P(ExtendedBitOps, Int) { check_type<int32_t>(env); }
TEST_P(ExtendedBitOps, Uint) { check_type<uint32_t>(env); }
TEST_P(ExtendedBitOps, Long) { check_type<int64_t>(env); }
TEST_P(ExtendedBitOps, Ulong) { check_type<uint64_t>(env); }

}  // namespace

INSTANTIATE_TEST_SUITE_P(EveryDevice, ExtendedBitOps, ::testing::ValuesIn(all_devices()), device_name);
