# dlpack_peers: DLPack exchange with NumPy and PyTorch, driven by /usr/bin/python3 through ctypes
# on the built libnanograph.so. Registered only when that interpreter has both peers.
set(NG_PEERS_PYTHON /usr/bin/python3)
if(EXISTS ${NG_PEERS_PYTHON})
  execute_process(COMMAND ${NG_PEERS_PYTHON} -c "import numpy, torch"
                  RESULT_VARIABLE NG_PEERS_IMPORT OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT EXISTS ${NG_PEERS_PYTHON} OR NOT NG_PEERS_IMPORT EQUAL 0)
  message(STATUS "dlpack_peers test skipped: ${NG_PEERS_PYTHON} with numpy and torch not found "
                 "(apt-get install python3-numpy python3-torch)")
  return()
endif()

add_test(NAME dlpack_peers
         COMMAND ${NG_PEERS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/dlpack_peers.py $<TARGET_FILE:nanograph>)
if(NG_SANITIZE)
  # The interpreter is not instrumented: the sanitizer runtime must come first, and libstdc++
  # with it so that its __cxa_throw interceptor finds the real one. Python's own allocations
  # are not ours to leak-check.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE NG_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                  OUTPUT_VARIABLE NG_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
  set_tests_properties(dlpack_peers PROPERTIES
    ENVIRONMENT "LD_PRELOAD=${NG_LIBASAN} ${NG_LIBSTDCXX};ASAN_OPTIONS=detect_leaks=0")
endif()
