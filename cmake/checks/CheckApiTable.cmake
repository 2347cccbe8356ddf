# cmake -DLIBRARY=<libnanograph.so> -DHEADER=<include/nanograph/api.h> -DTABLE=<the generated api_table.c>
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

include("${CMAKE_CURRENT_LIST_DIR}/ApiFields.cmake")
ng_api_fields("${HEADER}" fields)

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
         "    at the END of struct ng_api in include/nanograph/api.h (the table is generated)")
  endif()
endforeach()
foreach(field IN LISTS fields)
  if(NOT "ng_${field}" IN_LIST symbols)
    list(APPEND problems "ng_api_t has a field ${field}, but the library exports no ng_${field}")
  endif()
  if(NOT field IN_LIST table_fields)
    list(APPEND problems "${TABLE} has no entry '.${field} = ng_${field},' (regenerate it)")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n  " lines)
  message(FATAL_ERROR "the function table (ng_get_api) does not match the exported functions:\n  ${lines}")
endif()
list(LENGTH fields count)
message(STATUS "ng_api_t: ${count} entries, one per exported function")
