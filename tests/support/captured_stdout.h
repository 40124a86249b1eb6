// Everything written to stdout (file descriptor 1) while an object lives, for checking
// printf output from kernels, which cucl writes to the process's stdout.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cucl_test {

class CapturedStdout {
 public:
  CapturedStdout() {
    std::fflush(stdout);
    char path[] = "/tmp/cucl-stdout-XXXXXX";
    file_ = mkstemp(path);
    unlink(path);
    saved_ = dup(1);
    dup2(file_, 1);
  }
  ~CapturedStdout() {
    restore();
    close(file_);
  }
  CapturedStdout(const CapturedStdout&) = delete;
  CapturedStdout& operator=(const CapturedStdout&) = delete;

  // What was written so far; capturing stops.
  std::string text() {
    restore();
    std::string out;
    lseek(file_, 0, SEEK_SET);
    char buffer[4096];
    for (ssize_t n; (n = read(file_, buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
    return out;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    saved_ = -1;
  }
  int file_ = -1;
  int saved_ = -1;
};

}  // namespace cucl_test
