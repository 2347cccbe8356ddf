# cmake -DLIBRARY=<libnanograph.so> -DHEADER=<include/nanograph/api.h> -DTABLE=<capi/api_table.c>
#       [-DNM=<nm>] -P CheckApiTable.cmake
#
# Fails unless the function table and the exported functions are the same set: every exported
# ng_* function but ng_get_api has a field in struct ng_api (named without "ng_") and an entry in
# the table, and every field names an exported function. Run after each link of the library and
# by CTest, so adding a public function without its table entry fails the build.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/ExportedSymbols.cmake")
ng_exported_symbols(symbols)
list(FILTER symbols INCLUDE REGEX "^ng_")
list(TRANSFORM symbols REPLACE "@.*$" "")
list(REMOVE_ITEM symbols ng_get_api)

# The struct's fields: each declaration up to its ';' names its field in the first "(*name)".
file(READ "${HEADER}" header_text)
string(REGEX MATCH "typedef struct ng_api {(.*)} ng_api_t;" body "${header_text}")
if(NOT body)
  message(FATAL_ERROR "${HEADER}: no 'typedef struct ng_api { ... } ng_api_t;'")
endif()
set(body "${CMAKE_MATCH_1}")
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" body "${body}")  # comments
string(REPLACE ";" "\n@@\n" body "${body}")  # CMake lists use ';': split on a marker instead
string(REGEX MATCHALL "[^@]+" declarations "${body}")
set(fields)
foreach(declaration IN LISTS declarations)
  if(declaration MATCHES "\\(\\*([A-Za-z0-9_]+)\\)")
    list(APPEND fields "${CMAKE_MATCH_1}")
  endif()
endforeach()

# The table's entries: ".name = ng_name,".
file(READ "${TABLE}" table_text)
string(REGEX MATCHALL "\\.[A-Za-z0-9_]+ *= *[A-Za-z0-9_]+" entries "${table_text}")
set(table_fields)
set(problems)
foreach(entry IN LISTS entries)
  string(REGEX MATCH "^\\.([A-Za-z0-9_]+) *= *([A-Za-z0-9_]+)$" _ "${entry}")
  list(APPEND table_fields "${CMAKE_MATCH_1}")
  if(NOT CMAKE_MATCH_2 STREQUAL "ng_${CMAKE_MATCH_1}")
    list(APPEND problems "${TABLE}: .${CMAKE_MATCH_1} is set to ${CMAKE_MATCH_2}, not ng_${CMAKE_MATCH_1}")
  endif()
endforeach()

foreach(symbol IN LISTS symbols)
  string(REGEX REPLACE "^ng_" "" field "${symbol}")
  if(NOT field IN_LIST fields)
    list(APPEND problems
         "${symbol} is exported but ng_api_t has no field for it: append\n"
         "      <return type> (*${field})(<parameters>); /**< ${symbol}() */\n"
         "    at the END of struct ng_api in include/nanograph/api.h, and\n"
         "      .${field} = ${symbol},\n"
         "    at the END of the table in capi/api_table.c")
  endif()
endforeach()
foreach(field IN LISTS fields)
  if(NOT "ng_${field}" IN_LIST symbols)
    list(APPEND problems "ng_api_t has a field ${field}, but the library exports no ng_${field}")
  endif()
  if(NOT field IN_LIST table_fields)
    list(APPEND problems "${TABLE} has no entry '.${field} = ng_${field},' (append it at the end)")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n  " lines)
  message(FATAL_ERROR "the function table (ng_get_api) does not match the exported functions:\n  ${lines}")
endif()
list(LENGTH fields count)
message(STATUS "ng_api_t: ${count} entries, one per exported function")
