# embedding_doc: the dlopen host printed in docs/embedding.md (its first ```c block) compiles
# as strict C99 without warnings, against the headers only, and runs against the built library.
set(NG_DOC_HOST_FLAGS "")
if(NG_SANITIZE)
  # A program loading a sanitized library must itself link the sanitizer runtimes first.
  set(NG_DOC_HOST_FLAGS "-fsanitize=address,undefined")
endif()
add_test(NAME embedding_doc
         COMMAND ${CMAKE_COMMAND} -DDOC=${PROJECT_SOURCE_DIR}/docs/embedding.md
                 -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include -DC_COMPILER=${CMAKE_C_COMPILER}
                 -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/embedding-doc
                 -DLIBRARY=$<TARGET_FILE:nanograph> -DEXTRA_FLAGS=${NG_DOC_HOST_FLAGS}
                 -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckDocHost.cmake)
set_tests_properties(embedding_doc PROPERTIES PASS_REGULAR_EXPRESSION "x float64: 2 5 10")
