# test_abi_v1: a host compiled against a frozen copy of version 1 of the function table
# (tests/abi/ng_api_v1.h, never edited) loads the library with dlopen and uses it through
# ng_get_api(1); it keeps passing as long as the table only grows at its end.
add_executable(test_abi_v1 ${CMAKE_CURRENT_SOURCE_DIR}/abi/test_abi_v1.c)
target_include_directories(test_abi_v1 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/abi)
target_link_libraries(test_abi_v1 PRIVATE cmocka::cmocka ${CMAKE_DL_LIBS} m)
add_dependencies(test_abi_v1 nanograph)
add_test(NAME test_abi_v1 COMMAND test_abi_v1 $<TARGET_FILE:nanograph>)

# The function table and the exported functions are the same set (also checked after each link).
add_test(NAME api_table_complete
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:nanograph> -DNM=${CMAKE_NM}
                 -DHEADER=${PROJECT_SOURCE_DIR}/include/nanograph/api.h
                 -DTABLE=${NG_API_TABLE}
                 -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckApiTable.cmake)
