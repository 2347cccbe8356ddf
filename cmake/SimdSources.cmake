# Kernels are compiled once per instruction set and chosen at run time by xsimd's dispatch, so
# the library runs on any x86-64 and uses AVX2/FMA or AVX-512 where the CPU has them. A source
# file says which instruction set it is for by its name's suffix.
#
# GCC 12's own avx512fintrin.h reads _mm512_undefined_*() values that it leaves uninitialised on
# purpose, which -Wmaybe-uninitialized reports inside xsimd's calls (and -Wuninitialized too, when
# ThreadSanitizer's instrumentation changes what is inlined): silenced for those files only (clang
# has no -Wmaybe-uninitialized).
#
# Their functions start on 64-byte boundaries: a kernel's loops then sit the same way against the
# CPU's fetch blocks whatever code the linker places before them (cmake/HotFunctions.cmake moves
# functions around), so a change of layout alone does not move a kernel's speed (check with
# `bench_ab --threads 1 --only softmax OLD.so NEW.so`).
#
# The fuzzing build (NG_BUILD_FUZZERS) compiles these files at -O0. Clang with the fuzzers'
# instrumentation took 3 to 11 minutes to optimise each of them (its chain loops are large),
# against about a minute at -O0. The fuzzers run the kernels on tensors of a few elements: in CI,
# two targets at a time, each target ran 0.67 to 1.6 times the executions a second that it ran
# alone with these files at -O2.
set(ng_fuzzing_options)
if(NG_BUILD_FUZZERS)
  set(ng_fuzzing_options -O0)
endif()
set(ng_avx512_options -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx2 -mfma
    -falign-functions=64 $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized> -Wno-uninitialized
    ${ng_fuzzing_options})
set(ng_avx2_options -mavx2 -mfma -falign-functions=64 ${ng_fuzzing_options})
set(ng_sse2_options -falign-functions=64 ${ng_fuzzing_options})
foreach(src IN LISTS NG_SOURCES)
  if(src MATCHES "_avx512\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${ng_avx512_options}")
  elseif(src MATCHES "_avx2\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${ng_avx2_options}")
  elseif(src MATCHES "_sse2\\.cpp$")  # x86-64's baseline: no instruction-set flags
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "${ng_sse2_options}")
  endif()
endforeach()
