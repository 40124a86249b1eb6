#include "platform/program/program_rules.h"

#include "base/error.h"
#include "platform/objects/context.h"
#include "platform/objects/lookup.h"

namespace cucl {
namespace {

void check_notify(ProgramNotify notify, void* user_data) {
  check(notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
}

// Runs `body`; the callback, when given, hears of the end whether it failed or not.
template <class Body>
void notify_after(ProgramNotify notify, void* user_data, Program& program, Body&& body) {
  try {
    body();
  } catch (...) {
    if (notify) notify(program.id(), user_data);
    throw;
  }
  if (notify) notify(program.id(), user_data);
}

using Headers = std::vector<std::pair<std::string, Ref<Program>>>;

Headers embedded_headers(const Program& program, cl_uint count, const cl_program* headers, const char** names) {
  if (count == 0) {
    check(headers == nullptr && names == nullptr, CL_INVALID_VALUE);
  } else {
    check(headers != nullptr && names != nullptr, CL_INVALID_VALUE);
  }
  Headers result;
  for (cl_uint i = 0; i < count; ++i) {
    check(names[i] != nullptr, CL_INVALID_VALUE);
    result.emplace_back(names[i], lookup<Program>(headers[i]));
    check(&result.back().second->context() == &program.context(), CL_INVALID_CONTEXT);
  }
  return result;
}

std::vector<Ref<Program>> link_inputs(const Context& context, cl_uint count, const cl_program* programs) {
  check(count != 0 && programs != nullptr, CL_INVALID_VALUE);
  std::vector<Ref<Program>> inputs;
  for (cl_uint i = 0; i < count; ++i) {
    inputs.push_back(lookup<Program>(programs[i]));
    check(&inputs.back()->context() == &context, CL_INVALID_CONTEXT);
  }
  return inputs;
}

}  // namespace

void build_program(Program& program, cl_uint num_devices, const cl_device_id* device_list, const char* options,
                   ProgramNotify notify, void* user_data) {
  check_notify(notify, user_data);
  auto devices = build_devices(program, num_devices, device_list);
  notify_after(notify, user_data, program, [&] { build_on_devices(program, devices, options); });
}

void compile_program(Program& program, cl_uint num_devices, const cl_device_id* device_list, const char* options,
                     cl_uint num_input_headers, const cl_program* input_headers, const char** header_include_names,
                     ProgramNotify notify, void* user_data) {
  check_notify(notify, user_data);
  auto devices = build_devices(program, num_devices, device_list);
  auto headers = embedded_headers(program, num_input_headers, input_headers, header_include_names);
  notify_after(notify, user_data, program, [&] { compile_on_devices(program, devices, options, headers); });
}

cl_program link_program(Ref<Context> context, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                        ProgramNotify notify, void* user_data, cl_int& link_error) {
  check((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
  check(num_input_programs != 0 && input_programs != nullptr, CL_INVALID_VALUE);
  check_notify(notify, user_data);
  auto inputs = link_inputs(*context, num_input_programs, input_programs);
  auto devices = listed_devices(context->devices(), num_devices, device_list);
  auto program = link_on_devices(std::move(context), devices, options, inputs, link_error);
  cl_program linked = publish<cl_program>(program);
  if (notify) notify(linked, user_data);
  return linked;
}

void set_program_release_callback(Program&, ProgramNotify notify, void*) {
  check(notify != nullptr, CL_INVALID_VALUE);
  fail(CL_INVALID_OPERATION);
}

}  // namespace cucl
