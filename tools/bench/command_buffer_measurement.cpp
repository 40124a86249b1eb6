// The command buffer rows: 200 one-work-item launches of an empty kernel recorded once and
// replayed (clEnqueueCommandBufferKHR + clFinish), beside the same 200 launches enqueued one
// by one (+ clFinish), and, with cl_khr_command_buffer_mutable_dispatch, the replay after an
// update of every launch's range, and updates of one argument before each replay of a
// buffer of one kernel and of one of 8 kernels (on a GPU each replay is one graph launch
// and each update sets the changed node); on devices that list cl_khr_command_buffer 0.9.8 (the
// system's headers declare these entry points with older parameters, so they are typed here).
#include "measurements.h"

#include <CL/cl_ext.h>

#include <cstring>
#include <string>

namespace bench {
namespace {

constexpr int kLaunches = 200;

using CreateFn = cl_command_buffer_khr(CL_API_CALL*)(cl_uint, const cl_command_queue*,
                                                     const cl_command_buffer_properties_khr*, cl_int*);
using FinalizeFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr);
using ReleaseFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr);
using EnqueueFn = cl_int(CL_API_CALL*)(cl_uint, cl_command_queue*, cl_command_buffer_khr, cl_uint, const cl_event*,
                                       cl_event*);
using NDRangeFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const cl_properties*, cl_kernel,
                                       cl_uint, const size_t*, const size_t*, const size_t*, cl_uint,
                                       const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*);
using UpdateFn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_uint, const cl_uint*, const void**);

// cl_mutable_dispatch_config_khr of mutable dispatch 0.9.5 (Debian's headers have an older one).
struct MutableDispatchConfig {
  cl_mutable_command_khr command;
  cl_uint num_args, num_svm_args, num_exec_infos, work_dim;
  const void *arg_list, *arg_svm_list, *exec_info_list;
  const size_t *global_work_offset, *global_work_size, *local_work_size;
};

bool lists(cl_device_id device, const char* extension, cl_version version) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size) != CL_SUCCESS) return false;
  std::vector<cl_name_version> extensions(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, extensions.data(), nullptr);
  for (const cl_name_version& e : extensions) {
    if (std::strcmp(e.name, extension) == 0 && e.version == version) return true;
  }
  return false;
}

template <class Fn>
Fn entry_point(cl_device_id device, const char* name) {
  cl_platform_id platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  auto address = reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(platform, name));
  if (!address) throw ClError(name, CL_INVALID_VALUE);
  return address;
}

}  // namespace

void measure_command_buffers(const Session& session, cl_program program, cl_mem out, const Settings& settings,
                             Cells& cells) {
  if (!lists(session.device(), "cl_khr_command_buffer", CL_MAKE_VERSION(0, 9, 8))) {
    for (Row row : {kCommandBufferReplay, kCommandBufferEnqueues, kCommandBufferUpdateReplay,
                    kCommandBufferArgumentUpdate, kCommandBufferArgumentUpdateOfMany}) {
      cells[row].note = "n/a (no cl_khr_command_buffer 0.9.8)";
    }
    return;
  }
  Kernel empty_kernel = create_kernel(program, "empty");
  cl_kernel empty = empty_kernel.get();
  const auto create = entry_point<CreateFn>(session.device(), "clCreateCommandBufferKHR");
  const auto finalize = entry_point<FinalizeFn>(session.device(), "clFinalizeCommandBufferKHR");
  const auto release = entry_point<ReleaseFn>(session.device(), "clReleaseCommandBufferKHR");
  const auto enqueue = entry_point<EnqueueFn>(session.device(), "clEnqueueCommandBufferKHR");
  const auto ndrange = entry_point<NDRangeFn>(session.device(), "clCommandNDRangeKernelKHR");
  cl_command_queue queue = session.queue();
  const size_t one = 1;
  // A finalized buffer of `launches` one-item launches of `kernel`, mutable or not; the
  // launches' handles in `handles`.
  auto recorded = [&](cl_kernel kernel, int launches, bool is_mutable, std::vector<cl_mutable_command_khr>* handles) {
    const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                           is_mutable ? CL_COMMAND_BUFFER_MUTABLE_KHR : 0u, 0};
    cl_int status = CL_SUCCESS;
    cl_command_buffer_khr buffer = create(1, &queue, properties, &status);
    check(status, "clCreateCommandBufferKHR");
    if (handles) handles->resize(launches);
    for (int i = 0; i < launches; ++i) {
      check(ndrange(buffer, nullptr, nullptr, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr,
                    handles ? &(*handles)[i] : nullptr),
            "clCommandNDRangeKernelKHR");
    }
    check(finalize(buffer), "clFinalizeCommandBufferKHR");
    return buffer;
  };
  cl_command_buffer_khr buffer = recorded(empty, kLaunches, false, nullptr);
  double seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(enqueue(0, nullptr, buffer, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kCommandBufferReplay].value = seconds * 1e6;
  release(buffer);
  seconds = median_seconds(settings.repetitions, [&] {
    for (int i = 0; i < kLaunches; ++i) {
      BENCH_CL(clEnqueueNDRangeKernel(queue, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    }
    BENCH_CL(clFinish(queue));
  });
  cells[kCommandBufferEnqueues].value = seconds * 1e6;

  if (!lists(session.device(), "cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION(0, 9, 5))) {
    for (Row row : {kCommandBufferUpdateReplay, kCommandBufferArgumentUpdate, kCommandBufferArgumentUpdateOfMany}) {
      cells[row].note = "n/a (no cl_khr_command_buffer_mutable_dispatch 0.9.5)";
    }
    return;
  }
  const auto update = entry_point<UpdateFn>(session.device(), "clUpdateMutableCommandsKHR");
  std::vector<cl_mutable_command_khr> handles;
  buffer = recorded(empty, kLaunches, true, &handles);
  std::vector<MutableDispatchConfig> configs(kLaunches);
  std::vector<const void*> pointers(kLaunches);
  const std::vector<cl_uint> types(kLaunches, 0);  // CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
  for (int i = 0; i < kLaunches; ++i) {
    configs[i] = MutableDispatchConfig{handles[i], 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr, &one, nullptr};
    pointers[i] = &configs[i];
  }
  seconds = median_seconds(settings.repetitions, [&] {
    BENCH_CL(update(buffer, kLaunches, types.data(), pointers.data()));
    BENCH_CL(enqueue(0, nullptr, buffer, 0, nullptr, nullptr));
    BENCH_CL(clFinish(queue));
  });
  cells[kCommandBufferUpdateReplay].value = seconds * 1e6;
  release(buffer);

  // A buffer of `kernels` launches of a kernel whose int argument of the middle one changes
  // before each replay, enqueued like the "kernel enqueue" row (clFinish once at the end).
  Kernel loop = create_kernel(program, "integer_loop");
  const cl_int no_steps = 0;
  BENCH_CL(clSetKernelArg(loop.get(), 0, sizeof out, &out));
  BENCH_CL(clSetKernelArg(loop.get(), 1, sizeof no_steps, &no_steps));
  auto update_and_replay = [&](int kernels) {
    buffer = recorded(loop.get(), kernels, true, &handles);
    cl_int steps = 0;
    const cl_mutable_dispatch_arg_khr argument = {1, sizeof steps, &steps};
    MutableDispatchConfig config{handles[kernels / 2], 1, 0, 0, 0, &argument, nullptr, nullptr, nullptr, nullptr,
                                 nullptr};
    const void* config_pointer = &config;
    seconds = median_seconds(settings.repetitions, [&] {
      for (int i = 0; i < settings.enqueue_count; ++i) {
        steps = i % 2;
        BENCH_CL(update(buffer, 1, types.data(), &config_pointer));
        BENCH_CL(enqueue(0, nullptr, buffer, 0, nullptr, nullptr));
      }
      BENCH_CL(clFinish(queue));
    });
    release(buffer);
    return seconds * 1e6 / settings.enqueue_count;
  };
  cells[kCommandBufferArgumentUpdate].value = update_and_replay(1);
  cells[kCommandBufferArgumentUpdateOfMany].value = update_and_replay(8);
}

}  // namespace bench
