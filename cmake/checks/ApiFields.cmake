# ng_api_fields(<header> <out-var>): the fields of struct ng_api in <header> (include/nanograph/
# api.h), in order: each declaration up to its ';' names its field in the first "(*name)".
function(ng_api_fields header out)
  file(READ "${header}" header_text)
  string(REGEX MATCH "typedef struct ng_api {(.*)} ng_api_t;" body "${header_text}")
  if(NOT body)
    message(FATAL_ERROR "${header}: no 'typedef struct ng_api { ... } ng_api_t;'")
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
  set(${out} "${fields}" PARENT_SCOPE)
endfunction()
