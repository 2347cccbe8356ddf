# cmake -DLIBRARY=<libnanograph.so> [-DNM=<nm>] [-DOBJDUMP=<objdump>] -P CheckExports.cmake
#
# Fails unless the library exports the C API alone: every defined dynamic symbol is an ng_*
# function bound to the NANOGRAPH_<major> version node (or that node itself), there is at least
# one, and the soname is libnanograph.so.<major>. Run by CTest and by .ci/run.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ExportedSymbols.cmake")
ng_exported_symbols(symbols)

set(stray)
set(api_count 0)
foreach(symbol IN LISTS symbols)
  if(symbol MATCHES "^ng_[A-Za-z0-9_]+@@NANOGRAPH_[0-9]+$")
    math(EXPR api_count "${api_count} + 1")
  elseif(NOT symbol MATCHES "^NANOGRAPH_[0-9]+$")
    list(APPEND stray "${symbol}")
  endif()
endforeach()
if(stray)
  list(JOIN stray "\n  " stray_lines)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside the C API (hide them or rename them ng_*):\n  ${stray_lines}")
endif()
if(api_count EQUAL 0)
  message(FATAL_ERROR "${LIBRARY} exports no ng_* function: is the version script applied?")
endif()

if(NOT OBJDUMP)
  find_program(OBJDUMP objdump REQUIRED)
endif()
execute_process(COMMAND "${OBJDUMP}" -p "${LIBRARY}" OUTPUT_VARIABLE headers RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT headers MATCHES "SONAME +libnanograph\\.so\\.[0-9]+\n")
  string(REGEX MATCH "SONAME[^\n]*" soname "${headers}")
  message(FATAL_ERROR "${LIBRARY}: expected the soname libnanograph.so.<major>, found '${soname}'")
endif()
message(STATUS "${LIBRARY}: ${api_count} ng_* functions exported, nothing else")
