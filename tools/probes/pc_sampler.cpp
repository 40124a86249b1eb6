// A sampling profiler for machines without perf (the GPU machine runs under gVisor): preloaded
// into a program, it takes the interrupted instruction's address every PC_SAMPLE_US of CPU time
// (SIGPROF, the whole process's CPU time; each sample names its thread) and, at exit, writes
// "tid address" lines to $PC_SAMPLE.<pid> and the process's mappings to $PC_SAMPLE.<pid>.maps.
// tools/probes/pc_report.py turns them into the functions each thread spent its time in.
// Not part of the build:
//   g++ -O2 -shared -fPIC tools/probes/pc_sampler.cpp -o pc_sampler.so
//   PC_SAMPLE=/tmp/s.txt LD_PRELOAD=$PWD/pc_sampler.so ./enqueue_cost 2000 launch 200
//   python3 tools/probes/pc_report.py /tmp/s.txt.<pid>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Sample {
  uint32_t tid;
  uint64_t address;
};

constexpr size_t kCapacity = 1 << 22;
Sample* samples = nullptr;
std::atomic<size_t> taken{0};

void on_tick(int, siginfo_t*, void* context) {
  const size_t index = taken.fetch_add(1, std::memory_order_relaxed);
  if (index >= kCapacity) return;
  const auto* user = static_cast<const ucontext_t*>(context);
  samples[index] = {static_cast<uint32_t>(syscall(SYS_gettid)),
                    static_cast<uint64_t>(user->uc_mcontext.gregs[REG_RIP])};
}

__attribute__((constructor)) void start_sampling() {
  if (!std::getenv("PC_SAMPLE")) return;
  samples = static_cast<Sample*>(std::calloc(kCapacity, sizeof(Sample)));
  if (!samples) return;
  struct sigaction action {};
  action.sa_sigaction = on_tick;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, nullptr);
  const char* every = std::getenv("PC_SAMPLE_US");
  const long us = every ? std::atol(every) : 100;
  itimerval timer{};
  timer.it_interval.tv_usec = us;
  timer.it_value.tv_usec = us;
  setitimer(ITIMER_PROF, &timer, nullptr);
}

__attribute__((destructor)) void write_samples() {
  const char* path = std::getenv("PC_SAMPLE");
  if (!path || !samples) return;
  itimerval off{}, was{};
  setitimer(ITIMER_PROF, &off, &was);
  if (std::getenv("PC_SAMPLE_DEBUG")) std::fprintf(stderr, "pc_sampler: %zu samples, timer %ld us\n", taken.load(), was.it_interval.tv_usec);
  // Programs the sampled one starts inherit the preload: each process writes its own file.
  const std::string own = std::string(path) + "." + std::to_string(getpid());
  if (FILE* out = std::fopen(own.c_str(), "w")) {
    const size_t count = std::min(taken.load(), kCapacity);
    std::fprintf(out, "pid %d\n", static_cast<int>(getpid()));
    for (size_t i = 0; i < count; ++i) {
      std::fprintf(out, "%u %llx\n", samples[i].tid, static_cast<unsigned long long>(samples[i].address));
    }
    std::fclose(out);
  }
  const std::string maps = own + ".maps";
  if (FILE* in = std::fopen("/proc/self/maps", "r")) {
    if (FILE* out = std::fopen(maps.c_str(), "w")) {
      char line[4096];
      while (std::fgets(line, sizeof line, in)) std::fputs(line, out);
      std::fclose(out);
    }
    std::fclose(in);
  }
}

}  // namespace
