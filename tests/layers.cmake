# include_direction: every source includes only its own layer and the layers below it
# (cmake/checks/CheckLayers.cmake); a text scan, no compiler.
add_test(NAME include_direction
         COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckLayers.cmake)
