# cmake -DDOC=<file.md> -DINCLUDE_DIR=<include> -DC_COMPILER=<cc> -DWORK_DIR=<dir>
#       -DLIBRARY=<libnanograph.so> [-DEXTRA_FLAGS=<flags>] -P CheckDocHost.cmake
#
# Extracts the first ```c block of DOC (a host that loads the library with dlopen), compiles it
# against the public headers alone as strict C99 with warnings as errors, links only libdl, and
# runs it with LIBRARY as its argument, printing its output.
cmake_minimum_required(VERSION 3.25)
file(READ "${DOC}" text)
string(FIND "${text}" "```c\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "no ```c block in ${DOC}")
endif()
math(EXPR start "${start} + 5")
string(SUBSTRING "${text}" ${start} -1 rest)
string(FIND "${rest}" "```" end)
string(SUBSTRING "${rest}" 0 ${end} program)
file(MAKE_DIRECTORY "${WORK_DIR}")
file(WRITE "${WORK_DIR}/host.c" "${program}")
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
execute_process(COMMAND "${C_COMPILER}" -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror
                        -pedantic ${extra} -I "${INCLUDE_DIR}" "${WORK_DIR}/host.c" -ldl
                        -o "${WORK_DIR}/host"
                RESULT_VARIABLE rc ERROR_VARIABLE diagnostics)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the host of ${DOC} does not compile:\n${diagnostics}")
endif()
execute_process(COMMAND "${WORK_DIR}/host" "${LIBRARY}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the host of ${DOC} failed (${rc})")
endif()
