# The benchmark cannot rot: both tests assert results and exit statuses, never times.
# - bench_smoke: bench_transformer --quick builds, runs and checks every workload at small sizes.
# - bench_peers_smoke: bench/run_all.py runs nanograph, NumPy and PyTorch on one small workload
#   and prints the table (needs Debian's python3-numpy and python3-torch, see .ci/packages.txt).
if(NG_BUILD_BENCH)
  add_test(NAME bench_smoke COMMAND $<TARGET_FILE:bench_transformer> --quick --threads 2)
  set_tests_properties(bench_smoke PROPERTIES LABELS "bench" TIMEOUT 60)

  find_program(NG_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NG_SYSTEM_PYTHON)
    execute_process(COMMAND ${NG_SYSTEM_PYTHON} -c "import numpy, torch"
                    RESULT_VARIABLE ng_bench_peers_missing OUTPUT_QUIET ERROR_QUIET)
    if(ng_bench_peers_missing EQUAL 0)
      add_test(NAME bench_peers_smoke
               COMMAND ${NG_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run_all.py
                       $<TARGET_FILE:bench_transformer> --quick --only tiny_add --threads 2)
      set_tests_properties(bench_peers_smoke PROPERTIES LABELS "bench" TIMEOUT 60)
    endif()
  endif()
endif()
