# bench_smoke: bench_transformer --quick builds, runs and checks every benchmark workload at
# small sizes, so the benchmark cannot rot. It asserts results, never times.
if(NG_BUILD_BENCH)
  add_test(NAME bench_smoke COMMAND $<TARGET_FILE:bench_transformer> --quick --threads 2)
  set_tests_properties(bench_smoke PROPERTIES LABELS "bench" TIMEOUT 60)
endif()
