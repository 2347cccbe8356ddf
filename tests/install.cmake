# install: installs the build into a temporary prefix and builds and runs a client against the
# installed tree with pkg-config and with find_package, and the C programs of README.md and
# docs/index.md the same way (tests/install/run_install_test.sh).
find_program(NG_BASH bash REQUIRED)
set(NG_INSTALL_CLIENT_FLAGS "")
if(NG_SANITIZE)
  # A program loading a sanitized library must itself link the sanitizer runtimes first.
  set(NG_INSTALL_CLIENT_FLAGS "-fsanitize=address,undefined")
endif()
add_test(NAME install
         COMMAND ${NG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/run_install_test.sh
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install-test
                 ${CMAKE_C_COMPILER} ${CMAKE_COMMAND} "${NG_INSTALL_CLIENT_FLAGS}")
