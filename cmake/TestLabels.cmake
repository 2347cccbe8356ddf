# ng_label_tests_by_layer(): gives every test of the calling directory the CTest label of the layer
# it tests, so `ctest -L kernels` runs the kernels' tests (tests/README.md has the table).
# A test may carry several labels (comma-separated in the table); a C test no row names gets
# "capi" (tests/test_*.c all go through the C API). Call it at the end of a CMakeLists.txt, after
# its tests are added.
function(ng_label_tests_by_layer)
  set(NG_TEST_LAYERS
    # regex on the test name              layers
    "^internal_test_kernels_"             "kernels"
    "^internal_test_thread_pool$"         "kernels"
    "^internal_test_tensor_"              "core"
    "^internal_test_passes_"              "passes,runtime"
    "^test_tensor"                        "core,capi"
    "^test_(jagged|shape|reshape)"        "core,capi"
    "^test_segment$"                      "graph,kernels,runtime"
    "^test_(graph|dot_export)$"           "graph"
    "^test_ops_"                          "graph"
    "^test_(autodiff|gradcheck_)"         "autodiff"
    "^test_(optim|train)$"                "train"
    "^test_exec_(ops_simplify|views)"     "passes,runtime"
    "^test_exec_(ops|ops_edges|dot|reduce|reduce_large|softmax)$" "kernels,runtime"
    "^test_exec_(basic|outputs)$"         "runtime"
    "^test_deep_graphs$"                  "graph,autodiff,passes,io"
    "^test_lifetimes$"                    "runtime,capi"
    "^test_(dlpack|serialize|checkpoint)$" "io"
    "^dlpack_"                            "io"
    "^tensorproto"                        "io"
    "^example_"                           "examples"
    "^bench_"                             "bench"
    "^(test_(boundary|errors|api|threads)|dlopen_host|install|abi)" "capi"
    "^(exported_symbols|declared_functions_exported|headers_standalone)" "capi"
    "^include_direction$"                 "layers"
  )
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(LENGTH NG_TEST_LAYERS count)
  math(EXPR last "${count} - 1")
  foreach(test IN LISTS tests)
    set(labels "")
    foreach(i RANGE 0 ${last} 2)
      math(EXPR j "${i} + 1")
      list(GET NG_TEST_LAYERS ${i} pattern)
      list(GET NG_TEST_LAYERS ${j} layers)
      string(REPLACE "," ";" layers "${layers}")
      if(test MATCHES "${pattern}")
        list(APPEND labels ${layers})
      endif()
    endforeach()
    if(NOT labels AND test MATCHES "^test_")
      set(labels capi)
    endif()
    if(labels)
      list(REMOVE_DUPLICATES labels)
      set_property(TEST ${test} APPEND PROPERTY LABELS ${labels})
    endif()
  endforeach()
endfunction()
