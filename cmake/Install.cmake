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

# The .pc file finds its prefix relative to itself, so `cmake --install --prefix <dir>` (a prefix
# chosen after configuring) gives a working file too.
set(NG_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
set(NG_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  file(RELATIVE_PATH NG_PC_UP "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" NG_PC_UP "${NG_PC_UP}")
  set(NG_PC_PREFIX "\${pcfiledir}/${NG_PC_UP}")
  set(NG_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(NG_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(NG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/nanograph.pc.in ${PROJECT_BINARY_DIR}/nanograph.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/nanograph.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
