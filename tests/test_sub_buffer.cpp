// Sub-buffers: creation rules, flag inheritance, queries and aliasing with their parent.
#include <cstring>

#include "buffer_test_helpers.h"

using namespace cucl_test;
using namespace buffer_test;

namespace {

constexpr size_t kSize = 4096;

class SubBuffer : public BufferFixture {};

TEST_F(SubBuffer, QueriesDescribeTheRegion) {
  Mem parent = make_buffer(env.context, CL_MEM_READ_WRITE, kSize);
  Mem sub = make_sub_buffer(parent, CL_MEM_READ_ONLY, align, 2 * align);
  EXPECT_EQ(info_value<cl_mem_object_type>(clGetMemObjectInfo, sub, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(info_value<size_t>(clGetMemObjectInfo, sub, CL_MEM_SIZE), 2 * align);
  EXPECT_EQ(info_value<size_t>(clGetMemObjectInfo, sub, CL_MEM_OFFSET), align);
  EXPECT_EQ(info_value<cl_mem>(clGetMemObjectInfo, sub, CL_MEM_ASSOCIATED_MEMOBJECT), parent.get());
  EXPECT_EQ(info_value<cl_context>(clGetMemObjectInfo, sub, CL_MEM_CONTEXT), env.context);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, sub, CL_MEM_FLAGS), cl_mem_flags(CL_MEM_READ_ONLY));
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, sub, CL_MEM_HOST_PTR), nullptr);
  size_t size = 99;
  EXPECT_EQ(clGetMemObjectInfo(sub, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
}

TEST_F(SubBuffer, InheritsWhatItDoesNotSay) {
  Mem parent = make_buffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, kSize);
  Mem plain = make_sub_buffer(parent, 0, 0, align);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, plain, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_ALLOC_HOST_PTR));
  Mem narrowed = make_sub_buffer(parent, CL_MEM_HOST_NO_ACCESS, 0, align);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, narrowed, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_ALLOC_HOST_PTR));
}

TEST_F(SubBuffer, UseHostPtrReportsPointerPlusOrigin) {
  std::vector<uint8_t> host = pattern(kSize, 2);
  Mem parent = make_buffer(env.context, CL_MEM_USE_HOST_PTR, kSize, host.data());
  Mem sub = make_sub_buffer(parent, CL_MEM_WRITE_ONLY, 2 * align, align);
  EXPECT_EQ(info_value<void*>(clGetMemObjectInfo, sub, CL_MEM_HOST_PTR), host.data() + 2 * align);
  EXPECT_EQ(info_value<cl_mem_flags>(clGetMemObjectInfo, sub, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR));
  auto data = pattern(align, 77);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, sub, CL_TRUE, 0, align, data.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(0, std::memcmp(host.data() + 2 * align, data.data(), align));
}

TEST_F(SubBuffer, WritesAreSeenThroughParentAndOverlappingSiblings) {
  Mem parent = make_buffer(env.context, 0, kSize);
  write_all(env.queue, parent, std::vector<uint8_t>(kSize, 0));
  Mem first = make_sub_buffer(parent, 0, align, 4 * align);       // [align, 5 align)
  Mem second = make_sub_buffer(parent, 0, 3 * align, 4 * align);  // [3 align, 7 align)
  auto data = pattern(2 * align, 50);
  // Bytes [3 align, 5 align) of the parent, through the first sub-buffer.
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, first, CL_TRUE, 2 * align, 2 * align, data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);

  auto whole = read_all(env.queue, parent, kSize);
  std::vector<uint8_t> expected(kSize, 0);
  std::copy(data.begin(), data.end(), expected.begin() + 3 * align);
  EXPECT_EQ(whole, expected);

  auto through_second = read_all(env.queue, second, 4 * align);
  EXPECT_EQ(std::vector<uint8_t>(through_second.begin(), through_second.begin() + 2 * align), data);
  EXPECT_EQ(std::vector<uint8_t>(through_second.begin() + 2 * align, through_second.end()),
            std::vector<uint8_t>(2 * align, 0));
}

TEST_F(SubBuffer, ParentWritesAreSeenInTheSubBuffer) {
  auto data = pattern(kSize, 33);
  Mem parent = make_buffer(env.context, CL_MEM_COPY_HOST_PTR, kSize, data.data());
  Mem sub = make_sub_buffer(parent, 0, 5 * align, align);
  EXPECT_EQ(read_all(env.queue, sub, align), std::vector<uint8_t>(data.begin() + 5 * align, data.begin() + 6 * align));
}

TEST_F(SubBuffer, OfASubBufferIsRefused) {
  Mem parent = make_buffer(env.context, 0, kSize);
  Mem sub = make_sub_buffer(parent, 0, 0, 4 * align);
  EXPECT_EQ(sub_buffer_error(sub, 0, 0, align), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(sub_buffer_error(nullptr, 0, 0, align), CL_INVALID_MEM_OBJECT);
}

TEST_F(SubBuffer, RegionErrors) {
  Mem parent = make_buffer(env.context, 0, kSize);
  cl_buffer_region region{0, align};
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateSubBuffer(parent, 0, 0x7777, &region, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &status), nullptr);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(sub_buffer_error(parent, 0, 0, 0), CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(sub_buffer_error(parent, 0, 0, kSize + 1), CL_INVALID_VALUE);
  EXPECT_EQ(sub_buffer_error(parent, 0, kSize - align, 2 * align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_buffer_error(parent, 0, kSize + align, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_buffer_error(parent, 0, SIZE_MAX - align + 1, 2 * align), CL_INVALID_VALUE) << "origin + size wraps";
  EXPECT_EQ(sub_buffer_error(parent, 0, 1, align), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  EXPECT_EQ(sub_buffer_error(parent, 0, align / 2, align), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  Mem whole = make_sub_buffer(parent, 0, 0, kSize);
  EXPECT_EQ(info_value<size_t>(clGetMemObjectInfo, whole, CL_MEM_SIZE), kSize);
}

TEST_F(SubBuffer, FlagErrors) {
  char host[kSize];
  Mem parent = make_buffer(env.context, 0, kSize);
  const cl_mem_flags invalid[] = {CL_MEM_USE_HOST_PTR,
                                  CL_MEM_ALLOC_HOST_PTR,
                                  CL_MEM_COPY_HOST_PTR,
                                  CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                  CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                                  cl_mem_flags(1) << 40};
  for (cl_mem_flags flags : invalid) {
    EXPECT_EQ(sub_buffer_error(parent, flags, 0, align), CL_INVALID_VALUE) << flags;
  }
  Mem with_host = make_buffer(env.context, CL_MEM_USE_HOST_PTR, kSize, host);
  EXPECT_EQ(sub_buffer_error(with_host, CL_MEM_USE_HOST_PTR, 0, align), CL_INVALID_VALUE)
      << "host pointer flags are inherited, never given";
}

TEST_F(SubBuffer, MayNotWidenItsParentsAccess) {
  struct Case {
    cl_mem_flags parent, sub;
  };
  const Case refused[] = {
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE},         {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE},          {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY}, {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY}, {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY},
  };
  for (const Case& c : refused) {
    Mem parent = make_buffer(env.context, c.parent, kSize);
    EXPECT_EQ(sub_buffer_error(parent, c.sub, 0, align), CL_INVALID_VALUE) << c.parent << " -> " << c.sub;
  }
  const Case allowed[] = {
      {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY},         {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_READ_ONLY},          {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_NO_ACCESS}, {0, CL_MEM_HOST_READ_ONLY},
  };
  for (const Case& c : allowed) {
    Mem parent = make_buffer(env.context, c.parent, kSize);
    Mem sub = make_sub_buffer(parent, c.sub, 0, align);
    EXPECT_NE(sub.get(), nullptr) << c.parent << " -> " << c.sub;
  }
}

}  // namespace
