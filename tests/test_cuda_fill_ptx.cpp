// The CUDA device's hand-written fill kernels are valid PTX: ptxas from the CUDA toolkit
// assembles them for the oldest and newest architectures cucl targets. Needs no GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "../backends/cuda/cuda_fill_ptx.h"

namespace {

std::string find_ptxas() {
  for (const char* candidate : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"}) {
    if (access(candidate, X_OK) == 0) return candidate;
  }
  if (const char* cuda = std::getenv("CUDA_PATH")) {
    std::string path = std::string(cuda) + "/bin/ptxas";
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return {};
}

TEST(CudaFillPtx, AssemblesForEveryTargetedArchitecture) {
  std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  char folder[] = "/tmp/cucl-ptx-XXXXXX";
  ASSERT_NE(mkdtemp(folder), nullptr);
  std::string source = std::string(folder) + "/fill.ptx";
  std::ofstream(source) << cucl::backend::cuda::fill_ptx();
  for (const char* arch : {"sm_75", "sm_90"}) {
    std::string command = ptxas + " -arch=" + arch + " " + source + " -o " + folder + "/fill.cubin 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  std::system((std::string("rm -rf ") + folder).c_str());
}

}  // namespace
