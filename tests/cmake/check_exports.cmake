# libcucl must export the OpenCL API and nothing else (icd/exports.map): any other
# exported symbol could clash with the application's or another ICD's.
# Usage: cmake -DNM=<nm> -DLIBRARY=<libcucl.so.1> -P check_exports.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var NM LIBRARY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake needs -D${var}=...")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY}
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${result}): ${errors}")
endif()

# Each line is "<address> <type> <name>", the name possibly followed by @version.
string(REPLACE "\n" ";" lines "${listing}")
set(exported "")
set(foreign "")
foreach(line IN LISTS lines)
  # Lower-case types are local bindings: listed in .dynsym (the linker keeps some for
  # libstdc++'s template statics) but visible to no other module.
  if(line MATCHES "^[0-9a-fA-F]+ +([A-Za-z]) +([^ @]+)")
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(NOT type MATCHES "^[A-Zu]$")
      continue()
    endif()
    list(APPEND exported "${name}")
    if(NOT name MATCHES "^cl")
      list(APPEND foreign "${name}")
    endif()
  elseif(NOT line STREQUAL "")
    message(FATAL_ERROR "unexpected nm output line: '${line}'")
  endif()
endforeach()

list(LENGTH exported count)
if(count EQUAL 0)
  message(FATAL_ERROR "${LIBRARY} exports no symbol at all")
endif()
if(foreign)
  list(JOIN foreign "\n  " shown)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside the OpenCL API:\n  ${shown}")
endif()

# What the ICD loader and direct-linking applications look up by name.
foreach(required clIcdGetPlatformIDsKHR clGetExtensionFunctionAddress clGetExtensionFunctionAddressForPlatform
                 clGetPlatformIDs clGetPlatformInfo)
  if(NOT required IN_LIST exported)
    message(FATAL_ERROR "${LIBRARY} does not export ${required}")
  endif()
endforeach()

message(STATUS "${LIBRARY}: ${count} exported symbols, all cl*")
