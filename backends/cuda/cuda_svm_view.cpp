#include "backends/cuda/cuda_svm_view.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "base/file_descriptor.h"

namespace cucl::backend::cuda {
namespace {

CUmemAllocationProp device_memory_properties(const CudaContext& context) {
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  properties.location.id = context.device();
  return properties;
}

[[noreturn]] void throw_errno(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

// Whether the CPU's page table holds [address, address + size) as one inaccessible anonymous
// mapping: the driver's reservation of the GPU's range, which the host memory may replace.
bool reserved_inaccessible(CUdeviceptr address, size_t size) {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return false;
  bool reserved = false;
  char line[512];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0;
    char permissions[5] = {};
    unsigned long offset = 0;
    if (std::sscanf(line, "%lx-%lx %4s %lx", &start, &end, permissions, &offset) != 4) continue;
    if (start <= address && address + size <= end) {
      reserved = permissions[0] == '-' && permissions[1] == '-' && permissions[2] == '-';
      break;
    }
  }
  std::fclose(maps);
  return reserved;
}

}  // namespace

std::shared_ptr<SvmDualView> SvmDualView::create(std::shared_ptr<CudaContext> context, size_t size,
                                                 size_t alignment) {
  context->make_current();
  const CudaDriver& driver = context->driver();
  CUmemAllocationProp properties = device_memory_properties(*context);
  size_t granularity = 0;
  context->check(driver.cuMemGetAllocationGranularity(&granularity, &properties, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                 "cuMemGetAllocationGranularity");
  if (size < granularity) return nullptr;
  const size_t reserved = (size + granularity - 1) / granularity * granularity;
  std::shared_ptr<SvmDualView> view(new SvmDualView(context, size, reserved));
  context->check(driver.cuMemAddressReserve(&view->address_, reserved, std::max(alignment, granularity), 0, 0),
                 "cuMemAddressReserve");
  const CUresult made = driver.cuMemCreate(&view->device_memory_, reserved, &properties, 0);
  if (made == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
  context->check(made, "cuMemCreate");
  context->check(driver.cuMemMap(view->address_, reserved, 0, view->device_memory_, 0), "cuMemMap");
  view->device_mapped_ = true;
  CUmemAccessDesc access{};
  access.location = properties.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  context->check(driver.cuMemSetAccess(view->address_, reserved, &access, 1), "cuMemSetAccess");
  view->map_host_memory();
  context->svm_views().add(view->address_, size, view);
  return view;
}

void SvmDualView::map_host_memory() {
  FileDescriptor memory(::memfd_create("cucl-svm", MFD_CLOEXEC));
  if (memory.get() < 0) throw_errno("memfd_create");
  if (::ftruncate(memory.get(), static_cast<off_t>(reserved_)) != 0) throw_errno("ftruncate");
  void* at = reinterpret_cast<void*>(address_);
  void* placed = ::mmap(at, reserved_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, memory.get(), 0);
  if (placed == MAP_FAILED && errno == EEXIST) {
    // Only over the driver's own reservation of this range: anything else there is not ours.
    if (!reserved_inaccessible(address_, reserved_)) throw std::system_error(EEXIST, std::generic_category(), "mmap");
    placed = ::mmap(at, reserved_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory.get(), 0);
    replaced_reservation_ = placed == at;
  }
  if (placed == MAP_FAILED) throw_errno("mmap");
  if (placed != at) {  // a kernel before 4.17 takes MAP_FIXED_NOREPLACE as a hint
    ::munmap(placed, reserved_);
    throw std::system_error(EINVAL, std::generic_category(), "mmap");
  }
  host_mapped_ = true;
  void* copy = ::mmap(nullptr, reserved_, PROT_READ | PROT_WRITE, MAP_SHARED, memory.get(), 0);
  if (copy == MAP_FAILED) throw_errno("mmap");
  host_copy_ = static_cast<char*>(copy);
}

std::vector<SvmDualView::Piece> SvmDualView::pieces(size_t offset, size_t bytes) {
  const CudaDriver& driver = context_->driver();
  std::vector<Piece> pieces;
  std::lock_guard lock(registration_mutex_);
  for (size_t at = offset, end = offset + bytes; at < end;) {
    const size_t chunk = at / kHostChunk;
    CUdeviceptr& reached = registered_chunks_[chunk];
    if (!reached) {
      char* start = host_copy_ + chunk * kHostChunk;
      const size_t length = std::min(kHostChunk, reserved_ - chunk * kHostChunk);
      context_->check(driver.cuMemHostRegister(start, length, CU_MEMHOSTREGISTER_DEVICEMAP), "cuMemHostRegister");
      const CUresult result = driver.cuMemHostGetDevicePointer(&reached, start, 0);
      if (result != CUDA_SUCCESS) driver.cuMemHostUnregister(start);
      context_->check(result, "cuMemHostGetDevicePointer");
    }
    const size_t piece = std::min(end, (chunk + 1) * kHostChunk) - at;
    pieces.push_back(Piece{address_ + at, reached + (at - chunk * kHostChunk), piece});
    at += piece;
  }
  return pieces;
}

SvmDualView::~SvmDualView() {
  if (address_) context_->svm_views().remove(address_);
  bool current = true;
  try {
    context_->make_current();
  } catch (const CudaError&) {
    current = false;  // the context is gone, and the device memory with it
  }
  const CudaDriver& driver = context_->driver();
  for (size_t chunk = 0; chunk < registered_chunks_.size() && current; ++chunk) {
    if (registered_chunks_[chunk]) driver.cuMemHostUnregister(host_copy_ + chunk * kHostChunk);
  }
  if (host_copy_) ::munmap(host_copy_, reserved_);
  if (host_mapped_) {
    // The range goes back to what it was before: the driver's reservation, which it releases
    // with cuMemAddressFree, or nothing.
    if (replaced_reservation_) {
      ::mmap(reinterpret_cast<void*>(address_), reserved_, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    } else {
      ::munmap(reinterpret_cast<void*>(address_), reserved_);
    }
  }
  if (!current) return;
  if (device_mapped_) driver.cuMemUnmap(address_, reserved_);
  if (device_memory_) driver.cuMemRelease(device_memory_);
  if (address_) driver.cuMemAddressFree(address_, reserved_);
}

}  // namespace cucl::backend::cuda
