// A cl_program: its input (source, IL or binaries), and per device the state of the last
// build, compile or link: status, options, log, the device-target IR, the device code and
// the kernels' metadata.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/kernel_code.h"
#include "platform/objects/api_ref.h"
#include "platform/compiler/kernel_metadata.h"
#include "platform/compiler/spirv_reader.h"
#include "platform/objects/context.h"
#include "platform/objects/device.h"
#include "platform/objects/object.h"

namespace cucl {

// One device's share of a program.
struct ProgramBuild {
  cl_build_status status = CL_BUILD_NONE;
  std::string options;
  std::string log;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  std::string ir;      // LLVM bitcode for the device's target
  std::string native;  // device code (executables only)
  bool kernel_arg_info = false;
  bool uniform_work_groups = true;  // OpenCL C 1.x, or -cl-uniform-work-group-size
  std::shared_ptr<backend::LoadedProgram> loaded;
  std::shared_ptr<const compiler::ProgramMetadata> metadata;
};

class Program final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::Program;
  static constexpr cl_int kInvalidHandle = CL_INVALID_PROGRAM;

  enum class Origin { Source, IL, Binary, Linked };

  // Source and IL programs: every device of the context. Binary programs: `devices`, with
  // each device's build already filled from its binary.
  Program(Ref<Context> context, Origin origin, std::vector<Device*> devices, std::string source, std::string il);

  Context& context() const { return *context_; }
  Origin origin() const { return origin_; }
  const std::vector<Device*>& devices() const { return devices_; }
  bool has_device(const Device* device) const;
  const std::string& source() const { return source_; }
  const std::string& il() const { return il_; }
  cl_program id() { return reinterpret_cast<cl_program>(handle()); }

  // clSetProgramSpecializationConstant (IL programs): applied at the next build.
  void set_specialization_constant(cl_uint id, size_t size, const void* value);
  compiler::SpecializationConstants specialization_constants() const;

  // Snapshot of a device's build (copy: builds may change under other threads).
  ProgramBuild build_of(const Device& device) const;
  void set_build(const Device& device, ProgramBuild build);

  // Build, compile and link take the program exclusively: CL_INVALID_OPERATION if one
  // is already running or a kernel exists.
  void begin_build();
  void end_build();
  void kernel_created() { kernels_.fetch_add(1, std::memory_order_relaxed); }
  void kernel_released() { kernels_.fetch_sub(1, std::memory_order_relaxed); }

  // The metadata of the first device with an executable; CL_INVALID_PROGRAM_EXECUTABLE
  // when no device has one.
  std::shared_ptr<const compiler::ProgramMetadata> executable_metadata() const;

 protected:
  void on_api_released() override { context_pin_.reset(); }

 private:
  Ref<Context> context_;
  ApiRef<Context> context_pin_;
  Origin origin_;
  std::vector<Device*> devices_;
  std::string source_;
  std::string il_;
  std::map<uint32_t, uint32_t> specialization_sizes_;  // of the IL's constants
  mutable std::mutex mutex_;
  compiler::SpecializationConstants specialization_values_;
  std::vector<ProgramBuild> builds_;  // parallel to devices_
  bool building_ = false;
  std::atomic<int> kernels_{0};
};

// Throws CL_INVALID_PROGRAM for a bad handle.
Ref<Program> lookup_program(cl_program program);

}  // namespace cucl
