# test_train reads the digits data shipped with the examples, with zlib.
if(TARGET test_train)
  find_package(ZLIB REQUIRED)
  target_link_libraries(test_train PRIVATE ZLIB::ZLIB)
  target_compile_definitions(test_train PRIVATE NG_DIGITS_CSV="${PROJECT_SOURCE_DIR}/examples/data/digits.csv.gz")
endif()
