#include "platform/program/program.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"
#include "platform/objects/lookup.h"

namespace cucl {

Program::Program(Ref<Context> context, Origin origin, std::vector<Device*> devices, std::string source,
                 std::string il)
    : Object(ObjectKind::Program),
      context_(context),
      context_pin_(context),
      origin_(origin),
      devices_(std::move(devices)),
      source_(std::move(source)),
      il_(std::move(il)),
      builds_(devices_.size()) {
  if (origin_ == Origin::IL) specialization_sizes_ = compiler::specialization_constant_sizes(il_);
}

void Program::set_specialization_constant(cl_uint id, size_t size, const void* value) {
  check(origin_ == Origin::IL, CL_INVALID_PROGRAM);
  auto found = specialization_sizes_.find(id);
  check(found != specialization_sizes_.end(), CL_INVALID_SPEC_ID);
  check(value != nullptr && size == found->second, CL_INVALID_VALUE);
  uint64_t bits = 0;
  std::memcpy(&bits, value, std::min(size, sizeof bits));
  std::lock_guard lock(mutex_);
  specialization_values_[id] = bits;
}

compiler::SpecializationConstants Program::specialization_constants() const {
  std::lock_guard lock(mutex_);
  return specialization_values_;
}

bool Program::has_device(const Device* device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

namespace {
size_t index_of(const std::vector<Device*>& devices, const Device& device) {
  auto found = std::find(devices.begin(), devices.end(), &device);
  check(found != devices.end(), CL_INVALID_DEVICE);
  return static_cast<size_t>(found - devices.begin());
}
}  // namespace

ProgramBuild Program::build_of(const Device& device) const {
  const size_t index = index_of(devices_, device);
  std::lock_guard lock(mutex_);
  return builds_[index];
}

void Program::set_build(const Device& device, ProgramBuild build) {
  const size_t index = index_of(devices_, device);
  std::lock_guard lock(mutex_);
  builds_[index] = std::move(build);
}

void Program::begin_build() {
  std::lock_guard lock(mutex_);
  check(!building_ && kernels_.load(std::memory_order_relaxed) == 0, CL_INVALID_OPERATION);
  building_ = true;
}

void Program::end_build() {
  std::lock_guard lock(mutex_);
  building_ = false;
}

std::shared_ptr<const compiler::ProgramMetadata> Program::executable_metadata() const {
  std::lock_guard lock(mutex_);
  for (const ProgramBuild& build : builds_) {
    if (build.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && build.metadata) return build.metadata;
  }
  fail(CL_INVALID_PROGRAM_EXECUTABLE);
}

Ref<Program> lookup_program(cl_program program) { return lookup<Program>(program); }

}  // namespace cucl
