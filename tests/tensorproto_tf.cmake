# tensorproto_tf: TensorProto bytes exchanged with TensorFlow's Python package, through ctypes on
# the built libnanograph.so. TensorFlow is not a Debian package and CI does not install it: the
# test then reports itself skipped. Point NG_TF_PYTHON at an interpreter that has it to run it.
find_program(NG_DEFAULT_PYTHON NAMES python3)
set(NG_TF_PYTHON ${NG_DEFAULT_PYTHON} CACHE FILEPATH "Python interpreter with TensorFlow")
if(NOT NG_TF_PYTHON)
  return()
endif()
add_test(NAME tensorproto_tf
         COMMAND ${NG_TF_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tensorproto_tf.py
                 $<TARGET_FILE:nanograph>)
# Python loading the library cannot run under the sanitizers.
set_tests_properties(tensorproto_tf PROPERTIES SKIP_RETURN_CODE 77 LABELS "nosan")
