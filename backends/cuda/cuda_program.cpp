#include "backends/cuda/cuda_program.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "base/debug_log.h"
#include "backends/cuda/kernel_abi.h"
#include "backends/cuda/nvptx_program.h"

namespace cucl::backend::cuda {
namespace {

constexpr size_t kJitLogBytes = 16 * 1024;

// A module of the context, unloaded unless released (loading stops half-way on errors).
class ModuleGuard {
 public:
  ModuleGuard(const CudaDriver& driver, CUmodule module) : driver_(driver), module_(module) {}
  ~ModuleGuard() {
    if (module_) driver_.cuModuleUnload(module_);
  }
  ModuleGuard(const ModuleGuard&) = delete;
  ModuleGuard& operator=(const ModuleGuard&) = delete;
  CUmodule release() { return std::exchange(module_, nullptr); }

 private:
  const CudaDriver& driver_;
  CUmodule module_;
};

// The JIT's log text: `used` bytes of `buffer` where the driver reported them, else up
// to the first NUL; trailing line ends trimmed.
std::string log_text(const std::vector<char>& buffer, void* used) {
  size_t length = reinterpret_cast<uintptr_t>(used);
  if (length == 0 || length > buffer.size()) length = buffer.size();
  std::string text(buffer.data(), strnlen(buffer.data(), length));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// cuModuleLoadDataEx with both JIT logs. Null with the error log in `error` on failure.
CUmodule jit_load(CudaContext& context, const std::string& ptx, std::string& error) {
  const CudaDriver& driver = context.driver();
  std::vector<char> info_log(kJitLogBytes, '\0'), error_log(kJitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
  // Sizes travel in the pointer-sized values; the driver writes back how much it used.
  void* values[] = {info_log.data(), reinterpret_cast<void*>(uintptr_t{kJitLogBytes - 1}), error_log.data(),
                    reinterpret_cast<void*>(uintptr_t{kJitLogBytes - 1}), reinterpret_cast<void*>(uintptr_t{0})};
  CUmodule module = nullptr;
  CUresult result = driver.cuModuleLoadDataEx(&module, ptx.c_str(), sizeof options / sizeof options[0], options, values);
  if (result != CUDA_SUCCESS) {
    std::string log = log_text(error_log, values[3]);
    error = "ptxas/JIT: " + (log.empty() ? driver.describe(result) : log);
    return nullptr;
  }
  if (std::string info = log_text(info_log, values[1]); !info.empty()) debug_log("ptxas/JIT: " + info);
  return module;
}

int function_attribute(const CudaDriver& driver, CUfunction function, CUfunction_attribute attribute) {
  int value = 0;
  check_cuda(driver, driver.cuFuncGetAttribute(&value, attribute, function), "cuFuncGetAttribute");
  return value;
}

// The module's entry `name`; null with the reason in `error` if it has none.
CUfunction entry_function(const CudaDriver& driver, CUmodule module, const std::string& name, std::string& error) {
  CUfunction function = nullptr;
  if (CUresult result = driver.cuModuleGetFunction(&function, module, name.c_str()); result != CUDA_SUCCESS) {
    error = "the PTX has no entry for kernel " + name + ": " + driver.describe(result);
    return nullptr;
  }
  return function;
}

CudaKernelCode::Attributes attributes_of(const CudaDriver& driver, CUfunction function) {
  CudaKernelCode::Attributes attributes;
  attributes.max_threads_per_block = function_attribute(driver, function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  attributes.static_shared_bytes = function_attribute(driver, function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  attributes.local_bytes = function_attribute(driver, function, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  attributes.max_dynamic_shared_bytes =
      function_attribute(driver, function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  return attributes;
}

size_t max_shared_per_block(const CudaContext& context) {
  const CudaDriver& driver = context.driver();
  int value = 0;
  if (driver.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, context.device()) !=
          CUDA_SUCCESS ||
      value <= 0) {
    if (driver.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, context.device()) !=
        CUDA_SUCCESS) {
      value = 48 * 1024;
    }
  }
  return static_cast<size_t>(std::max(value, 0));
}

}  // namespace

CudaKernelCode::CudaKernelCode(CudaContext& context, CUfunction function, CUfunction textured,
                               Attributes attributes, size_t max_shared_per_block, bool uses_printf,
                               std::shared_ptr<const std::vector<PrintfCallSite>> printf_sites,
                               std::shared_ptr<PrintfBuffers> printf_buffers)
    : context_(context),
      function_(function),
      textured_function_(textured),
      attributes_(attributes),
      max_shared_per_block_(max_shared_per_block),
      uses_printf_(uses_printf),
      printf_sites_(std::move(printf_sites)),
      printf_buffers_(std::move(printf_buffers)),
      dynamic_shared_allowed_(static_cast<size_t>(std::max(attributes.max_dynamic_shared_bytes, 0))) {}

size_t CudaKernelCode::preferred_work_group_size() const {
  std::call_once(occupancy_once_, [this] {
    try {
      context_.make_current();  // on the application's thread that enqueues
      preferred_block_size_ = most_resident_block_size();
    } catch (const CudaError&) {
      // No preference: the caller picks sizes from the other limits.
    }
  });
  return preferred_block_size_;
}

size_t CudaKernelCode::most_resident_block_size() const {
  const CudaDriver& driver = context_.driver();
  int min_grid = 0, calculated = 0;
  if (driver.cuOccupancyMaxPotentialBlockSize(&min_grid, &calculated, function_, nullptr, 0, 0) != CUDA_SUCCESS ||
      calculated <= 0) {
    return 0;
  }
  // The calculator's size keeps the most threads resident when blocks are exactly that big,
  // but a NULL local size takes a divisor of the range at most that big, which may keep far
  // fewer (with 80 registers a thread the calculator says 768, and 4096 columns got blocks of
  // 512: one resident per SM). Powers of two divide most ranges: the largest up to 256 that
  // keeps as many resident (256 keeps 768 there; on an H200 a 4096 x 4096 image resample ran
  // at 80 G pixels/s with 256 x 1, 52 with 512 x 1).
  auto resident = [&](int block) {
    int blocks = 0;
    if (driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function_, block, 0) != CUDA_SUCCESS) return 0;
    return blocks * block;
  };
  const int most = resident(calculated);
  for (int block = 256; block >= 32; block /= 2) {
    if (block <= calculated && resident(block) >= most) return static_cast<size_t>(block);
  }
  return static_cast<size_t>(calculated);
}

cl_int CudaKernelCode::allow_dynamic_shared(size_t bytes) const {
  if (bytes <= dynamic_shared_allowed_.load(std::memory_order_acquire)) return CL_SUCCESS;
  const size_t static_bytes = static_cast<size_t>(std::max(attributes_.static_shared_bytes, 0));
  if (bytes > max_shared_per_block_ || static_bytes > max_shared_per_block_ - bytes || bytes > INT_MAX) {
    return CL_OUT_OF_RESOURCES;
  }
  std::lock_guard lock(shared_mutex_);
  if (bytes <= dynamic_shared_allowed_.load(std::memory_order_relaxed)) return CL_SUCCESS;
  for (CUfunction function : {function_, textured_function_}) {
    if (function && context_.driver().cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                          static_cast<int>(bytes)) != CUDA_SUCCESS) {
      return CL_OUT_OF_RESOURCES;
    }
  }
  dynamic_shared_allowed_.store(bytes, std::memory_order_release);
  return CL_SUCCESS;
}

CudaLoadedProgram::~CudaLoadedProgram() {
  kernels_.clear();
  try {
    context_->make_current();
  } catch (const CudaError&) {
    return;  // the context is gone, and its modules with it
  }
  context_->driver().cuModuleUnload(module_);
}

const KernelCode* CudaLoadedProgram::kernel(std::string_view name) const {
  for (const auto& [kernel_name, code] : kernels_) {
    if (kernel_name == name) return code.get();
  }
  return nullptr;
}

std::unique_ptr<LoadedProgram> load_cuda_program(std::shared_ptr<CudaContext> context,
                                                 std::shared_ptr<PrintfBuffers> printf_buffers,
                                                 std::string_view native, std::string_view code_target,
                                                 std::string& error) {
  std::optional<NvptxProgram> decoded = decode_nvptx_program(native, code_target);
  if (!decoded) {
    error = "the code is not CUDA code for " + std::string(code_target) + " or is damaged";
    return nullptr;
  }
  try {
    context->make_current();
    const CudaDriver& driver = context->driver();
    CUmodule module = jit_load(*context, decoded->ptx, error);
    if (!module) return nullptr;
    ModuleGuard guard(driver, module);
    const size_t shared_limit = max_shared_per_block(*context);
    auto printf_sites = std::make_shared<const std::vector<PrintfCallSite>>(std::move(decoded->printf_sites));
    CudaLoadedProgram::Kernels kernels;
    for (const NvptxKernel& kernel : decoded->kernels) {
      CUfunction function = entry_function(driver, module, kernel.name, error);
      if (!function) return nullptr;
      CudaKernelCode::Attributes attributes = attributes_of(driver, function);
      CUfunction textured = nullptr;
      if (kernel.textured_variant) {
        textured = entry_function(driver, module, kernel.name + kTexturedEntrySuffix, error);
        if (!textured) return nullptr;
        // It answers for the kernel's limits, so it must take every block the kernel takes.
        if (attributes_of(driver, textured).max_threads_per_block < attributes.max_threads_per_block) textured = nullptr;
      }
      kernels.emplace_back(kernel.name,
                           std::make_unique<CudaKernelCode>(*context, function, textured, attributes, shared_limit,
                                                            kernel.uses_printf, printf_sites, printf_buffers));
    }
    auto program = std::make_unique<CudaLoadedProgram>(context, module, std::move(kernels));
    guard.release();  // the program unloads it now
    return program;
  } catch (const CudaError& failure) {
    error = failure.what();
    return nullptr;
  }
}

}  // namespace cucl::backend::cuda
