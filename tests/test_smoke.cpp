#include "support/test_support.h"

using namespace cucl_test;

TEST(Smoke, PlatformAndHostDeviceAreListed) {
  ASSERT_NE(cucl_platform(), nullptr);
  EXPECT_NE(host_device(), nullptr);
}

TEST(Smoke, QueueRunsMarker) {
  Env env;
  cl_event marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &marker), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  cl_int status = 1;
  clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  EXPECT_EQ(status, CL_COMPLETE);
  EXPECT_EQ(clReleaseEvent(marker), CL_SUCCESS);
}
