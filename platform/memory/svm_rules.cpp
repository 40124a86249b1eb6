#include "platform/memory/svm_rules.h"

#include "base/error.h"

namespace cucl {

void* svm_alloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) noexcept { return nullptr; }

void svm_free(cl_context, void*) noexcept {}

void reject_svm_command(const Queue&) { fail(CL_INVALID_OPERATION); }

void set_kernel_arg_svm_pointer(Kernel&, cl_uint, const void*) { fail(CL_INVALID_OPERATION); }

}  // namespace cucl
