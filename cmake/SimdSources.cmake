# Kernels are compiled once per instruction set and chosen at run time by xsimd's dispatch, so
# the library runs on any x86-64 and uses AVX2/FMA or AVX-512 where the CPU has them. A source
# file says which instruction set it is for by its name's suffix.
#
# GCC 12's own avx512fintrin.h reads _mm512_undefined_*() values that it leaves uninitialised on
# purpose, which -Wmaybe-uninitialized reports inside xsimd's calls (and -Wuninitialized too, when
# ThreadSanitizer's instrumentation changes what is inlined): silenced for those files only.
foreach(src IN LISTS NG_SOURCES)
  if(src MATCHES "_avx512\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512cd;-mavx512bw;-mavx512dq;-mavx2;-mfma;-Wno-maybe-uninitialized;-Wno-uninitialized")
  elseif(src MATCHES "_avx2\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
  endif()
endforeach()
