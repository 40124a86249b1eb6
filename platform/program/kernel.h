// A cl_kernel: one kernel of a built program, the argument values set so far, and each
// device's code for it.
#pragma once

#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/kernel_code.h"
#include "base/inline_vector.h"
#include "platform/objects/api_ref.h"
#include "platform/memory/memory.h"
#include "platform/program/program.h"

namespace cucl {

struct KernelArgValue {
  bool set = false;
  // By-value arguments (in place up to a double2 or float4), and SVM pointers given to
  // __global or __constant pointer arguments (clSetKernelArgSVMPointer): the pointer itself.
  InlineVector<std::byte, 16> bytes;
  // clSetKernelArgDevicePointerEXT: `bytes` hold a device address, whose buffer a launch makes
  // current (note_device_pointer_accesses).
  bool device_pointer = false;
  // Buffer arguments (null: a NULL buffer). Only the handle: setting an argument does not
  // keep the object alive (the application may release it; the CTS checks that its
  // destructor callback then runs). The launch looks it up again.
  cl_mem memory = nullptr;
  size_t local_size = 0;         // __local arguments

  // A __global or __constant pointer argument given as an address (an SVM or device pointer).
  static KernelArgValue pointer(uint64_t address, bool device_pointer) {
    KernelArgValue value;
    value.set = true;
    value.device_pointer = device_pointer;
    value.bytes.resize(sizeof address);
    std::memcpy(value.bytes.data(), &address, sizeof address);
    return value;
  }
};

class Kernel final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Kernel;
  static constexpr cl_int kInvalidHandle = CL_INVALID_KERNEL;

  // CL_INVALID_KERNEL_NAME when the program's executable has no kernel `name`;
  // CL_INVALID_PROGRAM_EXECUTABLE when no device has an executable.
  Kernel(Ref<Program> program, const std::string& name);
  // clCloneKernel: the same kernel with a copy of `other`'s argument values.
  Kernel(const Kernel& other, std::nullptr_t clone_tag);
  ~Kernel() override;

  Program& program() const { return *program_; }
  Context& context() const { return program_->context(); }
  const compiler::KernelMetadata& metadata() const { return *metadata_; }
  cl_kernel id() { return reinterpret_cast<cl_kernel>(handle()); }

  void set_arg(cl_uint index, size_t size, const void* value) { set_arg_value(index, argument_value(index, size, value)); }
  // Sets a value already checked (argument_value, svm_argument_value) for a valid index.
  void set_arg_value(cl_uint index, KernelArgValue checked) {
    std::lock_guard lock(mutex_);
    args_[index] = std::move(checked);
  }
  // Whether argument `index` (a valid one) is a __global or __constant pointer.
  bool takes_global_pointer(cl_uint index) const {
    using Kind = compiler::KernelArgMetadata::Kind;
    return metadata_->args[index].kind == Kind::GlobalPointer || metadata_->args[index].kind == Kind::ConstantPointer;
  }
  // The value clSetKernelArg(index, size, value) would set, after every check it makes.
  KernelArgValue argument_value(cl_uint index, size_t size, const void* value) const;
  // Calls `read` with the argument values, which stay as they are until it returns (a launch
  // reads them without copying them).
  template <class Read>
  decltype(auto) with_arguments(Read read) const {
    std::lock_guard lock(mutex_);
    return read(args_);
  }

  // CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT: the device addresses the kernel reaches besides its
  // arguments (each replaces the list before).
  // Their own lock: a launch reads them while it holds the arguments' (with_arguments).
  void set_device_pointers(std::vector<uint64_t> pointers) {
    std::lock_guard lock(device_pointers_mutex_);
    device_pointers_ = std::move(pointers);
  }
  std::vector<uint64_t> device_pointers() const {
    std::lock_guard lock(device_pointers_mutex_);
    return device_pointers_;
  }
  // CL_KERNEL_EXEC_INFO_SVM_PTRS: the SVM pointers the kernel reaches besides its arguments
  // (each replaces the list before), whose pages a launch moves as it does its arguments'.
  void set_svm_pointers(std::vector<uint64_t> pointers) {
    std::lock_guard lock(device_pointers_mutex_);
    svm_pointers_ = std::move(pointers);
  }
  std::vector<uint64_t> svm_pointers() const {
    std::lock_guard lock(device_pointers_mutex_);
    return svm_pointers_;
  }

  // The device's code for this kernel; CL_INVALID_PROGRAM_EXECUTABLE where the program
  // was not built for `device`.
  const backend::KernelCode& code(const Device& device) const;
  // Whether the device's build needs uniform work-groups (OpenCL C 1.x or the option).
  bool uniform_work_groups(const Device& device) const;
  bool has_arg_info() const;
  // CL_KERNEL_WORK_GROUP_SIZE on `device`.
  size_t max_work_group_size(const Device& device) const;
  // Bytes of __local memory a launch of `code` needs: kernel-scope variables plus the
  // arguments (those given, or the kernel's own on `device`).
  static uint64_t local_memory_size(const backend::KernelCode& code, const std::vector<KernelArgValue>& args);
  uint64_t local_memory_size(const Device& device) const {
    const backend::KernelCode& device_code = code(device);
    return with_arguments([&](const std::vector<KernelArgValue>& args) { return local_memory_size(device_code, args); });
  }

 protected:
  void on_api_released() override { program_pin_.reset(); }

 private:
  struct DeviceCode {
    const Device* device;
    std::shared_ptr<backend::LoadedProgram> loaded;  // keeps `code` alive
    const backend::KernelCode* code;
    bool uniform_work_groups;
    bool arg_info;
  };

  Ref<Program> program_;
  ApiRef<Program> program_pin_;
  std::shared_ptr<const compiler::ProgramMetadata> program_metadata_;
  const compiler::KernelMetadata* metadata_ = nullptr;
  std::vector<DeviceCode> devices_;
  mutable std::mutex mutex_;
  std::vector<KernelArgValue> args_;
  mutable std::mutex device_pointers_mutex_;  // and svm_pointers_
  std::vector<uint64_t> device_pointers_;
  std::vector<uint64_t> svm_pointers_;
};

}  // namespace cucl
