#include "platform/memory/sampler.h"

#include "base/error.h"
#include "libclc-builtins/include/cucl_image.h"

namespace cucl {
namespace {

bool valid_addressing_mode(cl_ulong mode) {
  return mode == CL_ADDRESS_NONE || mode == CL_ADDRESS_CLAMP_TO_EDGE || mode == CL_ADDRESS_CLAMP ||
         mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT;
}

bool valid_filter_mode(cl_ulong mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

bool valid_bool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

void check_images_in(const Context& context) {
  for (const Device* device : context.devices()) {
    if (device->description().image_support) return;
  }
  fail(CL_INVALID_OPERATION);
}

}  // namespace

Sampler::Sampler(Ref<Context> context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                 cl_filter_mode filter_mode, std::vector<cl_sampler_properties> properties)
    : Object(kKind),
      context_(std::move(context)),
      context_pin_(context_),
      normalized_coords_(normalized_coords),
      addressing_mode_(addressing_mode),
      filter_mode_(filter_mode),
      properties_(std::move(properties)) {}

uint32_t Sampler::kernel_bits() const {
  const uint32_t addressing = CUCL_SAMPLER_ADDRESS_BITS(addressing_mode_);
  const uint32_t filter = filter_mode_ == CL_FILTER_LINEAR ? CUCL_SAMPLER_FILTER_LINEAR : CUCL_SAMPLER_FILTER_NEAREST;
  return (normalized_coords_ ? CUCL_SAMPLER_NORMALIZED : 0u) | addressing | filter;
}

Ref<Sampler> create_sampler(Context& context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                            cl_filter_mode filter_mode) {
  check(valid_bool(normalized_coords) && valid_addressing_mode(addressing_mode) && valid_filter_mode(filter_mode),
        CL_INVALID_VALUE);
  check_images_in(context);
  return make<Sampler>(Ref<Context>(&context), normalized_coords, addressing_mode, filter_mode,
                       std::vector<cl_sampler_properties>{});
}

Ref<Sampler> create_sampler_with_properties(Context& context, const cl_sampler_properties* properties) {
  cl_ulong values[3] = {CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};  // the defaults
  bool seen[3] = {false, false, false};
  std::vector<cl_sampler_properties> given;
  for (const cl_sampler_properties* p = properties; p && *p != 0; p += 2) {
    int which = -1;
    switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS: which = 0; break;
      case CL_SAMPLER_ADDRESSING_MODE: which = 1; break;
      case CL_SAMPLER_FILTER_MODE: which = 2; break;
      default: fail(CL_INVALID_VALUE);
    }
    const auto value = static_cast<cl_ulong>(p[1]);
    const bool valid = which == 0 ? valid_bool(value) : which == 1 ? valid_addressing_mode(value)
                                                                   : valid_filter_mode(value);
    check(!seen[which] && valid, CL_INVALID_VALUE);
    seen[which] = true;
    values[which] = value;
    given.insert(given.end(), {p[0], p[1]});
  }
  if (properties) given.push_back(0);
  check_images_in(context);
  return make<Sampler>(Ref<Context>(&context), static_cast<cl_bool>(values[0]),
                       static_cast<cl_addressing_mode>(values[1]), static_cast<cl_filter_mode>(values[2]),
                       std::move(given));
}

void sampler_info(Sampler& sampler, cl_sampler_info param, InfoWriter& out) {
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return out.scalar(sampler.api_ref_count());
    case CL_SAMPLER_CONTEXT: return out.scalar(sampler.context().id());
    case CL_SAMPLER_NORMALIZED_COORDS: return out.scalar(sampler.normalized_coords());
    case CL_SAMPLER_ADDRESSING_MODE: return out.scalar(sampler.addressing_mode());
    case CL_SAMPLER_FILTER_MODE: return out.scalar(sampler.filter_mode());
    case CL_SAMPLER_PROPERTIES: return out.array(sampler.properties());
    default: fail(CL_INVALID_VALUE);
  }
}

}  // namespace cucl
