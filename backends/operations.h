// The device work a command carries, in terms a backend executes. Platform validation has
// already happened: every offset and size here is in bounds.
#pragma once

#include <CL/cl.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

#include "backends/kernel_code.h"
#include "base/inline_vector.h"

namespace cucl::backend {

class Memory;
class ImageSampling;

// One end of a transfer: device memory at an offset, or a plain host pointer.
struct Location {
  Memory* memory = nullptr;  // null: `host` is an application pointer
  void* host = nullptr;
  size_t offset = 0;
};

namespace op {

struct Copy {  // read, write and copy of buffers
  Location src, dst;
  size_t size;
};

// Whether a box of `region` (bytes, rows, slices) laid out with these pitches is one unbroken
// run of bytes: its rows follow each other (or there is one), and so do its slices.
inline bool box_is_unbroken(const std::array<size_t, 3>& region, size_t row_pitch, size_t slice_pitch) {
  const bool rows = region[1] == 1 || row_pitch == region[0];
  const bool slices = region[2] == 1 || slice_pitch == region[0] * region[1];
  return rows && slices;
}

struct CopyRect {  // the *Rect variants; origins are already folded into the offsets
  Location src, dst;
  std::array<size_t, 3> region;  // bytes, rows, slices
  size_t src_row_pitch, src_slice_pitch;
  size_t dst_row_pitch, dst_slice_pitch;
};

struct Fill {
  Location dst;
  size_t size;
  std::array<uint8_t, 128> pattern;
  size_t pattern_size;
};

// clEnqueueFillImage: every row of a rectangle filled with one pixel, repeated.
struct FillRect {
  Location dst;                  // the first byte of the first row
  std::array<size_t, 3> region;  // bytes, rows, slices
  size_t row_pitch, slice_pitch;
  std::array<uint8_t, 16> pattern;
  size_t pattern_size;  // a power of two, 1 to 16, dividing region[0]
};

// Map makes `size` bytes at `src` visible at `mapped` (a pointer the backend handed out
// when the command was enqueued); unmap makes writes through `mapped` visible again.
struct Map {
  Location src;
  void* mapped;
  size_t size;
  bool needs_read;  // false for CL_MAP_WRITE_INVALIDATE_REGION
};

struct Unmap {
  Location dst;
  void* mapped;
  size_t size;
  bool needs_write;  // false for read-only maps
};

// Bytes of shared virtual memory (Device::allocate_shared) whose pages a migration moves.
struct SharedRange {
  Location where;  // memory null: host memory the device does not manage (nothing to move)
  size_t size;
  bool host_wrote = true;  // SVM unmap: whether the map let the host write
};

// Why shared memory moves. Memory that both sides reach (managed memory) moves only for speed,
// whatever the reason; memory with a copy on each side (a GPU's dual view of coarse-grain
// SVM) moves only for a map, and back at its unmap.
enum class SharedMove : uint8_t { Hint, ForHostAccess, AfterHostAccess };

struct Migrate {  // make the listed memories current on this device
  std::vector<Memory*> memories;
  bool content_undefined;
  // clEnqueueSVMMigrateMem, SVM map and unmap: ranges of shared memory to move towards this
  // device, or towards the host.
  std::vector<SharedRange> shared = {};
  bool to_host = false;
  SharedMove why = SharedMove::Hint;
};

struct Nothing {};  // markers, barriers, wait-for-events

struct HostFunction {  // work that runs on a host thread (native kernels, host fallbacks)
  std::function<void()> run;
};

// One kernel argument as the device sees it at launch.
struct KernelArgument {
  enum class Kind : uint8_t { Bytes, Buffer, Local };
  Kind kind = Kind::Bytes;
  uint32_t bytes_offset = 0;  // Bytes: where the value starts in LaunchKernel::bytes
  uint32_t size = 0;          // Bytes: the value's size; Local: the __local allocation's size
  Location buffer{};          // Buffer: the memory (null memory and host: a NULL pointer)
};

struct LaunchKernel {
  LaunchKernel() = default;
  // Not an aggregate: GCC 12 zeroes all of an aggregate with members that have destructors
  // (the in-place arguments too) when one is made from a list that leaves members out.
  explicit LaunchKernel(const KernelCode* code) : kernel(code) {}

  const KernelCode* kernel;
  NDRange range;
  // In place for most kernels (base/inline_vector.h).
  InlineVector<KernelArgument, 8> arguments;
  InlineVector<std::byte, 64> bytes;  // the by-value arguments, each aligned for its type
  size_t printf_buffer_size = 0;  // CL_DEVICE_PRINTF_BUFFER_SIZE
  // Every read-only image argument of a type textures serve (sampled_through_textures) has a
  // texture for each sampler state on this device (ImageSampling::serves_every_state): the
  // launch may take the kernel's textured code.
  bool sampled_images_in_hardware = false;
  // The samplings of read-only image arguments whose textures read a copy of the pixels
  // (ImageSampling::reads_a_copy): the launch brings each copy up to date first. They live as
  // long as the images, which the command keeps.
  InlineVector<ImageSampling*, 2> sampled_copies;
  // The pixels of the image arguments the kernel may write (write-only and read-write), which
  // a copy of them no longer matches afterwards.
  InlineVector<Location, 2> written_images;
  // Shared memory the kernel's arguments point into whose pages are likely elsewhere (another
  // device's kernel or the host used them last): moved to this device first, where moving
  // them is cheaper than the kernel's faults. Only a matter of speed.
  std::vector<SharedRange> prefetch;
};

struct RecordedOperations;

// A command buffer's recorded operations, run in order as one piece of work (each may rely on
// everything before it having finished). Shared, and constant once recorded, so that any
// number of replays can be in flight at once.
struct CommandList {
  std::shared_ptr<const RecordedOperations> recorded;
};

}  // namespace op

using Operation = std::variant<op::Nothing, op::Copy, op::CopyRect, op::Fill, op::FillRect, op::Map, op::Unmap,
                               op::Migrate, op::HostFunction, op::LaunchKernel, op::CommandList>;

namespace op {
// What backends keep across the replays of one command buffer (the CUDA backend: a graph per
// context), shared by every version of its list: an update makes a new version, and a
// backend brings what it keeps up to date when it meets a version it has not seen.
class ReplayState {
 public:
  virtual ~ReplayState() = default;
};
struct ReplayStates {
  std::mutex mutex;
  std::vector<std::pair<const void*, std::shared_ptr<ReplayState>>> by_owner;  // owner: a backend context
  std::atomic<uint64_t> last_version{0};

  // The state `owner` keeps, made by `make` the first time.
  template <class State, class Make>
  std::shared_ptr<State> get(const void* owner, Make make) {
    std::lock_guard lock(mutex);
    for (auto& [key, state] : by_owner) {
      if (key == owner) return std::static_pointer_cast<State>(state);
    }
    std::shared_ptr<State> made = make();
    by_owner.emplace_back(owner, made);
    return made;
  }
};

struct RecordedOperations {
  std::vector<Operation> operations;  // copies, fills, kernels and nothings: no host work, maps or lists
  std::shared_ptr<ReplayStates> replay_states = std::make_shared<ReplayStates>();
  uint64_t version = 0;  // a copy for an update takes replay_states->last_version + 1
  // Per operation, the version whose update last replaced it (0: as recorded). Each version
  // is made from the one before, so operation i differs between versions a < b exactly when
  // version b's replaced_in[i] > a.
  std::vector<uint64_t> replaced_in;
};
}  // namespace op

}  // namespace cucl::backend
