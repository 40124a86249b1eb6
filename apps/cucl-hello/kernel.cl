/* cucl-hello's kernel. The program builds it twice: from this text (embedded in the program)
 * and from the SPIR-V that clang-15 and llvm-spirv-15 make of it when the program is built.
 * z = a * x + y, four floats per work-item. */
kernel void axpy(float a, global const float4* x, global const float4* y, global float4* z) {
  size_t i = get_global_id(0);
  z[i] = a * x[i] + y[i];
}
