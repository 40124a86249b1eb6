# The nvptx64 builtin library (libclc-builtins) may leave undefined only what the CUDA code
# generator provides: the work-item functions, barrier, the address-space casts, get_fence,
# the work-group collectives' scratch (cucl_work_group_scratch), the image reads' question
# __cucl_images_textured (codegen/textured_variants.h) and libdevice's __nvvm_reflect (LLVM
# intrinsics are not listed by nm). Every libdevice
# function it calls must be linked in, and no SLEEF name may remain.
# Usage: cmake -DNM=<llvm-nm> -DBITCODE=<nvptx-builtins.bc> -P check_nvptx_builtins.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var NM BITCODE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_nvptx_builtins.cmake needs -D${var}=...")
  endif()
endforeach()

execute_process(COMMAND ${NM} ${BITCODE} OUTPUT_VARIABLE listing ERROR_VARIABLE errors
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} ${BITCODE} failed (${result}): ${errors}")
endif()

set(provided get_global_id get_local_id get_local_size get_enqueued_local_size get_global_size
    get_group_id get_num_groups get_global_offset get_work_dim barrier __to_global __to_local
    __to_private get_fence)

# Each line is "<address, dashes or spaces> <type> <name>".
string(REPLACE "\n" ";" lines "${listing}")
set(defined "")
set(unexpected "")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  elseif(NOT line MATCHES "^[-0-9a-fA-F ]* ([A-Za-z]) ([^ ]+)$")
    message(FATAL_ERROR "unexpected nm output line: '${line}'")
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(name MATCHES "Sleef_")
    list(APPEND unexpected "${name} (a SLEEF function)")
  elseif(type STREQUAL "U")
    set(known FALSE)
    if(name STREQUAL "__nvvm_reflect" OR name STREQUAL "cucl_work_group_scratch" OR
       name STREQUAL "__cucl_images_textured")
      set(known TRUE)
    elseif(name MATCHES "^_Z([0-9]+)")  # Itanium mangling: _Z<length><name><parameters>
      string(LENGTH "${CMAKE_MATCH_0}" prefix)
      string(SUBSTRING "${name}" ${prefix} ${CMAKE_MATCH_1} unmangled)
      if(unmangled IN_LIST provided)
        set(known TRUE)
      endif()
    endif()
    if(NOT known)
      list(APPEND unexpected "${name} (undefined)")
    endif()
  else()
    list(APPEND defined "${name}")
  endif()
endforeach()

if(unexpected)
  list(JOIN unexpected "\n  " shown)
  message(FATAL_ERROR "${BITCODE} has symbols the CUDA code generator cannot resolve:\n  ${shown}")
endif()
# A few that must be there: builtins of several kinds, and libdevice math they call.
foreach(required _Z3sinf _Z3powdd _Z10atomic_addPU3AS1Vii _Z15convert_int_rtef __nv_sinf __nv_pow
                 _Z21work_group_reduce_addi _Z32sub_group_non_uniform_reduce_addi)
  if(NOT required IN_LIST defined)
    message(FATAL_ERROR "${BITCODE} does not define ${required}")
  endif()
endforeach()
list(LENGTH defined count)
message(STATUS "${BITCODE}: ${count} defined symbols; undefined ones are all provided by the code generator")
