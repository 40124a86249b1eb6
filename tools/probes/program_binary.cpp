// Builds an OpenCL C file for the first GPU device of the first platform whose name contains
// $PLATFORM (any platform without it) and writes the program's binary (NVIDIA's OpenCL: PTX
// text; cucl: its program binary, which holds the PTX). With kernel_trace.so's KTRACE_DUMP
// files it gives two drivers' code for one application's kernel, for ptxas -v and cuobjdump.
// Not part of the build:
//   g++ -O2 -std=c++17 tools/probes/program_binary.cpp -lOpenCL -o program_binary
//   PLATFORM=NVIDIA ./program_binary program0.cl "$(cat program0.opts)" nvidia.ptx
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: program_binary SOURCE.cl OPTIONS OUT\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  cl_platform_id platforms[8];
  cl_uint count = 0;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS) return 1;
  const char* wanted = std::getenv("PLATFORM");
  cl_device_id device = nullptr;
  for (cl_uint i = 0; i < count && i < 8 && !device; ++i) {
    char name[256] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (wanted && !std::strstr(name, wanted)) continue;
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &device, nullptr) != CL_SUCCESS) device = nullptr;
  }
  if (!device) {
    std::fprintf(stderr, "no GPU device\n");
    return 1;
  }
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  const char* text_pointer = source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &text_pointer, nullptr, &status);
  status = clBuildProgram(program, 1, &device, argv[2], nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::vector<char> log(size + 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    std::fprintf(stderr, "build failed (%d):\n%s\n", status, log.data());
    return 1;
  }
  size_t size = 0;
  clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr);
  std::ofstream(argv[3], std::ios::binary).write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(size));
  std::printf("%s: %zu bytes\n", argv[3], size);
  clReleaseProgram(program);
  clReleaseContext(context);
  return 0;
}
