# ONNX: the exported models pass ONNX's checker (onnx_checker, on the models test_onnx writes), and
# ONNX's backend node tests run through the importer (onnx_conformance, docs/onnx.md). Both need
# /usr/bin/python3 with onnx and numpy (python3-onnx) and the test data (libonnx-testdata).
set(NG_ONNX_MODELS ${CMAKE_CURRENT_BINARY_DIR}/onnx_models)
file(MAKE_DIRECTORY ${NG_ONNX_MODELS})
set_tests_properties(test_onnx PROPERTIES FIXTURES_SETUP onnx_models
                     ENVIRONMENT "NG_ONNX_OUT=${NG_ONNX_MODELS}")

set(NG_ONNX_PYTHON /usr/bin/python3)
set(NG_ONNX_TESTDATA /usr/share/libonnx-testdata/data/node)
if(EXISTS ${NG_ONNX_PYTHON})
  execute_process(COMMAND ${NG_ONNX_PYTHON} -c "import onnx, numpy"
                  RESULT_VARIABLE NG_ONNX_IMPORT OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT EXISTS ${NG_ONNX_PYTHON} OR NOT NG_ONNX_IMPORT EQUAL 0 OR NOT EXISTS ${NG_ONNX_TESTDATA})
  message(STATUS "ONNX checker and conformance tests skipped: ${NG_ONNX_PYTHON} with onnx and "
                 "numpy, or ${NG_ONNX_TESTDATA}, not found "
                 "(apt-get install python3-onnx libonnx-testdata)")
  return()
endif()

add_test(NAME onnx_checker
         COMMAND ${NG_ONNX_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/onnx/check_models.py ${NG_ONNX_MODELS})
set_tests_properties(onnx_checker PROPERTIES FIXTURES_REQUIRED onnx_models)
add_test(NAME onnx_conformance
         COMMAND ${NG_ONNX_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/onnx/conformance.py
                 $<TARGET_FILE:nanograph> --data ${NG_ONNX_TESTDATA})
# The MLP of train_mlp, exported, in ONNX Runtime (from PyPI into a virtual environment in the
# build folder; skipped, exit code 77, where it cannot be installed).
if(NG_BUILD_EXAMPLES)
  add_test(NAME onnx_mlp_onnxruntime
           COMMAND ${NG_ONNX_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/onnx/mlp_onnxruntime.py
                   $<TARGET_FILE:train_mlp> $<TARGET_FILE:nanograph>
                   ${PROJECT_SOURCE_DIR}/examples/data/digits.csv.gz
                   ${CMAKE_CURRENT_BINARY_DIR}/onnx_mlp)
  set_tests_properties(onnx_mlp_onnxruntime PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
if(NG_SANITIZE)
  # As for dlpack_peers: the interpreter is not instrumented.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE NG_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                  OUTPUT_VARIABLE NG_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
  set_tests_properties(onnx_conformance PROPERTIES
    ENVIRONMENT "LD_PRELOAD=${NG_LIBASAN} ${NG_LIBSTDCXX};ASAN_OPTIONS=detect_leaks=0")
  if(TEST onnx_mlp_onnxruntime)
    set_tests_properties(onnx_mlp_onnxruntime PROPERTIES
      ENVIRONMENT "LD_PRELOAD=${NG_LIBASAN} ${NG_LIBSTDCXX};ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()
