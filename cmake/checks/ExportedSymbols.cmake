# ng_exported_symbols(<out-var>): the dynamic symbols LIBRARY defines, as "name@@VERSION" (or
# just the name for unversioned ones), read with `nm -D --defined-only`. Used by the scripts
# that check the library's exported surface; NM may name the nm to use.
function(ng_exported_symbols out)
  if(NOT NM)
    find_program(NM nm REQUIRED)
  endif()
  if(NOT EXISTS "${LIBRARY}")
    message(FATAL_ERROR "no library at LIBRARY='${LIBRARY}'")
  endif()
  execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
                  OUTPUT_VARIABLE listing RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${err}")
  endif()
  # Each line is "<address> <type> <symbol>".
  string(REGEX MATCHALL "[^\n]+" lines "${listing}")
  set(symbols)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" symbol "${line}")
    list(APPEND symbols "${symbol}")
  endforeach()
  set(${out} "${symbols}" PARENT_SCOPE)
endfunction()
