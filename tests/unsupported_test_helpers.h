// Shared by the tests of entry points whose feature no cucl device has yet
// (test_unsupported_*.cpp): a context, queue and buffer, wrong-kind handles, and cucl's
// own dispatch table for NULL handles (which the loader would answer itself).
#pragma once

#include <CL/cl_icd.h>

#include "buffer_test_helpers.h"

namespace unsupported_test {

using buffer_test::make_buffer;
using buffer_test::Mem;
using cucl_test::create_error;
using cucl_test::Env;

class Unsupported : public ::testing::Test {
 protected:
  explicit Unsupported(cl_device_id device = cucl_test::host_device()) : env(device) {}
  Env env;
  Mem buffer = make_buffer(env.context, CL_MEM_READ_WRITE, 256);
  // cucl's own table, reached the way the loader reaches it.
  const cl_icd_dispatch& cucl = **reinterpret_cast<cl_icd_dispatch* const*>(env.context);

  // Live handles of the wrong kind: the loader routes them to cucl, which must reject them.
  cl_context not_a_context() const { return reinterpret_cast<cl_context>(buffer.get()); }
  cl_command_queue not_a_queue() const { return reinterpret_cast<cl_command_queue>(env.context); }
  cl_device_id not_a_device() const { return reinterpret_cast<cl_device_id>(env.queue); }
  cl_program not_a_program() const { return reinterpret_cast<cl_program>(env.context); }
  cl_kernel not_a_kernel() const { return reinterpret_cast<cl_kernel>(buffer.get()); }
  cl_sampler not_a_sampler() const { return reinterpret_cast<cl_sampler>(env.queue); }
};

}  // namespace unsupported_test
