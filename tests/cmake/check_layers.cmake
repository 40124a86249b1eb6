# Fails when a source file includes a header of a layer above its own. The layers, lowest
# first: base/, libclc-builtins/, backends/, platform/, icd/ (docs/architecture.md); a
# file may include its own layer and those below it, never one above.
#   cmake -DCUCL_SOURCE_DIR=<repository> -P check_layers.cmake
cmake_minimum_required(VERSION 3.20)
set(layers base libclc-builtins backends platform icd)
set(problems "")
foreach(layer_index RANGE 4)
  list(GET layers ${layer_index} layer)
  file(GLOB_RECURSE files "${CUCL_SOURCE_DIR}/${layer}/*.h" "${CUCL_SOURCE_DIR}/${layer}/*.cpp"
       "${CUCL_SOURCE_DIR}/${layer}/*.def")
  foreach(file ${files})
    file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^\"/]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"/]+)/.*" "\\1" included "${line}")
      list(FIND layers "${included}" included_index)
      if(included_index GREATER layer_index)
        file(RELATIVE_PATH name "${CUCL_SOURCE_DIR}" "${file}")
        string(STRIP "${line}" line)
        string(APPEND problems "  ${name} (${layer}/) includes a layer above it: ${line}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "Includes that go up the layers:\n${problems}")
endif()
message(STATUS "every include goes down the layers")
