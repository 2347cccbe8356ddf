# dlopen_host: loads the built libnanograph.so with dlopen (not linked), runs a threaded
# computation and dlcloses it, three times; the transformer's threads must be gone each time.
add_executable(dlopen_host ${CMAKE_CURRENT_SOURCE_DIR}/dlopen_host.c)
target_include_directories(dlopen_host PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dlopen_host PRIVATE cmocka::cmocka ${CMAKE_DL_LIBS} m)
add_dependencies(dlopen_host nanograph)
add_test(NAME dlopen_host COMMAND dlopen_host $<TARGET_FILE:nanograph>)
