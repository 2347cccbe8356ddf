# The benchmark cannot rot: both tests assert results and exit statuses, never times.
# - bench_smoke: bench_transformer --quick builds, runs and checks every workload at small sizes.
# - bench_peers_smoke: bench/run_all.py runs nanograph, NumPy and PyTorch on one small workload
#   and prints the table (needs Debian's python3-numpy and python3-torch: the bench group of
#   .ci/packages/).
# - bench_wrong_peer: a peer's wrong result is reported without failing the scripts; a crash, a
#   size mismatch or nanograph's wrong result fails them.
# - bench_goals: bench/goals.py's verdicts on made-up runs, each goal at its line and just past it.
# - bench_graph_size_smoke: bench/run_graph_size.py --quick runs every graph-size workload at 1,000
#   and 10,000 ops and checks their values.
# - bench_peak_against: bench/peak_against.py's comparison of two made-up builds' peaks.
# - bench_hot_functions: bench/hot_functions.py's reading of a made-up callgrind file and its
#   order of made-up functions, and cmake/hot-functions.txt against the built library.
# - bench_paired_smoke: bench/run_paired.py runs nanograph (through the Python binding), NumPy and
#   PyTorch in one process on every workload at small sizes and checks each library's result.
# - bench_bindings_call_smoke, bench_bindings_run_cost_smoke: the scripts that measure the Python
#   binding's cost per run run briefly; run_cost.py checks the row sums and each run's status, and
#   refuses a way it does not know (bench_bindings_run_cost_refusal_smoke).
if(NG_BUILD_BENCH)
  add_test(NAME bench_smoke COMMAND $<TARGET_FILE:bench_transformer> --quick --threads 2)
  set_tests_properties(bench_smoke PROPERTIES TIMEOUT 60)
  # bench_ab loads this build's library twice through dlopen and runs both in turn; given an
  # unknown workload it must refuse (exit 2) rather than measure something else.
  add_test(NAME bench_ab_smoke COMMAND $<TARGET_FILE:bench_ab> --quick --reps 2 --only l2_diff
                                       $<TARGET_FILE:nanograph> $<TARGET_FILE:nanograph>)
  # tanh_fma writes its result into an array bench_ab wraps (an output slot run in place); its
  # arrays start 16 bytes past a 64-byte boundary, and the result is still checked. Both run at
  # --quick sizes (under memcheck this one took 34 s at full size; the kernels' own tests cover
  # outputs large enough to bypass the cache).
  add_test(NAME bench_ab_output_smoke COMMAND $<TARGET_FILE:bench_ab> --quick --reps 1
                                              --only tanh_fma --offset 16 $<TARGET_FILE:nanograph>)
  # A network's logits: softmax rows of 10 and row sums of 13, each rep 50 runs, results checked.
  add_test(NAME bench_ab_shape_smoke COMMAND $<TARGET_FILE:bench_ab> --reps 2 --runs 50
                                             --only softmax --shape 128,10 $<TARGET_FILE:nanograph>)
  add_test(NAME bench_ab_shape_sum_smoke COMMAND $<TARGET_FILE:bench_ab> --reps 2 --runs 50
                                                 --only sum_axis1 --shape 128,13
                                                 $<TARGET_FILE:nanograph>)
  add_test(NAME bench_ab_shape_refusal_smoke
           COMMAND $<TARGET_FILE:bench_ab> --only l2_diff --shape 4,4 $<TARGET_FILE:nanograph>)
  add_test(NAME bench_ab_refusal_smoke
           COMMAND $<TARGET_FILE:bench_ab> --only exp $<TARGET_FILE:nanograph>)
  add_test(NAME bench_ab_offset_refusal_smoke
           COMMAND $<TARGET_FILE:bench_ab> --offset 6 $<TARGET_FILE:nanograph>)
  set_tests_properties(bench_ab_smoke bench_ab_output_smoke bench_ab_shape_smoke
                       bench_ab_shape_sum_smoke PROPERTIES TIMEOUT 60)
  # The refusal exits 2 by design, which memcheck's run (scripts/valgrind-tests) would count as a
  # failure; it stops before allocating anything.
  set_tests_properties(bench_ab_refusal_smoke bench_ab_offset_refusal_smoke
                       bench_ab_shape_refusal_smoke PROPERTIES LABELS novalgrind TIMEOUT 60)
  set_tests_properties(bench_ab_shape_refusal_smoke PROPERTIES PASS_REGULAR_EXPRESSION
                       "bench_ab: --shape is for softmax, sum_axis0 and sum_axis1, not: l2_diff")
  set_tests_properties(bench_ab_refusal_smoke PROPERTIES PASS_REGULAR_EXPRESSION
                       "bench_ab: --only takes l2_diff, sum_axis0, sum_axis1, tanh_fma or softmax, not: exp")
  set_tests_properties(bench_ab_offset_refusal_smoke PROPERTIES PASS_REGULAR_EXPRESSION
                       "bench_ab: --offset takes a multiple of 4 from 0 to 60")

  find_program(NG_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NG_SYSTEM_PYTHON)
    add_test(NAME bench_goals COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/tests/bench_goals.py)
    add_test(NAME bench_peak_against
             COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/tests/bench_peak_against.py)
    add_test(NAME bench_hot_functions
             COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/tests/bench_hot_functions.py
                     $<TARGET_FILE:nanograph>)
    add_test(NAME bench_graph_size_smoke
             COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_graph_size.py
                     $<TARGET_FILE:bench_graph_size> --quick --rounds 1)
    set_tests_properties(bench_goals bench_peak_against bench_hot_functions bench_graph_size_smoke
                         PROPERTIES LABELS novalgrind TIMEOUT 60)
    execute_process(COMMAND ${NG_SYSTEM_PYTHON} -c "import numpy, torch"
                    RESULT_VARIABLE ng_bench_peers_missing OUTPUT_QUIET ERROR_QUIET)
    if(ng_bench_peers_missing EQUAL 0)
      add_test(NAME bench_peers_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_all.py
                       $<TARGET_FILE:bench_transformer> --quick --only tiny_add --threads 2)
      # Every peer child imports its library afresh: slow on a loaded machine, hence the timeout.
      # At these sizes every library's result must pass its check: the scripts report a peer's
      # wrong result without failing, so the output is searched for it.
      set_tests_properties(bench_peers_smoke PROPERTIES TIMEOUT 240
                           FAIL_REGULAR_EXPRESSION "WRONG")
      add_test(NAME bench_wrong_peer
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/tests/bench_wrong_peer.py)
      set_tests_properties(bench_wrong_peer PROPERTIES LABELS novalgrind TIMEOUT 60)
      add_test(NAME bench_paired_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_paired.py
                       $<TARGET_FILE:nanograph> --quick --libs numpy,torch)
      set_tests_properties(bench_paired_smoke PROPERTIES TIMEOUT 240
                           FAIL_REGULAR_EXPRESSION "WRONG")
      add_test(NAME bench_paired_refusal_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_paired.py
                       $<TARGET_FILE:nanograph> --offset 6)
      set_tests_properties(bench_paired_refusal_smoke PROPERTIES LABELS novalgrind TIMEOUT 60
                           PASS_REGULAR_EXPRESSION "--offset wants a multiple of 4 from 0 below 2 MiB, not 6")
      set(ng_binding_environment NANOGRAPH_LIBRARY=$<TARGET_FILE:nanograph>
                                 PYTHONPATH=${PROJECT_SOURCE_DIR}/bindings/python)
      add_test(NAME bench_bindings_call_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/bindings/call.py 100)
      add_test(NAME bench_bindings_run_cost_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/bindings/run_cost.py 2)
      add_test(NAME bench_bindings_run_cost_refusal_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/bindings/run_cost.py 1 run,bogus)
      set_tests_properties(bench_bindings_call_smoke bench_bindings_run_cost_smoke
                           bench_bindings_run_cost_refusal_smoke
                           PROPERTIES TIMEOUT 120
                           ENVIRONMENT "${ng_binding_environment}")
      set_tests_properties(bench_bindings_run_cost_refusal_smoke PROPERTIES
                           PASS_REGULAR_EXPRESSION "run_cost.py: no way named bogus")
      # Segment ops, unpadded and padded, nanograph against NumPy and PyTorch at 10^4 elements.
      add_test(NAME bench_segment_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_segment.py
                       ${PROJECT_BINARY_DIR} --quick --reps 2)
      set_tests_properties(bench_segment_smoke PROPERTIES TIMEOUT 120 RUN_SERIAL TRUE)
    endif()
  endif()
endif()

# The training benchmark, likewise: bench_train --quick trains tiny networks and fails on
# a nanograph error or a non-finite loss (without Fashion-MNIST, only the SGD step on random data
# runs); bench_train_peers_smoke runs it with its peers through bench/run_train.py (PyTorch and
# NumPy from Debian; JAX and ONNX Runtime only where bench/setup-peers.sh installed them, which
# CI does not: the benchmark is not a test).
if(NG_BUILD_BENCH)
  if(EXISTS /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz)
    set(ng_bench_train_only "")
  else()
    set(ng_bench_train_only --only sgd_step)
  endif()
  add_test(NAME bench_train_smoke COMMAND $<TARGET_FILE:bench_train> --quick --threads 2 ${ng_bench_train_only})
  set_tests_properties(bench_train_smoke PROPERTIES TIMEOUT 60)
  if(NG_SYSTEM_PYTHON AND ng_bench_peers_missing EQUAL 0 AND NOT ng_bench_train_only)
    add_test(NAME bench_train_peers_smoke
             COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_train.py
                     $<TARGET_FILE:bench_train> --quick --threads 2)
    set_tests_properties(bench_train_peers_smoke PROPERTIES TIMEOUT 240
                         FAIL_REGULAR_EXPRESSION "WRONG")
  endif()
endif()
