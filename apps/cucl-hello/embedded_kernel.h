/* cucl-hello's kernel (kernel.cl), embedded in the program at build time. */
#pragma once

#include <stddef.h>

/* The OpenCL C source of kernel.cl, NUL-terminated. */
extern const char kernel_source_text[];
/* The same kernel as a SPIR-V module, made by clang-15 and llvm-spirv-15. */
extern const unsigned char kernel_spirv[];
extern const size_t kernel_spirv_size;
