# Install rules: headers, the shared library, pkg-config file and CMake package.
include(CMakePackageConfigHelpers)

install(TARGETS nanograph EXPORT nanographTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nanograph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT nanographTargets NAMESPACE nanograph::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nanograph)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/nanographConfig.cmake.in
  ${PROJECT_BINARY_DIR}/nanographConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nanograph)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/nanographConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/nanographConfig.cmake ${PROJECT_BINARY_DIR}/nanographConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/nanograph)
configure_file(${PROJECT_SOURCE_DIR}/cmake/nanograph.pc.in ${PROJECT_BINARY_DIR}/nanograph.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/nanograph.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
