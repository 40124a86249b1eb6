// The completion threads of every CUDA device's streams. clFinish need not wait for a stream's
// thread to finish work that has ended on the device (backend::Stream::ended_through), and
// finishing it is what lets go of the memory objects it held: memory the application released
// just after clFinish may still be held for a moment. An allocation the card refuses waits for
// that moment (settle) and tries again, and so does a registration of application memory that
// overlaps one still held (HostRegistry::acquire).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

namespace cucl::backend::cuda {

class FinishingThread {
 public:
  // Waits, for a few milliseconds at most and never for the device, until the work this
  // thread's stream was seen to have ended has been finished. Not on the thread itself.
  virtual void settle() = 0;

 protected:
  ~FinishingThread() = default;
};

class FinishingThreads {
 public:
  void track(std::weak_ptr<FinishingThread> thread);
  // settle() on every thread still there.
  void settle_all();

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<FinishingThread>> threads_;
};

}  // namespace cucl::backend::cuda
