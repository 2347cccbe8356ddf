/**
 * @file base.h
 * @brief Version, status codes, dtypes and the opaque handle types shared by every nanograph
 * header.
 *
 * Conventions of the whole API:
 * - Functions that create a handle return it, or NULL on failure; other fallible functions return
 *   an ::ng_status_t (::NG_OK is 0). After a failure, ng_last_status() and ng_last_error() (both
 *   thread-local) say what went wrong; a fallible call that succeeds resets them to ::NG_OK / "".
 *   `*_destroy`, `*_release` and `*_retain` return void, accept NULL and leave the error alone.
 * - Counts and ranks are `int32_t`, dimensions and strides `int64_t` (strides in elements), byte
 *   sizes `size_t`. An array argument may be NULL when its count is 0.
 * - Nothing aborts, nothing leaks on a failure path, and out-parameters are NULL/0 on failure.
 * - Structs that may grow (options, stats) start with `size_t struct_size`, set by the caller to
 *   `sizeof` the struct as it was compiled; the library reads and writes only that many bytes.
 * - Every function is also reachable through the function table of ng_get_api() (api.h).
 */
#ifndef NANOGRAPH_BASE_H
#define NANOGRAPH_BASE_H

#include <stddef.h>
#include <stdint.h>

/* NG_API marks a declaration as part of the exported C API (everything else in the library is
 * hidden). Define NG_STATIC when linking nanograph statically; the library's own build defines
 * NG_BUILDING_LIBRARY (export), programs using the shared library define nothing (import). */
#if defined(NG_STATIC)
#define NG_API
#elif defined(_WIN32)
#if defined(NG_BUILDING_LIBRARY)
#define NG_API __declspec(dllexport)
#else
#define NG_API __declspec(dllimport)
#endif
#else
/** Marks a declaration as part of the exported C API (everything else in the library is hidden). */
#define NG_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @name Version */
/**@{*/
/* clang-format would split a trailing comment this long into a continued macro, which
   bindings/python/generate.py reads as no value: the comment stays above the macro. */
/** Major version: changes break the ABI (soname libnanograph.so.0). */
#define NG_VERSION_MAJOR 0
#define NG_VERSION_MINOR 1        /**< Minor version: additions only. */
#define NG_VERSION_PATCH 0        /**< Patch version: fixes only. */
#define NG_VERSION_STRING "0.1.0" /**< The version as "MAJOR.MINOR.PATCH". */
/**@}*/

/**
 * @brief The version of the loaded library, as MAJOR*10000 + MINOR*100 + PATCH.
 * @return The version number; compare with the NG_VERSION_* macros to detect a header/library
 * mismatch.
 */
NG_API int32_t ng_version_number(void);

/**
 * @brief The version of the loaded library as a static string "MAJOR.MINOR.PATCH".
 * @return A string owned by the library, valid for its lifetime.
 */
NG_API const char *ng_version_string(void);

/** @brief The result of a fallible call: ::NG_OK or one of the NG_ERR_* codes. Values are only ever
 * appended. */
typedef int32_t ng_status_t;

/** @brief Status codes. */
enum ng_status_code {
    NG_OK = 0, /**< Success. */
    NG_ERR_INVALID_ARGUMENT =
        1,                    /**< A NULL handle, a negative or overflowing size, a bad option. */
    NG_ERR_AXES = 2,          /**< Axes or shapes that do not match. */
    NG_ERR_DTYPE = 3,         /**< A dtype that is unknown or not allowed here. */
    NG_ERR_OUT_OF_MEMORY = 4, /**< An allocation failed. */
    NG_ERR_NOT_FOUND = 5,     /**< A name or key that does not exist. */
    NG_ERR_UNSUPPORTED = 6,   /**< Valid, but not supported (yet, or by this backend). */
    NG_ERR_STATE = 7,         /**< The object is not in a state that allows the call. */
    NG_ERR_IO = 8,            /**< Reading or writing a file failed. */
    NG_ERR_FORMAT = 9,        /**< Data that does not follow its format. */
    NG_ERR_INTERNAL = 10,     /**< A bug in nanograph: please report it with the message. */
    /** Never returned. Its presence makes the enum's type signed 32-bit, as ::ng_status_t is,
     * so binding generators (bindgen, cgo) give the constants the type of ::ng_status_t. */
    NG_STATUS_SIGNED_ = -2147483647 - 1
};

/**
 * @brief The status of the calling thread's last fallible nanograph call.
 * @return ::NG_OK when that call succeeded (or none was made), otherwise its error code.
 */
NG_API ng_status_t ng_last_status(void);

/**
 * @brief The message of the calling thread's last failure, naming the function and the offending
 * value.
 * @return A thread-local string, "" when the last fallible call succeeded; valid until the thread's
 *         next nanograph call. Messages longer than 1023 bytes are cut, ending in "...".
 *
 * The error state belongs to the OS thread that made the call. Runtimes that move work between
 * OS threads (Go's goroutines, async executors, green threads) must read ng_last_status() and
 * ng_last_error() on the same OS thread as the failed call, with no other nanograph call in
 * between: in Go, wrap the call and the reads in one cgo call (a small C function that calls,
 * then copies the message), or hold runtime.LockOSThread() across them. The status returned by
 * the call itself is always reliable.
 */
NG_API const char *ng_last_error(void);

/**
 * @brief The name of a status code ("NG_OK", "NG_ERR_AXES", ...).
 * @param status Any value.
 * @return A static string; "NG_ERR_UNKNOWN" for a value that is not a status code.
 */
NG_API const char *ng_status_string(ng_status_t status);

/** @brief An element type. Values are only ever appended. */
typedef int32_t ng_dtype_t;

/** @brief Element types. */
enum ng_dtype_code {
    NG_BOOL = 1,    /**< One byte, 0 or 1. */
    NG_INT32 = 2,   /**< Signed 32-bit integer. */
    NG_INT64 = 3,   /**< Signed 64-bit integer. */
    NG_UINT8 = 4,   /**< Unsigned 8-bit integer. */
    NG_FLOAT32 = 5, /**< IEEE-754 binary32. */
    NG_FLOAT64 = 6, /**< IEEE-754 binary64. */
    /** Not a dtype. Its presence makes the enum's type signed 32-bit, as ::ng_dtype_t is, so
     * binding generators (bindgen, cgo) give the constants the type of ::ng_dtype_t. */
    NG_DTYPE_SIGNED_ = -2147483647 - 1
};

/**
 * @brief The size in bytes of one element of a dtype.
 * @param dtype One of the NG_* dtype codes.
 * @return The size, or 0 (with ::NG_ERR_DTYPE set) for an unknown dtype.
 */
NG_API size_t ng_dtype_size(ng_dtype_t dtype);

/**
 * @brief The name of a dtype ("float32", "int64", "bool", ...).
 * @param dtype Any value.
 * @return A static string; "invalid" for an unknown dtype.
 */
NG_API const char *ng_dtype_name(ng_dtype_t dtype);

/**
 * @brief Frees memory that the library handed to the caller (the bytes of ng_tensor_serialize(),
 * ng_onnx_export_bytes(), ...).
 * @param p The memory, or NULL (ignored).
 */
NG_API void ng_free(void *p);

/**
 * @brief Functions that provide the memory of tensors, computations' arenas and outputs, and
 * persistent values (ng_set_allocator()). Starts with struct_size; fields are only appended.
 */
typedef struct ng_allocator {
    size_t struct_size; /**< sizeof(ng_allocator_t) as the caller compiled it. */
    /** Returns `bytes` bytes (never 0) aligned to `alignment` (a power of two, 64 or more), or
     * NULL when it cannot: the library call then fails with ::NG_ERR_OUT_OF_MEMORY. May be
     * called from any thread, concurrently. */
    void *(*allocate)(size_t bytes, size_t alignment, void *ctx);
    /** Frees a block `allocate` returned, given the same size and alignment. May be called from
     * any thread. */
    void (*deallocate)(void *p, size_t bytes, size_t alignment, void *ctx);
    void *ctx; /**< Passed to both functions. */
} ng_allocator_t;

/**
 * @brief Installs the allocator for the library's large blocks of memory, process-wide.
 * @param allocator The functions (copied), or NULL for the default (posix_memalign and free).
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for a struct_size smaller than the first published
 *         struct or a missing function.
 *
 * Memory made before the call stays with the allocator that made it and is freed through it:
 * keep an allocator's functions and ctx valid until every tensor, computation and transformer
 * made while it was installed is gone. The library's small bookkeeping objects (graphs, ops,
 * handles) use the C++ allocator as before. A transformer given its own allocator
 * (ng_transformer_set_allocator()) uses that one instead for its values, arenas and outputs.
 */
NG_API ng_status_t ng_set_allocator(const ng_allocator_t *allocator);

/** @brief A graph: owns its ops and axes. */
typedef struct ng_graph ng_graph_t;
/** @brief A named axis of a given length; belongs to its graph. */
typedef struct ng_axis ng_axis_t;
/** @brief An op of a graph; its value is a tensor with a dtype and named axes. Belongs to its
 * graph. */
typedef struct ng_op ng_op_t;
/** @brief A host tensor: reference-counted, dtype, shape, strides and storage. */
typedef struct ng_tensor ng_tensor_t;
/** @brief A transformer: holds persistent values and compiles computations. */
typedef struct ng_transformer ng_transformer_t;
/** @brief A compiled computation of a transformer. */
typedef struct ng_computation ng_computation_t;

#ifdef __cplusplus
}
#endif

#endif
