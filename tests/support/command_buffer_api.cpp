#include "support/command_buffer_api.h"

namespace cucl_test {

CommandBufferApi CommandBufferApi::load() {
  CommandBufferApi api;
  cl_platform_id platform = cucl_platform();
  auto find = [&](auto& pointer, const char* name) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(
        clGetExtensionFunctionAddressForPlatform(platform, name));
    EXPECT_NE(pointer, nullptr) << name;
  };
  find(api.create, "clCreateCommandBufferKHR");
  find(api.finalize, "clFinalizeCommandBufferKHR");
  find(api.retain, "clRetainCommandBufferKHR");
  find(api.release, "clReleaseCommandBufferKHR");
  find(api.enqueue, "clEnqueueCommandBufferKHR");
  find(api.barrier, "clCommandBarrierWithWaitListKHR");
  find(api.copy_buffer, "clCommandCopyBufferKHR");
  find(api.copy_buffer_rect, "clCommandCopyBufferRectKHR");
  find(api.fill_buffer, "clCommandFillBufferKHR");
  find(api.ndrange, "clCommandNDRangeKernelKHR");
  find(api.svm_memcpy, "clCommandSVMMemcpyKHR");
  find(api.copy_image, "clCommandCopyImageKHR");
  find(api.info, "clGetCommandBufferInfoKHR");
  find(api.update, "clUpdateMutableCommandsKHR");
  find(api.mutable_info, "clGetMutableCommandInfoKHR");
  return api;
}

}  // namespace cucl_test
