#include "backends/cuda/cuda_launch.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "backends/cuda/cuda_memory.h"
#include "backends/cuda/cuda_program.h"
#include "backends/cuda/kernel_abi.h"
#include "base/align_up.h"

namespace cucl::backend::cuda {
namespace {

// What a kernel parameter pointer points at, besides by-value bytes and the LaunchContext.
union ParameterValue {
  CUdeviceptr address;    // a __global or __constant buffer
  uint32_t local_offset;  // a __local argument
};

// cuLaunchKernel's kernelParams (one pointer per PTX parameter: the arguments, then the
// LaunchContext) and the buffer and __local values they point at. Up to kInlineArguments
// arguments need no heap memory.
class KernelParameters {
 public:
  explicit KernelParameters(size_t arguments) {
    if (arguments > kInlineArguments) {
      heap_pointers_ = std::make_unique<void*[]>(arguments + 1);
      heap_values_ = std::make_unique<ParameterValue[]>(arguments);
      pointers_ = heap_pointers_.get();
      values_ = heap_values_.get();
    }
  }
  KernelParameters(const KernelParameters&) = delete;
  KernelParameters& operator=(const KernelParameters&) = delete;

  void** pointers() { return pointers_; }
  ParameterValue* values() { return values_; }

 private:
  static constexpr size_t kInlineArguments = 32;
  void* inline_pointers_[kInlineArguments + 1];
  ParameterValue inline_values_[kInlineArguments];
  std::unique_ptr<void*[]> heap_pointers_;
  std::unique_ptr<ParameterValue[]> heap_values_;
  void** pointers_ = inline_pointers_;
  ParameterValue* values_ = inline_values_;
};

// Points parameter i at argument i's value and the last one at `launch_context`; returns
// the bytes of dynamic shared memory the __local arguments take, laid out in order.
uint64_t bind_arguments(const op::LaunchKernel& launch, KernelParameters& parameters, LaunchContext& launch_context) {
  void** pointers = parameters.pointers();
  ParameterValue* values = parameters.values();
  uint64_t local_bytes = 0;
  const size_t count = launch.arguments.size();
  for (size_t i = 0; i < count; ++i) {
    const op::KernelArgument& argument = launch.arguments[i];
    switch (argument.kind) {
      case op::KernelArgument::Kind::Bytes:
        // The driver only reads through kernelParams.
        pointers[i] = const_cast<std::byte*>(launch.bytes.data()) + argument.bytes_offset;
        break;
      case op::KernelArgument::Kind::Buffer: {
        const Location& buffer = argument.buffer;
        values[i].address =
            buffer.memory ? static_cast<const CudaMemory*>(buffer.memory)->device_address(buffer.offset) : 0;
        pointers[i] = &values[i].address;
        break;
      }
      case op::KernelArgument::Kind::Local:
        local_bytes = align_up(local_bytes, kLocalArgumentAlignment);
        values[i].local_offset = static_cast<uint32_t>(local_bytes);  // the caller checks the total
        pointers[i] = &values[i].local_offset;
        local_bytes += argument.size;
        break;
    }
  }
  pointers[count] = &launch_context;
  return local_bytes;
}

// The LaunchContext every launch of the range shares (group_offset is set per launch).
// Dimensions past work_dim are one work-item wide, as get_*_size reports them.
LaunchContext whole_range(const NDRange& range) {
  LaunchContext context{};
  for (unsigned d = 0; d < 3; ++d) {
    const bool used = d < range.work_dim;
    const uint64_t local = used ? range.local_size[d] : 1;
    context.global_offset[d] = used ? range.global_offset[d] : 0;
    context.global_size[d] = used ? range.global_size[d] : 1;
    context.enqueued_local_size[d] = local;
    context.num_groups[d] = (context.global_size[d] + local - 1) / local;
  }
  context.work_dim = range.work_dim;
  return context;
}

cl_int launch_status(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS: return CL_SUCCESS;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return CL_OUT_OF_RESOURCES;
    case CUDA_ERROR_INVALID_VALUE: return CL_INVALID_WORK_GROUP_SIZE;  // a block this kernel cannot run
    default: return CL_OUT_OF_RESOURCES;
  }
}

// Hands the launches of one kernel over rectangles of work-groups to `each`.
template <class Each>
class GroupLauncher {
 public:
  // `grid_launch` has the function, shared bytes and parameters; the grid and block are set here.
  GroupLauncher(GridLaunch& grid_launch, LaunchContext& launch_context, Each& each)
      : grid_launch_(grid_launch), launch_context_(launch_context), each_(each) {}

  // The work-groups [base, base + groups) of each dimension, each of `block` work-items.
  // A grid larger than CUDA's limits is split into several launches (never refused), each
  // told its first group through group_offset.
  CUresult launch(const std::array<uint64_t, 3>& block, const std::array<uint64_t, 3>& groups,
                  const std::array<uint64_t, 3>& base) {
    static constexpr std::array<uint64_t, 3> kMaxGrid{0x7fffffffu, 65535u, 65535u};
    for (unsigned d = 0; d < 3; ++d) grid_launch_.block[d] = static_cast<unsigned>(block[d]);
    std::array<uint64_t, 3> start{};
    for (start[2] = 0; start[2] < groups[2]; start[2] += kMaxGrid[2]) {
      for (start[1] = 0; start[1] < groups[1]; start[1] += kMaxGrid[1]) {
        for (start[0] = 0; start[0] < groups[0]; start[0] += kMaxGrid[0]) {
          for (unsigned d = 0; d < 3; ++d) {
            grid_launch_.grid[d] = static_cast<unsigned>(std::min(kMaxGrid[d], groups[d] - start[d]));
            launch_context_.group_offset[d] = base[d] + start[d];
            launch_context_.global_base[d] = launch_context_.global_offset[d] +
                                             launch_context_.group_offset[d] * launch_context_.enqueued_local_size[d];
          }
          // `each` is done with the parameter values when it returns (the driver copies them),
          // so the next launch may change them.
          if (CUresult result = each_(std::as_const(grid_launch_)); result != CUDA_SUCCESS) return result;
        }
      }
    }
    return CUDA_SUCCESS;
  }

 private:
  GridLaunch& grid_launch_;
  LaunchContext& launch_context_;
  Each& each_;
};

// The whole NDRange: per dimension the full work-groups, then (where the global size is not
// a multiple of the local size) one smaller group; up to 2^work_dim rectangles.
template <class Each>
CUresult launch_range(GroupLauncher<Each>& launcher, const LaunchContext& range) {
  std::array<uint64_t, 3> full{}, remainder{};
  for (unsigned d = 0; d < 3; ++d) {
    full[d] = range.global_size[d] / range.enqueued_local_size[d];
    remainder[d] = range.global_size[d] % range.enqueued_local_size[d];
  }
  for (unsigned part = 0; part < 8; ++part) {  // bit d: the remainder groups of dimension d
    std::array<uint64_t, 3> block{}, groups{}, base{};
    bool empty = false;
    for (unsigned d = 0; d < 3; ++d) {
      const bool edge = (part >> d) & 1;
      block[d] = edge ? remainder[d] : range.enqueued_local_size[d];
      groups[d] = edge ? 1 : full[d];
      base[d] = edge ? full[d] : 0;
      empty = empty || block[d] == 0 || groups[d] == 0;
    }
    if (empty) continue;
    if (CUresult result = launcher.launch(block, groups, base); result != CUDA_SUCCESS) return result;
  }
  return CUDA_SUCCESS;
}

// A kernel launch's arguments bound to kernelParams, beside the LaunchContext of its range:
// everything its CUDA launches need but the printf buffer. Lives on the launching thread's
// stack (no heap memory for up to 32 arguments).
class BoundLaunch {
 public:
  explicit BoundLaunch(const op::LaunchKernel& launch)
      : kernel_(static_cast<const CudaKernelCode&>(*launch.kernel)),
        function_(kernel_.function_for(launch.sampled_images_in_hardware)),
        launch_context_(whole_range(launch.range)),
        parameters_(launch.arguments.size()),
        local_bytes_(bind_arguments(launch, parameters_, launch_context_)) {}
  BoundLaunch(const BoundLaunch&) = delete;
  BoundLaunch& operator=(const BoundLaunch&) = delete;

  const CudaKernelCode& kernel() const { return kernel_; }
  LaunchContext& launch_context() { return launch_context_; }

  // CL_SUCCESS, or the status of a kernel that cannot run with these __local arguments.
  cl_int admit() const {
    // platform/ checked the sum of the __local sizes, not the padding between them.
    if (local_bytes_ > kernel_.max_shared_per_block()) return CL_OUT_OF_RESOURCES;
    return kernel_.allow_dynamic_shared(local_bytes_);
  }

  // Hands every CUDA launch of the range to `each`, in order; stops at the first that fails.
  template <class Each>
  CUresult for_each(Each&& each) {
    GridLaunch grid_launch{function_, {}, {}, static_cast<unsigned>(local_bytes_), parameters_.pointers()};
    GroupLauncher<std::remove_reference_t<Each>> launcher(grid_launch, launch_context_, each);
    return launch_range(launcher, launch_context_);
  }

 private:
  const CudaKernelCode& kernel_;
  CUfunction function_;
  LaunchContext launch_context_;
  KernelParameters parameters_;
  uint64_t local_bytes_;
};

// The status of a launch the driver refused, which the context records.
cl_int refused_launch(CudaContext& context, CUresult result) {
  context.note_result(result);
  return launch_status(result);
}

// Runs on a driver thread once the records are copied back: calls no driver function.
void CUDA_CB print_records(void* user_data) {
  auto* slot = static_cast<PrintfBuffers::Slot*>(user_data);
  try {
    char* copy = slot->records_copy();
    // The header as the kernel left it, except the capacity: a kernel that wrote over it
    // must not make the formatter read past the copy.
    const uint64_t capacity = slot->capacity;
    std::memcpy(copy + sizeof(uint64_t), &capacity, sizeof capacity);
    const std::string text = format_printf_buffer(copy, *slot->sites);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  } catch (...) {
    // Nothing can be reported from here; the output is lost.
  }
  slot->owner->release(slot);
}

// A printf slot held by one launch, given back at scope exit unless let go.
class SlotLease {
 public:
  SlotLease(PrintfBuffers& pool, PrintfBuffers::Slot* slot) : pool_(pool), slot_(slot) {}
  ~SlotLease() {
    if (slot_) pool_.release(slot_);
  }
  SlotLease(const SlotLease&) = delete;
  SlotLease& operator=(const SlotLease&) = delete;
  PrintfBuffers::Slot* get() const { return slot_; }
  // Not given back at scope exit: the host function gives it back, or (when work that may
  // still use it could not be waited for) it stays taken until the pool goes.
  void let_go() { slot_ = nullptr; }

 private:
  PrintfBuffers& pool_;
  PrintfBuffers::Slot* slot_;
};

}  // namespace

PrintfBuffers::~PrintfBuffers() {
  try {
    context_->make_current();
  } catch (const CudaError&) {
    return;  // the context is gone, and its memory with it
  }
  for (const auto& slot : slots_) free_memory(*slot);
}

void PrintfBuffers::free_memory(const Slot& slot) {
  if (slot.device) context_->driver().cuMemFree(slot.device);
  if (slot.host) context_->driver().cuMemFreeHost(slot.host);
}

PrintfBuffers::Slot* PrintfBuffers::acquire(size_t capacity) {
  {
    std::lock_guard lock(mutex_);
    auto found = std::find_if(free_.begin(), free_.end(), [&](Slot* slot) { return slot->capacity == capacity; });
    if (found != free_.end()) {
      Slot* slot = *found;
      free_.erase(found);
      return slot;
    }
  }
  const CudaDriver& driver = context_->driver();
  auto slot = std::make_unique<Slot>();
  slot->owner = this;
  slot->capacity = capacity;
  try {
    context_->check(driver.cuMemAlloc(&slot->device, kPrintfHeaderBytes + capacity), "cuMemAlloc (printf buffer)");
    void* host = nullptr;
    context_->check(driver.cuMemHostAlloc(&host, kCopyOffset + kPrintfHeaderBytes + capacity, 0),
                    "cuMemHostAlloc (printf buffer)");
    slot->host = static_cast<char*>(host);
    const uint64_t header[2] = {0, capacity};  // nothing reserved yet; the record area's size
    std::memcpy(slot->header_template(), header, sizeof header);
    std::lock_guard lock(mutex_);
    slots_.push_back(std::move(slot));
    return slots_.back().get();
  } catch (...) {
    if (slot) free_memory(*slot);  // not listed: nobody else frees it
    throw;
  }
}

void PrintfBuffers::release(Slot* slot) {
  std::lock_guard lock(mutex_);
  slot->sites = nullptr;
  free_.push_back(slot);
}

Enqueued enqueue_kernel_launch(CudaContext& context, CUstream stream, const op::LaunchKernel& launch) {
  const CudaDriver& driver = context.driver();
  BoundLaunch bound(launch);
  if (cl_int status = bound.admit(); status != CL_SUCCESS) return {status, Pending::Nothing};
  const CudaKernelCode& kernel = bound.kernel();

  PrintfBuffers& printf_pool = kernel.printf_buffers();
  SlotLease printf_slot(printf_pool, kernel.uses_printf() ? printf_pool.acquire(launch.printf_buffer_size) : nullptr);
  bool enqueued = false;
  // A launch that fails part-way: what is already on the stream must end before the
  // command finishes (its buffers may go then), and before the printf slot is reused.
  auto fail = [&](cl_int status) -> Enqueued {
    if (enqueued && driver.cuStreamSynchronize(stream) != CUDA_SUCCESS) printf_slot.let_go();
    return {status, Pending::Nothing};
  };

  if (PrintfBuffers::Slot* buffer = printf_slot.get()) {
    buffer->sites = &kernel.printf_sites();
    bound.launch_context().printf_buffer = buffer->device;
    if (driver.cuMemcpyHtoDAsync(buffer->device, buffer->header_template(), kPrintfHeaderBytes, stream) !=
        CUDA_SUCCESS) {
      return fail(CL_OUT_OF_RESOURCES);
    }
    enqueued = true;
  }

  const CUresult launched = bound.for_each([&](const GridLaunch& grid) {
    const CUresult result = launch_grid(driver, grid, stream);
    enqueued = enqueued || result == CUDA_SUCCESS;
    return result;
  });
  if (launched != CUDA_SUCCESS) return fail(refused_launch(context, launched));

  if (PrintfBuffers::Slot* buffer = printf_slot.get()) {
    // The whole buffer comes back: how much the kernel used is known only on the device.
    CUresult result = driver.cuMemcpyDtoHAsync(buffer->records_copy(), buffer->device,
                                               kPrintfHeaderBytes + buffer->capacity, stream);
    if (result == CUDA_SUCCESS) result = driver.cuLaunchHostFunc(stream, print_records, buffer);
    if (result != CUDA_SUCCESS) return fail(CL_OUT_OF_RESOURCES);
    printf_slot.let_go();  // print_records gives it back
  }
  return {CL_SUCCESS, Pending::StreamWork};
}

cl_int for_each_kernel_launch(CudaContext& context, const op::LaunchKernel& launch, EachGridLaunch each) {
  BoundLaunch bound(launch);
  if (bound.kernel().uses_printf()) return CL_INVALID_OPERATION;  // its buffer comes with enqueue_kernel_launch only
  if (cl_int status = bound.admit(); status != CL_SUCCESS) return status;
  const CUresult result = bound.for_each(each);
  return result == CUDA_SUCCESS ? CL_SUCCESS : refused_launch(context, result);
}

}  // namespace cucl::backend::cuda
