# Finds the Debian packages nanograph builds on. Each failure names the package to install.
find_package(Threads REQUIRED)

function(ng_missing what package)
  message(FATAL_ERROR "nanograph needs ${what}: install it with `apt-get install ${package}`")
endfunction()

find_package(OpenBLAS CONFIG QUIET)
find_path(NG_CBLAS_INCLUDE cblas.h HINTS ${OpenBLAS_INCLUDE_DIRS}
          PATHS /usr/include/x86_64-linux-gnu/openblas-pthread)
find_library(NG_OPENBLAS_LIBRARY NAMES openblas HINTS ${OpenBLAS_LIBRARIES})
if(NOT NG_CBLAS_INCLUDE OR NOT NG_OPENBLAS_LIBRARY)
  ng_missing("OpenBLAS (cblas.h, libopenblas)" libopenblas-dev)
endif()
add_library(ng::openblas INTERFACE IMPORTED)
target_include_directories(ng::openblas INTERFACE ${NG_CBLAS_INCLUDE})
target_link_libraries(ng::openblas INTERFACE ${NG_OPENBLAS_LIBRARY})

find_package(xsimd 8 CONFIG QUIET)
if(NOT xsimd_FOUND)
  ng_missing("xsimd (>= 8)" libxsimd-dev)
endif()
add_library(ng::xsimd INTERFACE IMPORTED)
target_link_libraries(ng::xsimd INTERFACE xsimd)
# Debian's xsimd package lists xtl as a link dependency although xsimd is header-only and
# libxtl-dev is not installed: without a target of that name, targets that link xsimd
# publicly (nanograph_internal and the internal tests) get a stray -lxtl.
if(NOT TARGET xtl)
  add_library(xtl INTERFACE IMPORTED)
endif()

find_path(NG_DLPACK_INCLUDE dlpack/dlpack.h)
if(NOT NG_DLPACK_INCLUDE)
  ng_missing("the DLPack header dlpack/dlpack.h" libdlpack-dev)
endif()
add_library(ng::dlpack INTERFACE IMPORTED)
target_include_directories(ng::dlpack INTERFACE ${NG_DLPACK_INCLUDE})

if(NG_BUILD_TESTS)
  find_package(cmocka CONFIG QUIET)
  if(NOT cmocka_FOUND)
    ng_missing("CMocka for the tests (or -DNG_BUILD_TESTS=OFF)" libcmocka-dev)
  endif()
  # Debian's CMocka 1.1.5 config sets variables only; newer ones define the target.
  if(NOT TARGET cmocka::cmocka)
    add_library(cmocka::cmocka INTERFACE IMPORTED)
    target_include_directories(cmocka::cmocka INTERFACE ${CMOCKA_INCLUDE_DIR})
    target_link_libraries(cmocka::cmocka INTERFACE ${CMOCKA_LIBRARIES})
  endif()
endif()

# zlib: the checksum (CRC-32) of checkpoint files, and the examples' data loaders.
find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  ng_missing("zlib" zlib1g-dev)
endif()

# Protocol Buffers: the library compiles the schemas it reads and writes (ONNX's onnx.proto, as
# Debian's libonnx-dev ships it) with protoc into its own hidden objects, against the lite runtime,
# which registers no descriptors globally and so survives dlopen/dlclose by a host.
find_package(Protobuf QUIET)
if(NOT Protobuf_FOUND OR NOT TARGET protobuf::libprotobuf-lite OR NOT Protobuf_PROTOC_EXECUTABLE)
  ng_missing("Protocol Buffers (libprotobuf-lite and protoc)" "libprotobuf-dev protobuf-compiler")
endif()
find_file(NG_ONNX_PROTO onnx.proto PATHS /usr/include/onnx NO_DEFAULT_PATH)
if(NOT NG_ONNX_PROTO)
  find_file(NG_ONNX_PROTO onnx/onnx.proto)
endif()
if(NOT NG_ONNX_PROTO)
  ng_missing("ONNX's schema onnx/onnx.proto" libonnx-dev)
endif()
