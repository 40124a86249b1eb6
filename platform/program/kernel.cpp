#include "platform/program/kernel.h"

#include <cstring>

#include "base/error.h"
#include "platform/memory/image.h"
#include "platform/memory/sampler.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

// The memory object type an image argument's type (kernel_arg_type) takes.
cl_mem_object_type image_type_of(const std::string& type_name) {
  if (type_name == "image1d_t") return CL_MEM_OBJECT_IMAGE1D;
  if (type_name == "image1d_buffer_t") return CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (type_name == "image1d_array_t") return CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (type_name == "image2d_t") return CL_MEM_OBJECT_IMAGE2D;
  if (type_name == "image2d_array_t") return CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (type_name == "image3d_t") return CL_MEM_OBJECT_IMAGE3D;
  return 0;  // depth and multi-sample images: no image has these types
}

}  // namespace

Kernel::Kernel(Ref<Program> program, const std::string& name)
    : Object(ObjectKind::Kernel), program_(program), program_pin_(program),
      program_metadata_(program->executable_metadata()) {
  for (const compiler::KernelMetadata& kernel : program_metadata_->kernels) {
    if (kernel.name == name) metadata_ = &kernel;
  }
  check(metadata_ != nullptr, CL_INVALID_KERNEL_NAME);
  for (Device* device : program->devices()) {
    ProgramBuild build = program->build_of(*device);
    if (build.binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE || !build.loaded) continue;
    const backend::KernelCode* code = build.loaded->kernel(name);
    check(code != nullptr, CL_INVALID_KERNEL_DEFINITION);
    devices_.push_back({device, build.loaded, code, build.uniform_work_groups, build.kernel_arg_info});
  }
  args_.resize(metadata_->args.size());
  program_->kernel_created();
}

Kernel::Kernel(const Kernel& other, std::nullptr_t)
    : Object(ObjectKind::Kernel), program_(other.program_), program_pin_(other.program_),
      program_metadata_(other.program_metadata_), metadata_(other.metadata_), devices_(other.devices_),
      args_(other.with_arguments([](const std::vector<KernelArgValue>& args) { return args; })),
      device_pointers_(other.device_pointers()),
      svm_pointers_(other.svm_pointers()) {
  program_->kernel_created();
}

Kernel::~Kernel() { program_->kernel_released(); }

KernelArgValue Kernel::argument_value(cl_uint index, size_t size, const void* value) const {
  check(index < metadata_->args.size(), CL_INVALID_ARG_INDEX);
  const compiler::KernelArgMetadata& arg = metadata_->args[index];
  using Kind = compiler::KernelArgMetadata::Kind;
  KernelArgValue result;
  result.set = true;
  switch (arg.kind) {
    case Kind::LocalPointer:
      // A size of zero is allowed since OpenCL 3.1 (the platform's version).
      check(value == nullptr, CL_INVALID_ARG_VALUE);
      result.local_size = size;
      break;
    case Kind::GlobalPointer:
    case Kind::ConstantPointer: {
      check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
      cl_mem memory = nullptr;
      if (value) std::memcpy(&memory, value, sizeof memory);
      if (memory) {
        Ref<MemObject> object = lookup<MemObject>(memory);
        check(&object->context() == &context(), CL_INVALID_CONTEXT);
        check(object->type() == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT);
        result.memory = memory;
      }
      break;
    }
    case Kind::Value:
      check(value != nullptr, CL_INVALID_ARG_VALUE);
      check(size == arg.size, CL_INVALID_ARG_SIZE);
      result.bytes.resize(size);
      std::memcpy(result.bytes.data(), value, size);
      break;
    case Kind::Image: {
      check(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE);
      check(value != nullptr, CL_INVALID_MEM_OBJECT);
      cl_mem memory = nullptr;
      std::memcpy(&memory, value, sizeof memory);
      Ref<Image> image = lookup_image(memory);
      check(&image->context() == &context(), CL_INVALID_CONTEXT);
      check(image_type_of(arg.type_name) == image->type(), CL_INVALID_MEM_OBJECT);
      // A kernel may not write an image the application declared read-only, nor read one it
      // declared write-only.
      const cl_mem_flags flags = image->flags();
      check(!(arg.access == CL_KERNEL_ARG_ACCESS_READ_ONLY && (flags & CL_MEM_WRITE_ONLY)), CL_INVALID_ARG_VALUE);
      check(!(arg.access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (flags & CL_MEM_READ_ONLY)), CL_INVALID_ARG_VALUE);
      result.memory = memory;
      break;
    }
    case Kind::Sampler: {
      check(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE);
      check(value != nullptr, CL_INVALID_SAMPLER);
      cl_sampler handle = nullptr;
      std::memcpy(&handle, value, sizeof handle);
      Ref<Sampler> sampler = lookup<Sampler>(handle);
      check(&sampler->context() == &context(), CL_INVALID_CONTEXT);
      // The kernel receives the sampler's bits as a pointer-sized value.
      const uint64_t bits = sampler->kernel_bits();
      result.bytes.resize(sizeof bits);
      std::memcpy(result.bytes.data(), &bits, sizeof bits);
      break;
    }
    case Kind::Pipe: fail(CL_INVALID_MEM_OBJECT);
    case Kind::Queue: fail(CL_INVALID_DEVICE_QUEUE);
  }
  return result;
}

const backend::KernelCode& Kernel::code(const Device& device) const {
  for (const DeviceCode& entry : devices_) {
    if (entry.device == &device) return *entry.code;
  }
  fail(CL_INVALID_PROGRAM_EXECUTABLE);
}

bool Kernel::uniform_work_groups(const Device& device) const {
  for (const DeviceCode& entry : devices_) {
    if (entry.device == &device) return entry.uniform_work_groups;
  }
  return true;
}

bool Kernel::has_arg_info() const {
  if (program_->origin() != Program::Origin::Source && program_->origin() != Program::Origin::Linked) return false;
  for (const DeviceCode& entry : devices_) {
    if (entry.arg_info) return true;
  }
  return false;
}

size_t Kernel::max_work_group_size(const Device& device) const {
  return std::min(code(device).max_work_group_size(), device.description().max_work_group_size);
}

uint64_t Kernel::local_memory_size(const backend::KernelCode& code, const std::vector<KernelArgValue>& args) {
  uint64_t total = code.static_local_memory();
  for (const KernelArgValue& arg : args) total += arg.local_size;
  return total;
}

}  // namespace cucl
