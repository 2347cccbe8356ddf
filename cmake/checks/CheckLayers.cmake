# cmake -DSOURCE_DIR=<repository root> -P CheckLayers.cmake
#
# The layers include only layers below them (docs/architecture.md), lowest first:
#   core, kernels, graph, passes, autodiff, train, runtime, io, capi
# Every #include "<layer>/..." in src/<layer>/ and capi/ must name the file's own layer or one
# below it; the first violations are listed with file and line. Takes well under a second.
cmake_minimum_required(VERSION 3.25)
set(layers core kernels graph passes autodiff train runtime io capi)
file(GLOB_RECURSE sources "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp"
     "${SOURCE_DIR}/src/*.def" "${SOURCE_DIR}/capi/*.cpp" "${SOURCE_DIR}/capi/*.hpp"
     "${SOURCE_DIR}/capi/*.h" "${SOURCE_DIR}/capi/*.c")
if(NOT sources)
  message(FATAL_ERROR "no sources under SOURCE_DIR='${SOURCE_DIR}'")
endif()
set(violations)
foreach(file IN LISTS sources)
  file(RELATIVE_PATH relative "${SOURCE_DIR}" "${file}")
  if(relative MATCHES "^capi/")
    set(own capi)
  elseif(relative MATCHES "^src/([^/]+)/")
    set(own ${CMAKE_MATCH_1})
  else()
    continue()
  endif()
  list(FIND layers ${own} own_rank)
  if(own_rank LESS 0)
    list(APPEND violations "${relative}: folder '${own}' is not a layer (add it to this check)")
    continue()
  endif()
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^/\"]+/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\"([^/\"]+)/" _ "${line}")
    list(FIND layers "${CMAKE_MATCH_1}" rank)
    if(rank GREATER own_rank)
      string(STRIP "${line}" line)
      list(APPEND violations "${relative} (${own}): ${line}")
    endif()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " report)
  message(FATAL_ERROR "includes of a higher layer (a layer uses only the layers below it):\n"
                      "  ${report}")
endif()
list(LENGTH sources count)
message(STATUS "${count} files include only their own layer and those below it")
