# clang/LLVM 15 (shared libLLVM-15 and libclang-cpp), the SPIR-V translator, SPIRV-Tools'
# validator and SLEEF, all
# from Debian's packages. `cucl_llvm` is the interface target every LLVM-using object
# library links. Debian's LLVM is built without RTTI, so code that derives from LLVM or
# clang classes is compiled with -fno-rtti (exceptions still work).
find_package(LLVM 15 REQUIRED CONFIG HINTS /usr/lib/llvm-15/lib/cmake/llvm)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-15/lib/cmake/clang)
find_library(LLVM_SPIRV_LIB NAMES LLVMSPIRVLib REQUIRED)
find_path(LLVM_SPIRV_INCLUDE_DIR LLVMSPIRVLib/LLVMSPIRVLib.h REQUIRED)
find_package(SPIRV-Tools REQUIRED CONFIG)
find_library(SLEEF_LIB NAMES sleef REQUIRED)
find_path(SLEEF_INCLUDE_DIR sleef.h PATH_SUFFIXES x86_64-linux-gnu REQUIRED)
find_program(CUCL_CLANG NAMES clang-15 HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(CUCL_LLVM_LINK NAMES llvm-link-15 llvm-link HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)

# The resource directory holds opencl-c-base.h; the in-process front end is pointed at it.
execute_process(COMMAND ${CUCL_CLANG} -print-resource-dir OUTPUT_VARIABLE CUCL_CLANG_RESOURCE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)

add_library(cucl_llvm INTERFACE)
target_include_directories(cucl_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS}
                           ${LLVM_SPIRV_INCLUDE_DIR})
target_compile_definitions(cucl_llvm INTERFACE ${LLVM_DEFINITIONS_LIST}
                           CUCL_CLANG_RESOURCE_DIR="${CUCL_CLANG_RESOURCE_DIR}")
target_compile_options(cucl_llvm INTERFACE -fno-rtti)
target_link_libraries(cucl_llvm INTERFACE LLVM clang-cpp ${LLVM_SPIRV_LIB} SPIRV-Tools-static)
