# Fault injection: tests/faultinject/failmalloc.c is an LD_PRELOAD allocator wrapper that fails a
# chosen allocation (and thread creation) and counts the blocks still live; the test program runs
# a small complete program with each allocation failing in turn. Not under the sanitizers (their
# runtime must be the first library and owns malloc).
add_library(failmalloc SHARED ${CMAKE_CURRENT_SOURCE_DIR}/faultinject/failmalloc.c)
target_link_libraries(failmalloc PRIVATE ${CMAKE_DL_LIBS})
set_target_properties(failmalloc PROPERTIES C_VISIBILITY_PRESET hidden)

add_executable(test_fault_injection ${CMAKE_CURRENT_SOURCE_DIR}/faultinject/test_fault_injection.c)
target_link_libraries(test_fault_injection PRIVATE nanograph cmocka::cmocka ng::dlpack
                      ${CMAKE_DL_LIBS} m)
add_test(NAME test_fault_injection COMMAND test_fault_injection)
set_tests_properties(test_fault_injection PROPERTIES
  ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:failmalloc>;OPENBLAS_NUM_THREADS=1"
  LABELS nosan)
if(NG_SANITIZE)
  set_tests_properties(test_fault_injection PROPERTIES ENVIRONMENT "")
endif()
