# `cmake --install` must install libcucl and register it with a manifest that names the
# installed library, under DESTDIR and with an install-time --prefix alike.
# Usage: cmake -DBUILD_DIR=<build tree> -DWORK_DIR=<scratch dir> -DLIBDIR=<CMAKE_INSTALL_LIBDIR>
#              -DPREFIX=<CMAKE_INSTALL_PREFIX> -DICD_DIR=<CUCL_ICD_DIR> -DSONAME=<libcucl.so.1>
#              [-DCLINFO=<clinfo>] -P check_install.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var BUILD_DIR WORK_DIR LIBDIR PREFIX ICD_DIR SONAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install.cmake needs -D${var}=...")
  endif()
endforeach()

# Installs into DESTDIR=`destdir` (extra arguments go to cmake --install) and checks
# that the manifest names `expected_library` and that the library is there.
function(check_install destdir expected_library)
  file(REMOVE_RECURSE "${destdir}")
  set(ENV{DESTDIR} "${destdir}")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} ${ARGN}
                  OUTPUT_VARIABLE output ERROR_VARIABLE output RESULT_VARIABLE result)
  unset(ENV{DESTDIR})
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install ${ARGN} with DESTDIR=${destdir} failed:\n${output}")
  endif()

  set(manifest "${destdir}${ICD_DIR}/cucl.icd")
  if(NOT EXISTS "${manifest}")
    message(FATAL_ERROR "no ICD manifest at ${manifest}; cmake --install said:\n${output}")
  endif()
  file(STRINGS "${manifest}" lines)
  if(NOT lines STREQUAL expected_library)
    message(FATAL_ERROR "${manifest} says '${lines}', expected '${expected_library}'")
  endif()

  set(library "${destdir}${expected_library}")
  if(NOT EXISTS "${library}")
    message(FATAL_ERROR "the manifest names ${expected_library}, but ${library} was not installed")
  endif()
  file(READ "${library}" magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "7f454c46")
    message(FATAL_ERROR "${library} is not an ELF shared object")
  endif()
  message(STATUS "DESTDIR=${destdir} ${ARGN}: manifest -> ${expected_library}, library present")
  set(installed_library "${library}" PARENT_SCOPE)
endfunction()

if(IS_ABSOLUTE "${LIBDIR}")
  set(configured_library "${LIBDIR}/${SONAME}")
else()
  set(configured_library "${PREFIX}/${LIBDIR}/${SONAME}")
endif()
check_install("${WORK_DIR}/default" "${configured_library}")
set(default_library "${installed_library}")

if(NOT IS_ABSOLUTE "${LIBDIR}")
  set(other_prefix "/opt/cucl-install-test")
  check_install("${WORK_DIR}/prefixed" "${other_prefix}/${LIBDIR}/${SONAME}" --prefix ${other_prefix})
endif()

# The installed library loads through the real ICD loader (ocl-icd accepts a library path
# in OCL_ICD_VENDORS).
if(CLINFO)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env OCL_ICD_VENDORS=${default_library} ${CLINFO} -l
                  OUTPUT_VARIABLE listing ERROR_VARIABLE listing RESULT_VARIABLE result)
  if(NOT result EQUAL 0 OR NOT listing MATCHES "Platform #0: cucl")
    message(FATAL_ERROR "the loader did not load the installed ${default_library}:\n${listing}")
  endif()
  message(STATUS "the ICD loader loads the installed library")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
