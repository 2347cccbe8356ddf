# subproject: configures tests/subproject, a parent project that embeds nanograph with
# add_subdirectory, once without and once with a build type of its own (configuring only).
add_test(NAME subproject
         COMMAND ${CMAKE_COMMAND} -E env --unset=CMAKE_BUILD_TYPE
                 ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/subproject
                 -B ${CMAKE_CURRENT_BINARY_DIR}/subproject -G ${CMAKE_GENERATOR}
                 -DNG_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DNG_EXPECTED_BUILD_TYPE=)
add_test(NAME subproject_build_type
         COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/subproject
                 -B ${CMAKE_CURRENT_BINARY_DIR}/subproject-debug -G ${CMAKE_GENERATOR}
                 -DNG_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DCMAKE_BUILD_TYPE=MinSizeRel
                 -DNG_EXPECTED_BUILD_TYPE=MinSizeRel)
