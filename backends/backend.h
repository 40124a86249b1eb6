// The boundary between platform/ and the device implementations. platform/ validates
// every request and orders commands; a backend allocates memory and executes work.
#pragma once

#include <CL/cl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "backends/device_description.h"
#include "backends/image_sampling.h"
#include "backends/kernel_code.h"
#include "backends/operations.h"

namespace cucl::backend {

// One allocation of one device.
class Memory {
 public:
  virtual ~Memory() = default;
  // A host pointer to `offset` that stays valid until unmap, used for clEnqueueMapBuffer.
  // Devices whose memory the host can address return it directly.
  virtual void* map_pointer(size_t offset, size_t size) = 0;
  virtual void unmap_pointer(void* mapped) = 0;
  // Synchronous initial contents (CL_MEM_COPY_HOST_PTR), before any command uses the memory.
  virtual void write_now(size_t offset, const void* src, size_t size) = 0;
  // The address kernels of this device use for byte `offset` (an image descriptor holds it).
  virtual uint64_t kernel_address(size_t offset) const = 0;
};

// A point in one stream's work (Stream::mark): another stream of the same backend (of the
// same device or another GPU) can be made to wait for it on the device.
class StreamPoint {
 public:
  virtual ~StreamPoint() = default;
};

// A command ready to run. The backend calls started() then finished() exactly once each,
// from any thread; after finished() the work item may be gone.
class Work {
 public:
  virtual const Operation& operation() const = 0;
  virtual void started() = 0;
  virtual void finished(cl_int status) = 0;
  // Something the application should hear of beyond the status (a device lost to a
  // faulting kernel): it goes to the context's notify callback. Before finished().
  virtual void report_error(std::string_view /*message*/) {}
  // Something besides a waiting thread waits for this work's end (a command that depends
  // on it, a completion callback): a stream that watches its work lazily should notice the
  // end promptly.
  virtual bool awaited() const { return false; }
  // Whether anything may ever wait for this very work's end (it has an event). Work whose end
  // is only counted with the work around it (a queue's direct commands, which clFinish
  // counts) needs no prompt report of its own: a stream may leave it unreaped for a while.
  virtual bool observable() const { return true; }
  // Whether finishing this work does more than report its end: runs something on the host
  // that the application may see (a mapping given up, bytes copied out, the application's own
  // memory let go). Work that does not may be counted as ended once the device is done with it
  // (Stream::ended_through), before finished() has run.
  virtual bool finishes_on_host() const { return true; }
  // The thread now submitting this work is the application's, inside a blocking call that
  // waits for this work's end as soon as submit() returns: a stream may keep that thread
  // waiting for the work before it rather than hand this work to a thread of its own.
  virtual bool waited_by_submitter() const { return false; }
  // Whether finished() may destroy an object the application made (its last hold goes, and with
  // it the object and its destructor callbacks): such work is finished on a thread of the
  // implementation, not inside an unrelated call of the application's (Stream::reap).
  virtual bool finishing_may_destroy() const { return true; }
  // Points of other streams this work must come after on the device (see
  // Stream::can_follow_on_device); fixed before submit(), valid until finished().
  virtual std::span<const std::shared_ptr<StreamPoint>> device_waits() const { return {}; }
  // Profiling: a stream that times_work() reports when the device ran the work (host clock,
  // nanoseconds as in clGetDeviceAndHostTimer), before finished().
  virtual bool wants_times() const { return false; }
  virtual void timed(uint64_t /*start_ns*/, uint64_t /*end_ns*/) {}

  // A stream's link for work it has seen end and leaves for another thread to finish
  // (backends/cuda/cuda_left_work.h); untouched elsewhere.
  Work* left_next = nullptr;

 protected:
  ~Work() = default;
};

// Executes submitted work. Work submitted to one stream may run concurrently: platform/
// submits only work whose dependencies are complete.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual void submit(Work& work) = 0;
  // True when work submitted after an earlier submit() call has returned runs after that
  // earlier work has ended, as if it had waited for it (a CUDA stream). An in-order queue
  // then hands each command over as soon as the previous one has been submitted, without
  // waiting for it to finish.
  virtual bool runs_in_submission_order() const { return false; }
  // A thread is about to wait for work of this stream (clFinish, clWaitForEvents, a blocking
  // command), until wait_ended(): a stream that watches its work lazily, to stay out of its
  // submitter's way, watches closely meanwhile.
  virtual void wait_began() {}
  virtual void wait_ended() {}
  // One look at the stream's progress by a thread that waits for its work (between
  // wait_began and wait_ended), made again and again while it watches. A stream whose ends a
  // thread of its own reports lets the waiter look for them too: the thread that waits sees
  // an end sooner than a hand-off from another thread brings it. Never blocks.
  virtual void look() {}
  // How long such a thread watches before it sleeps, where the stream knows better than the
  // platform's default (zero): work that still moves many bytes over the bus lasts at least
  // that long, and a waiter that sleeps through its end pays a wake-up on top.
  virtual std::chrono::microseconds watch_time() const { return std::chrono::microseconds(0); }
  // A mark of everything submitted so far, for ended_through (0 where the stream keeps none).
  virtual uint64_t submitted_mark() const { return 0; }
  // Whether all the work submitted up to `mark` has ended on the device, with nothing of it
  // left for the host to do but finished() (every such work !finishes_on_host(), none of it
  // waiting to be enqueued): a waiter that needs no more than that (clFinish, for the commands
  // that it only counts) need not wait for the stream's own thread to report it. Never blocks;
  // false where the stream cannot tell.
  virtual bool ended_through(uint64_t /*mark*/) const { return false; }
  // Called by a submitter after a submit() returned, holding no lock: finishes work that the
  // stream's own thread left to it (work nothing names, seen to end while the submitter was busy).
  virtual void reap() {}
  // Whether work of `operation` submitted here can be ordered after work already submitted
  // to `earlier` by the device itself (through earlier.mark()): then platform/ submits it
  // once that work has been submitted, without waiting for it to end.
  virtual bool can_follow_on_device(const Stream& /*earlier*/, const Operation& /*operation*/) const {
    return false;
  }
  // For `follower`, which can_follow_on_device this stream: the end of the work submitted
  // here so far. True with `point` null when `follower` needs no point (it is this stream,
  // which keeps submission order); false when no point can be made now (the host must wait
  // for the work's end instead).
  virtual bool mark(const Stream& /*follower*/, std::shared_ptr<StreamPoint>& /*point*/) { return false; }
  // Whether it reports the device's start and end of work that wants_times() (Work::timed):
  // then profiled commands of an in-order queue need not wait for each other to get their
  // START stamps right.
  virtual bool times_work() const { return false; }
};

// The largest alignment allocate_shared() honours (a page).
inline constexpr size_t kMaxSharedAlignment = 4096;

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceDescription& description() const = 0;
  // CL_DEVICE_AVAILABLE: false once the device can run no more work (description().available
  // is what it started with).
  virtual bool available() const { return description().available != CL_FALSE; }
  // `host_ptr` is the application's memory for CL_MEM_USE_HOST_PTR, null otherwise.
  // `alloc_host_ptr` (CL_MEM_ALLOC_HOST_PTR): the application will reach the memory from the
  // host (maps), so a device may prepare host memory for that now.
  // Returns null when the device has no room.
  virtual std::unique_ptr<Memory> allocate(size_t size, void* host_ptr, bool alloc_host_ptr) = 0;
  // Shared virtual memory (clSVMAlloc): `size` bytes at an address (kernel_address(0)) that is
  // the same on the host and on this device, aligned to `alignment` (a power of two up to
  // kMaxSharedAlignment). `coarse_grain_alone`: coarse-grain memory of a context whose only
  // device is this one, which the host reaches only while it is mapped (a device may then keep
  // a copy on each side, moved by maps and unmaps: op::SharedMove). Null when there is no
  // room, or on a device without SVM.
  virtual std::unique_ptr<Memory> allocate_shared(size_t /*size*/, size_t /*alignment*/, bool /*coarse_grain_alone*/) {
    return nullptr;
  }
  // Whether this device's shared memory must be the one a context with this device uses:
  // it is valid on the host and on host-addressing devices too, while theirs (plain host
  // memory) is not valid here (CUDA managed memory against the host device's heap).
  virtual bool needs_own_shared_memory() const { return false; }
  virtual std::unique_ptr<Stream> create_stream() = 0;
  // Whether an op::Copy on this device's streams can copy from `source`'s memory straight
  // into this device's (a peer-to-peer copy between GPUs), rather than through host memory.
  virtual bool copies_directly_from(Device& /*source*/) { return false; }
  // The device clock, in nanoseconds, for clGetDeviceAndHostTimer.
  virtual uint64_t device_timer_ns() const = 0;
  // Hardware sampling of `image` (image_sampling.h); null where the device samples it in
  // software only.
  virtual std::unique_ptr<ImageSampling> sample_image(const SampledImage& /*image*/) { return nullptr; }

  // Turns LLVM bitcode made by the front end for description().compiler into device code.
  virtual CodegenResult generate_code(std::string_view bitcode, const CodegenOptions& options) = 0;
  // Loads code made by generate_code (possibly in another process, from a program binary
  // or the cache). Null, with the reason in `error`, when the code is not this device's,
  // is damaged, or cannot be linked.
  virtual std::unique_ptr<LoadedProgram> load_program(std::string_view native, std::string& error) = 0;
};

// Every device of every backend present on this machine, host device first.
std::vector<std::unique_ptr<Device>> discover_devices();

}  // namespace cucl::backend
