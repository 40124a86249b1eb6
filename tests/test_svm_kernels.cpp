// Kernels on shared virtual memory, on every device: a linked list built on the host and
// walked by a kernel (coarse grain after unmap, fine grain directly), pointers into the middle
// of an allocation, allocations reached only through CL_KERNEL_EXEC_INFO_SVM_PTRS, and the
// argument and exec-info errors. SVM atomics with a running kernel: test_svm_atomics.cpp.
#include <cstdint>

#include "svm_test_helpers.h"

using namespace cucl_test;
using namespace svm_test;

namespace {

class SvmKernels : public SvmDeviceTest {};

struct Node {
  cl_int value;
  cl_int pad;
  Node* next;
};

constexpr const char* kListWalk = R"(
    typedef struct Node { int value; int pad; global struct Node* next; } Node;
    kernel void walk(global Node* head, global int* sum) {
      int total = 0;
      for (global Node* node = head; node; node = node->next) {
        total += node->value;
        node->value *= 2;
      }
      *sum = total;
    })";

// Builds a list of `count` nodes in `nodes`, in scrambled order, starting at the returned node.
Node* build_list(Node* nodes, int count) {
  Node* head = nullptr;
  for (int i = 0; i < count; ++i) {
    Node& node = nodes[(i * 7) % count];
    node.value = i + 1;
    node.next = head;
    head = &node;
  }
  return head;
}

void walk_list(const Env& env, cl_kernel kernel, Node* head, cl_int* sum) {
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, head), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, sum), CL_SUCCESS);
  run_1d(env.queue, kernel, 1);
}

TEST_P(SvmKernels, AKernelWalksAListBuiltOnTheHostInCoarseGrainMemory) {
  const int count = 1000;
  SvmPointer nodes(env.context, CL_MEM_READ_WRITE, count * sizeof(Node));
  SvmPointer sum(env.context, CL_MEM_READ_WRITE, sizeof(cl_int) * 4);
  ASSERT_TRUE(nodes.get() && sum.get());
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, nodes.get(), count * sizeof(Node), 0,
                            nullptr, nullptr),
            CL_SUCCESS);
  Node* head = build_list(nodes.as<Node>(), count);
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, nodes.get(), 0, nullptr, nullptr), CL_SUCCESS);
  BuiltProgram program(env, kListWalk);
  cl_kernel kernel = program.kernel("walk");
  ASSERT_NE(kernel, nullptr);
  walk_list(env, kernel, head, sum.as<cl_int>() + 2);  // a pointer into the middle
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, sum.get(), sizeof(cl_int) * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(sum.as<cl_int>()[2], count * (count + 1) / 2);
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, sum.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, nodes.get(), count * sizeof(Node), 0, nullptr, nullptr),
            CL_SUCCESS);
  int doubled = 0;
  for (Node* node = head; node; node = node->next) doubled += node->value;
  EXPECT_EQ(doubled, count * (count + 1));
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, nodes.get(), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
}

TEST_P(SvmKernels, AKernelWalksAListBuiltOnTheHostInFineGrainMemory) {
  if (!has(CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) GTEST_SKIP() << "no fine-grain buffer SVM";
  const int count = 1000;
  SvmPointer nodes(env.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, count * sizeof(Node));
  SvmPointer sum(env.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(cl_int));
  ASSERT_TRUE(nodes.get() && sum.get());
  Node* head = build_list(nodes.as<Node>(), count);
  BuiltProgram program(env, kListWalk);
  cl_kernel kernel = program.kernel("walk");
  ASSERT_NE(kernel, nullptr);
  walk_list(env, kernel, head, sum.as<cl_int>());
  EXPECT_EQ(*sum.as<cl_int>(), count * (count + 1) / 2);
  EXPECT_EQ(head->value, 2 * count);
}

TEST_P(SvmKernels, AllocationsReachedOnlyThroughExecInfo) {
  // The kernel gets a table of pointers to two other allocations, which only
  // CL_KERNEL_EXEC_INFO_SVM_PTRS names.
  SvmPointer table(env.context, CL_MEM_READ_WRITE, 2 * sizeof(void*));
  SvmPointer a(env.context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  SvmPointer b(env.context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_TRUE(table.get() && a.get() && b.get());
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE, table.get(), 2 * sizeof(void*), 0, nullptr, nullptr),
            CL_SUCCESS);
  table.as<cl_int*>()[0] = a.as<cl_int>();
  table.as<cl_int*>()[1] = b.as<cl_int>() + 32;
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, table.get(), 0, nullptr, nullptr), CL_SUCCESS);
  BuiltProgram program(env, R"(
    typedef struct Table { global int* a; global int* b; } Table;
    kernel void through(global Table* table) {
      size_t i = get_global_id(0);
      table->a[i] = (int)i;
      table->b[i] = (int)i * 3;
    })");
  cl_kernel kernel = program.kernel("through");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, table.get()), CL_SUCCESS);
  void* reached[] = {a.as<char>() + 4, b.get()};  // any pointer into each allocation will do
  ASSERT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, reached), CL_SUCCESS);
  run_1d(env.queue, kernel, 32);
  cl_int seen_a[32] = {}, seen_b[32] = {};
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, seen_a, a.get(), sizeof seen_a, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, seen_b, b.as<cl_int>() + 32, sizeof seen_b, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(seen_a[i], i);
    EXPECT_EQ(seen_b[i], 3 * i);
  }
}

TEST_P(SvmKernels, ArgumentAndExecInfoErrors) {
  BuiltProgram program(env, "kernel void k(global int* out, int value) { out[0] = value; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  SvmPointer svm(env.context, CL_MEM_READ_WRITE, 64);
  EXPECT_EQ(clSetKernelArgSVMPointer(nullptr, 0, svm.get()), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 2, svm.get()), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 1, svm.get()), CL_INVALID_ARG_VALUE) << "not a pointer argument";
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 0, nullptr), CL_SUCCESS) << "NULL is a pointer too";
  EXPECT_EQ(clSetKernelExecInfo(kernel, 0x12345, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr), CL_SUCCESS) << "an empty set";
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void*), nullptr), CL_INVALID_VALUE);
  void* one[] = {svm.get()};
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, one), CL_INVALID_VALUE);
  const cl_bool yes = CL_TRUE, no = CL_FALSE;
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &yes), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no), CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
            has(CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) ? CL_SUCCESS : CL_INVALID_OPERATION);
  // A value set with clSetKernelArg afterwards replaces the SVM pointer.
  DeviceBuffer buffer(env.context, sizeof(cl_int));
  const cl_int seven = 7;
  set_args(kernel, buffer.get(), seven);
  run_1d(env.queue, kernel, 1);
  EXPECT_EQ(read_buffer<cl_int>(env.queue, buffer.get(), 1)[0], 7);
}

// Fine-grain system SVM: any host memory is a kernel argument, and the SVM commands take it.
TEST_P(SvmKernels, FineGrainSystemMemoryIsAKernelArgumentAsItIs) {
  if (!has(CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) GTEST_SKIP() << "no fine-grain system SVM";
  std::vector<cl_int> host(256, 0);
  BuiltProgram program(env, "kernel void k(global int* out) { out[get_global_id(0)] += 5; }");
  cl_kernel kernel = program.kernel("k");
  ASSERT_NE(kernel, nullptr);
  const cl_int three = 3;
  ASSERT_EQ(clEnqueueSVMMemFill(env.queue, host.data(), &three, 4, host.size() * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, host.data() + 128), CL_SUCCESS);
  run_1d(env.queue, kernel, 128);
  EXPECT_EQ(host[0], 3);
  EXPECT_EQ(host[128], 8);
  EXPECT_EQ(host[255], 8);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SvmKernels, ::testing::ValuesIn(all_devices()), device_name);

}  // namespace
