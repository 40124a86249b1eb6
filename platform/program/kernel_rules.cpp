#include "platform/program/kernel_rules.h"

#include <string>
#include <vector>

#include "base/error.h"

namespace cucl {

Ref<Kernel> create_kernel(Ref<Program> program, const char* name) {
  check(name != nullptr, CL_INVALID_VALUE);
  return make<Kernel>(std::move(program), std::string(name));
}

void create_kernels_in_program(Ref<Program> program, cl_uint num_kernels, cl_kernel* kernels,
                               cl_uint* num_kernels_ret) {
  auto metadata = program->executable_metadata();
  const auto count = static_cast<cl_uint>(metadata->kernels.size());
  check(kernels == nullptr || num_kernels >= count, CL_INVALID_VALUE);
  if (kernels) {
    std::vector<Ref<Kernel>> made;
    for (const auto& kernel : metadata->kernels) made.push_back(make<Kernel>(program, kernel.name));
    for (cl_uint i = 0; i < count; ++i) kernels[i] = publish<cl_kernel>(made[i]);
  }
  if (num_kernels_ret) *num_kernels_ret = count;
}

}  // namespace cucl
