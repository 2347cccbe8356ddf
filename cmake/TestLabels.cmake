# ng_label_tests_by_layer(): gives every test of the calling directory the CTest labels of the
# layers it tests, so `ctest -L kernels` runs the kernels' tests (tests/README.md has the table).
# A test takes the labels of every row its name matches (comma-separated in the table). A test
# that no row matches is a configure error, not a silent default: a new test gets a row, or a
# name a row matches. Labels set elsewhere may only be the markers below (threads: the tsan
# preset's tests; nosan and novalgrind: tests those runs leave out), so a misspelt or stray label
# is an error too. Call it at the end of every CMakeLists.txt that adds tests, after its tests and
# their markers; ng_check_tests_labelled() at the top level checks that no directory forgot.
set(NG_TEST_MARKERS threads nosan novalgrind)
set(NG_TEST_LAYERS
  # regex on the test name              layers
  "^internal_test_kernels_"             "kernels"
  "^internal_test_thread_pool$"         "kernels"
  "^internal_test_tensor_"              "core"
  "^internal_test_passes_"              "passes,runtime"
  "^internal_test_op_attrs$"            "graph,passes"
  "^internal_test_onnx_rules$"          "io"
  "^test_tensor"                        "core,capi"
  "^test_(jagged|shape|reshape)"        "core,capi"
  "^test_allocator$"                    "core,runtime"
  "^test_(segment|gather)$"             "graph,kernels,runtime"
  "^test_(graph|dot_export)$"           "graph"
  "^test_deep_graphs$"                  "graph,autodiff,passes,io"
  "^test_ops_"                          "graph"
  "^test_(autodiff|gradcheck_)"         "autodiff"
  "^test_(optim|train)$"                "train"
  "^test_exec_(ops_simplify|views|views_compose|assign_fusion|ordering)$" "passes,runtime"
  "^test_exec_gemm_fusion$"             "passes,kernels,runtime"
  "^test_exec_(ops|ops_edges|dot|reduce|reduce_large|softmax)$" "kernels,runtime"
  "^test_exec_(packed_weights|random)$" "kernels,runtime"
  "^test_exec_(basic|outputs|recycle|repeat)$" "runtime"
  "^test_exec_state$"                   "graph,runtime"
  "^test_lifetimes$"                    "runtime,capi"
  "^test_(dlpack|serialize|checkpoint|onnx)$" "io"
  "^(dlpack_peers|tensorproto_tf)$"     "io"
  "^onnx_(checker|conformance|mlp_onnxruntime)$" "io"
  "^example_"                           "examples"
  "^bench_"                             "bench"
  "^test_(boundary|errors|api|threads|abi_v1|fault_injection)$" "capi"
  "^(dlopen_host|dlopen_host_1000|install|api_table_complete|embedding_doc)$" "capi"
  "^(subproject|subproject_build_type)$" "capi"
  "^(exported_symbols|declared_functions_exported|headers_standalone)$" "capi"
  "^include_direction$"                 "layers"
)

function(ng_label_tests_by_layer)
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
    if(NOT labels)
      message(FATAL_ERROR "test ${test} has no row in cmake/TestLabels.cmake: add one with the "
                          "layers it tests (and to the table of tests/README.md)")
    endif()
    get_test_property(${test} LABELS markers)
    if(markers)
      foreach(marker IN LISTS markers)
        if(NOT marker IN_LIST NG_TEST_MARKERS)
          string(REPLACE ";" ", " markers_allowed "${NG_TEST_MARKERS}")
          message(FATAL_ERROR "test ${test} carries the label '${marker}', set outside "
                              "cmake/TestLabels.cmake: only ${markers_allowed} may be")
        endif()
      endforeach()
      list(APPEND labels ${markers})
    endif()
    list(REMOVE_DUPLICATES labels)
    set_tests_properties(${test} PROPERTIES LABELS "${labels}")
    set_property(GLOBAL APPEND PROPERTY NG_LABELLED_TESTS ${test})
  endforeach()
endfunction()

# ng_check_tests_labelled(): fails the configure step when a directory added tests without
# calling ng_label_tests_by_layer().
function(ng_check_tests_labelled)
  get_property(labelled GLOBAL PROPERTY NG_LABELLED_TESTS)
  set(dirs ${PROJECT_SOURCE_DIR})
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(tests DIRECTORY ${dir} PROPERTY TESTS)
    foreach(test IN LISTS tests)
      if(NOT test IN_LIST labelled)
        message(FATAL_ERROR "test ${test} (added in ${dir}) has no labels: that directory's "
                            "CMakeLists.txt must end with ng_label_tests_by_layer()")
      endif()
    endforeach()
  endwhile()
endfunction()
