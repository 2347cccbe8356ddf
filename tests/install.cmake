# install: installs the build into a temporary prefix and builds and runs a client against the
# installed tree with pkg-config and with find_package, and the C programs of README.md and
# docs/index.md the same way (tests/install/run_install_test.sh).
find_program(NG_BASH bash REQUIRED)
set(NG_INSTALL_CLIENT_FLAGS "")
if(NG_SANITIZE)
  # A program loading a sanitized library must itself link the sanitizer runtimes first.
  set(NG_INSTALL_CLIENT_FLAGS "-fsanitize=address,undefined")
endif()
# The Python binding imported against the installed library, with NANOGRAPH_LIBRARY unset: needs
# /usr/bin/python3 with NumPy (python3-numpy), and a build without the sanitizers (an interpreter
# cannot load a sanitized library).
set(NG_INSTALL_PYTHON "")
if(NOT NG_SANITIZE)
  set(NG_INSTALL_PYTHON_IMPORT 1)
  if(EXISTS /usr/bin/python3)
    execute_process(COMMAND /usr/bin/python3 -c "import numpy"
                    RESULT_VARIABLE NG_INSTALL_PYTHON_IMPORT OUTPUT_QUIET ERROR_QUIET)
  endif()
  if(NG_INSTALL_PYTHON_IMPORT EQUAL 0)
    set(NG_INSTALL_PYTHON /usr/bin/python3)
  else()
    message(STATUS "install test: the Python binding's part skipped, no /usr/bin/python3 with "
                   "numpy (apt-get install python3-numpy)")
  endif()
endif()
add_test(NAME install
         COMMAND ${NG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/run_install_test.sh
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install-test
                 ${CMAKE_C_COMPILER} ${CMAKE_COMMAND} "${NG_INSTALL_CLIENT_FLAGS}"
                 "${NG_INSTALL_PYTHON}")
