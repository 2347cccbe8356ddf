# dlopen_host: loads the built libnanograph.so with dlopen (not linked) and uses it through
# ng_get_api alone: runs a threaded computation and dlcloses it, three times; the transformer's
# threads must be gone each time, and the library unmapped after each dlclose.
add_executable(dlopen_host ${CMAKE_CURRENT_SOURCE_DIR}/dlopen_host.c)
target_include_directories(dlopen_host PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dlopen_host PRIVATE cmocka::cmocka ${CMAKE_DL_LIBS} m)
add_dependencies(dlopen_host nanograph)
add_test(NAME dlopen_host COMMAND dlopen_host $<TARGET_FILE:nanograph>)
# The same 1,000 times: no thread and no memory may be left behind (too slow under the
# sanitizers and valgrind, which run the three cycles above).
add_test(NAME dlopen_host_1000 COMMAND dlopen_host $<TARGET_FILE:nanograph> 1000)
set_tests_properties(dlopen_host_1000 PROPERTIES LABELS "nosan;novalgrind")
