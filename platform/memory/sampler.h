// Sampler objects (clCreateSampler, clCreateSamplerWithProperties). A kernel receives a
// sampler as its CLK_* bits (libclc-builtins/include/cucl_image.h).
#pragma once

#include <cstdint>
#include <vector>

#include "platform/info/info_writer.h"
#include "platform/objects/api_ref.h"
#include "platform/objects/context.h"

namespace cucl {

class Sampler final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Sampler;
  static constexpr cl_int kInvalidHandle = CL_INVALID_SAMPLER;

  Sampler(Ref<Context> context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
          cl_filter_mode filter_mode, std::vector<cl_sampler_properties> properties);

  Context& context() const { return *context_; }
  cl_bool normalized_coords() const { return normalized_coords_; }
  cl_addressing_mode addressing_mode() const { return addressing_mode_; }
  cl_filter_mode filter_mode() const { return filter_mode_; }
  const std::vector<cl_sampler_properties>& properties() const { return properties_; }
  // CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_*, as a sampler initializer says it.
  uint32_t kernel_bits() const;

 private:
  void on_api_released() override { context_pin_.reset(); }

  Ref<Context> context_;
  ApiRef<Context> context_pin_;  // CL_SAMPLER_CONTEXT is a valid handle while this one is
  const cl_bool normalized_coords_;
  const cl_addressing_mode addressing_mode_;
  const cl_filter_mode filter_mode_;
  const std::vector<cl_sampler_properties> properties_;
};

// clCreateSampler: its values (CL_INVALID_VALUE), then a device of the context with images
// (CL_INVALID_OPERATION).
Ref<Sampler> create_sampler(Context& context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                            cl_filter_mode filter_mode);
// clCreateSamplerWithProperties: the core properties, each at most once (CL_INVALID_VALUE;
// the cl_khr_mipmap_image ones are not supported), defaults for the rest.
Ref<Sampler> create_sampler_with_properties(Context& context, const cl_sampler_properties* properties);

void sampler_info(Sampler& sampler, cl_sampler_info param, InfoWriter& out);

}  // namespace cucl
