// CUCL_DEVICES parsing (backends/device_selection.h): which devices the platform lists.
#include <gtest/gtest.h>

#include "backends/device_selection.h"

namespace cucl::backend {
namespace {

TEST(DeviceSelection, AllAndEmptySelectEverything) {
  for (const char* text : {"all", "", " , ", "bogus"}) {
    DeviceSelection selection = parse_device_selection(text);
    EXPECT_TRUE(selection.host) << text;
    EXPECT_TRUE(selection.every_gpu) << text;
    EXPECT_TRUE(selection.wants_gpu(7)) << text;
  }
  EXPECT_EQ(parse_device_selection("bogus").unknown, std::vector<std::string>{"bogus"});
}

TEST(DeviceSelection, HostOrCudaAlone) {
  DeviceSelection host = parse_device_selection("host");
  EXPECT_TRUE(host.host);
  EXPECT_FALSE(host.wants_any_gpu());
  DeviceSelection cuda = parse_device_selection("cuda");
  EXPECT_FALSE(cuda.host);
  EXPECT_TRUE(cuda.wants_gpu(0));
  EXPECT_TRUE(cuda.wants_gpu(3));
}

TEST(DeviceSelection, OrdinalsPickSingleGpus) {
  DeviceSelection selection = parse_device_selection("cuda:1, cuda:3,cuda:1");
  EXPECT_FALSE(selection.host);
  EXPECT_FALSE(selection.every_gpu);
  EXPECT_EQ(selection.gpu_ordinals, (std::vector<int>{1, 3}));
  EXPECT_FALSE(selection.wants_gpu(0));
  EXPECT_TRUE(selection.wants_gpu(1));
  EXPECT_FALSE(selection.wants_gpu(2));
  EXPECT_TRUE(selection.wants_gpu(3));
  DeviceSelection with_host = parse_device_selection("host,cuda:0");
  EXPECT_TRUE(with_host.host);
  EXPECT_TRUE(with_host.wants_gpu(0));
  EXPECT_FALSE(with_host.wants_gpu(1));
}

TEST(DeviceSelection, MalformedOrdinalsAreIgnoredAndReported) {
  DeviceSelection selection = parse_device_selection("host,cuda:x,cuda:-1,cuda:,cuda:2junk");
  EXPECT_TRUE(selection.host);
  EXPECT_FALSE(selection.wants_any_gpu());
  EXPECT_EQ(selection.unknown.size(), 4u);
}

}  // namespace
}  // namespace cucl::backend
