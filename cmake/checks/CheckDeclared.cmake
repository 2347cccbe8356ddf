# cmake -DLIBRARY=<libnanograph.so> -DHEADER_DIR=<include/nanograph> [-DNM=<nm>] -P CheckDeclared.cmake
#
# Fails when a public header declares an NG_API function that the library does not export: a
# program calling it would compile and then fail to link.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ExportedSymbols.cmake")
ng_exported_symbols(symbols)
list(TRANSFORM symbols REPLACE "@.*$" "")

file(GLOB headers "${HEADER_DIR}/*.h")
if(NOT headers)
  message(FATAL_ERROR "no headers in HEADER_DIR='${HEADER_DIR}'")
endif()
set(missing)
set(declared_count 0)
foreach(header IN LISTS headers)
  file(READ "${header}" text)
  # "NG_API <return type> ng_name(" up to the first parenthesis of the declaration.
  string(REGEX MATCHALL "NG_API[^;(]*[ *]ng_[A-Za-z0-9_]+ *\\(" declarations "${text}")
  foreach(declaration IN LISTS declarations)
    string(REGEX MATCH "ng_[A-Za-z0-9_]+ *\\($" name "${declaration}")
    string(REGEX REPLACE " *\\($" "" name "${name}")
    math(EXPR declared_count "${declared_count} + 1")
    if(NOT name IN_LIST symbols)
      get_filename_component(header_name "${header}" NAME)
      list(APPEND missing "${name} (${header_name})")
    endif()
  endforeach()
endforeach()
if(missing)
  list(JOIN missing "\n  " missing_lines)
  message(FATAL_ERROR "declared in the public headers but not exported by ${LIBRARY}:\n  ${missing_lines}")
endif()
message(STATUS "all ${declared_count} declared NG_API functions are exported")
