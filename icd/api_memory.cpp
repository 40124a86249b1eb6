// Buffers, sub-buffers and the buffer commands.
#include "icd/entry.h"
#include "platform/memory/buffer_commands.h"
#include "platform/queue/enqueue.h"
#include "platform/info/info.h"
#include "platform/memory/memory_rules.h"

using namespace cucl;
using cucl::icd::guard;
using cucl::icd::guard_create;

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(create_buffer(lookup<Context>(context), nullptr, flags, size, host_ptr));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size, void* host_ptr,
                                                             cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    return publish<cl_mem>(create_buffer(lookup<Context>(context), properties, flags, size, host_ptr));
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void* buffer_create_info, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto parent = lookup_buffer(buffer);
    return publish<cl_mem>(create_sub_buffer(*parent, flags, buffer_create_type, buffer_create_info));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return cucl::icd::retain<MemObject>(memobj);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return cucl::icd::release<MemObject>(memobj);
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                                   void* param_value, size_t* param_value_size_ret) {
  return cucl::icd::query<MemObject>(memobj, param_name, param_value_size, param_value, param_value_size_ret, mem_object_info);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                                 void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                                 void* user_data) {
  return guard([&] { lookup<MemObject>(memobj)->add_destructor_callback(pfn_notify, user_data); });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset, size_t size, void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    submit(*queue, read_buffer(*queue, *memory, offset, size, ptr), num_events_in_wait_list, event_wait_list, event,
           blocking_read);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset, size_t size,
                                                     const void* ptr, cl_uint num_events_in_wait_list,
                                                     const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    submit(*queue, write_buffer(*queue, *memory, offset, size, ptr), num_events_in_wait_list, event_wait_list, event,
           blocking_write);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                                    cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto src = lookup_buffer(src_buffer);
    auto dst = lookup_buffer(dst_buffer);
    submit(*queue, copy_buffer(*queue, *src, *dst, src_offset, dst_offset, size), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                        cl_bool blocking_read, const size_t* buffer_origin,
                                                        const size_t* host_origin, const size_t* region,
                                                        size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                        size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    auto spec = read_buffer_rect(*queue, *memory, {buffer_origin, buffer_row_pitch, buffer_slice_pitch},
                                 {host_origin, host_row_pitch, host_slice_pitch}, region, ptr);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event, blocking_read);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                         cl_bool blocking_write, const size_t* buffer_origin,
                                                         const size_t* host_origin, const size_t* region,
                                                         size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                         size_t host_row_pitch, size_t host_slice_pitch,
                                                         const void* ptr, cl_uint num_events_in_wait_list,
                                                         const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    auto spec = write_buffer_rect(*queue, *memory, {buffer_origin, buffer_row_pitch, buffer_slice_pitch},
                                  {host_origin, host_row_pitch, host_slice_pitch}, region, ptr);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event, blocking_write);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                                        cl_mem dst_buffer, const size_t* src_origin,
                                                        const size_t* dst_origin, const size_t* region,
                                                        size_t src_row_pitch, size_t src_slice_pitch,
                                                        size_t dst_row_pitch, size_t dst_slice_pitch,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto src = lookup_buffer(src_buffer);
    auto dst = lookup_buffer(dst_buffer);
    auto spec = copy_buffer_rect(*queue, *src, *dst, {src_origin, src_row_pitch, src_slice_pitch},
                                 {dst_origin, dst_row_pitch, dst_slice_pitch}, region);
    submit(*queue, std::move(spec), num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    const void* pattern, size_t pattern_size, size_t offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    submit(*queue, fill_buffer(*queue, *memory, pattern, pattern_size, offset, size), num_events_in_wait_list,
           event_wait_list, event);
  });
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event, cl_int* errcode_ret) {
  return guard_create(errcode_ret, [&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup_buffer(buffer);
    return enqueue_map_buffer(*queue, *memory, blocking_map, map_flags, offset, size, num_events_in_wait_list,
                              event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                                        void* mapped_ptr, cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    auto memory = lookup<MemObject>(memobj);
    enqueue_unmap(*queue, *memory, mapped_ptr, num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    auto queue = lookup<Queue>(command_queue);
    submit(*queue, migrate_mem_objects(*queue, num_mem_objects, mem_objects, flags), num_events_in_wait_list,
           event_wait_list, event);
  });
}
