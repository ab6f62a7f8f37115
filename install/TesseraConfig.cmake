# TesseraConfig.cmake: the Tessera compiler and runtime for CMake projects.
#
#   find_package(Tessera REQUIRED)
#   add_executable(app main.c)
#   tessera_add_kernels(app SOURCES kernels/relu.tess ARCH sm_80 sm_90)
#
# Provides:
#   Tessera::tessc        the compiler (an imported executable)
#   Tessera::tessrt       libtessrt, shared (include directory attached)
#   Tessera::tessrt_static libtessrt.a with its own dependencies
#   TESSERA_TESSC         the compiler's path
#   tessera_add_kernels(TARGET SOURCES f.tess... [ARCH sm_80 ...]
#                       [OPTIONS tessc-options...] [OUTPUT_DIR dir])
#     compiles each .tess at build time with
#       tessc f.tess --emit header,source --arch ... -MD -MF f.d -o OUTPUT_DIR
#     (the depfile makes edits to the .tess rebuild it), adds f.c to TARGET,
#     puts OUTPUT_DIR on TARGET's include path (#include "f.h") and links
#     TARGET with Tessera::tessrt. ARCH defaults to sm_90.
#
# The package is relocatable: every path is found from this file's place,
# PREFIX/lib/cmake/Tessera.
cmake_minimum_required(VERSION 3.20)

get_filename_component(_tessera_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(TESSERA_TESSC "${_tessera_prefix}/bin/tessc")
set(TESSERA_INCLUDE_DIR "${_tessera_prefix}/include")
set(TESSERA_VERSION "@VERSION@")

if(NOT TARGET Tessera::tessc)
  add_executable(Tessera::tessc IMPORTED)
  set_target_properties(Tessera::tessc PROPERTIES IMPORTED_LOCATION "${TESSERA_TESSC}")
endif()
if(NOT TARGET Tessera::tessrt)
  add_library(Tessera::tessrt SHARED IMPORTED)
  set_target_properties(Tessera::tessrt PROPERTIES
    IMPORTED_LOCATION "${_tessera_prefix}/lib/libtessrt.so"
    IMPORTED_SONAME "libtessrt.so"
    INTERFACE_INCLUDE_DIRECTORIES "${TESSERA_INCLUDE_DIR}")
endif()
if(NOT TARGET Tessera::tessrt_static)
  add_library(Tessera::tessrt_static STATIC IMPORTED)
  set_target_properties(Tessera::tessrt_static PROPERTIES
    IMPORTED_LOCATION "${_tessera_prefix}/lib/libtessrt.a"
    INTERFACE_INCLUDE_DIRECTORIES "${TESSERA_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "cjson;dl;pthread")
endif()

function(tessera_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TK "" "OUTPUT_DIR" "SOURCES;ARCH;OPTIONS")
  if(NOT TK_SOURCES)
    message(FATAL_ERROR "tessera_add_kernels(${target}): no SOURCES")
  endif()
  if(TK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tessera_add_kernels(${target}): unknown arguments ${TK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TK_ARCH)
    set(TK_ARCH sm_90)
  endif()
  if(NOT TK_OUTPUT_DIR)
    set(TK_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/tessera/${target}")
  endif()
  string(REPLACE ";" "," _archs "${TK_ARCH}")
  file(MAKE_DIRECTORY "${TK_OUTPUT_DIR}")
  foreach(_src IN LISTS TK_SOURCES)
    get_filename_component(_abs "${_src}" ABSOLUTE)
    get_filename_component(_stem "${_src}" NAME_WLE)
    set(_h "${TK_OUTPUT_DIR}/${_stem}.h")
    set(_c "${TK_OUTPUT_DIR}/${_stem}.c")
    set(_d "${TK_OUTPUT_DIR}/${_stem}.d")
    add_custom_command(
      OUTPUT "${_h}" "${_c}"
      COMMAND "${TESSERA_TESSC}" "${_abs}" --emit header,source --arch "${_archs}"
              -o "${TK_OUTPUT_DIR}" -MF "${_d}" ${TK_OPTIONS}
      DEPENDS "${_abs}" "${TESSERA_TESSC}"
      DEPFILE "${_d}"
      COMMENT "tessc ${_src}"
      VERBATIM)
    target_sources(${target} PRIVATE "${_c}" "${_h}")
  endforeach()
  target_include_directories(${target} PRIVATE "${TK_OUTPUT_DIR}")
  target_link_libraries(${target} PRIVATE Tessera::tessrt)
endfunction()
