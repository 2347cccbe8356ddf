/* tensor_basics: nanograph's host tensors in five steps.
 *
 *   1. a tensor holding a copy of your data;
 *   2. views (transpose, slice, broadcast): new shapes and strides over the same memory, no copy;
 *   3. writing through one handle and reading through a view;
 *   4. wrapping memory you allocated, with a deleter nanograph calls when the last view goes;
 *   5. what a failure looks like: a NULL or a status, and a message naming the function.
 *
 * Every call is checked; on failure the program prints ng_last_error() and stops.
 */
#include <nanograph/nanograph.h>
#include <stdio.h>
#include <stdlib.h>

/* Stops the program when a call that returns a tensor failed. */
static ng_tensor_t *check(ng_tensor_t *t, const char *what) {
    if (t == NULL) {
        fprintf(stderr, "%s failed: %s\n", what, ng_last_error());
        exit(EXIT_FAILURE);
    }
    return t;
}

/* Stops the program when a call that returns a status failed. */
static void check_status(ng_status_t status, const char *what) {
    if (status != NG_OK) {
        fprintf(stderr, "%s failed (%s): %s\n", what, ng_status_string(status), ng_last_error());
        exit(EXIT_FAILURE);
    }
}

/* Prints "name: shape (d0, d1) strides (s0, s1)" and the values of a float32 tensor of rank 1 or
 * 2, read out densely whatever its strides. */
static void print_tensor(const char *name, const ng_tensor_t *t) {
    const int32_t rank = ng_tensor_rank(t);
    const int64_t numel = ng_tensor_numel(t);
    if (rank < 1 || rank > 2 || numel < 0 || ng_tensor_dtype(t) != NG_FLOAT32) {
        fprintf(stderr, "print_tensor: %s is not a float32 vector or matrix\n", name);
        exit(EXIT_FAILURE);
    }
    printf("%s: shape (", name);
    for (int32_t i = 0; i < rank; ++i)
        printf("%s%lld", i ? ", " : "", (long long)ng_tensor_dim(t, i));
    printf(") strides (");
    for (int32_t i = 0; i < rank; ++i)
        printf("%s%lld", i ? ", " : "", (long long)ng_tensor_stride(t, i));
    printf(")\n");

    const size_t bytes = (size_t)numel * sizeof(float);
    float *values = malloc(bytes > 0 ? bytes : 1); /* malloc(0) may return NULL */
    if (values == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    check_status(ng_tensor_read(t, values, bytes), "ng_tensor_read");
    const int64_t columns = ng_tensor_dim(t, rank - 1);
    for (int64_t i = 0; i < numel; ++i)
        printf("%s%6.1f%s", i % columns == 0 ? "  [" : "", values[i],
               (i + 1) % columns == 0 ? " ]\n" : "");
    free(values);
}

/* The deleter of the memory wrapped in step 4: nanograph calls it once, when the last tensor
 * using the memory is released. */
static void free_wrapped(void *data, void *ctx) {
    printf("deleter: freeing the memory of %s\n", (const char *)ctx);
    free(data);
}

int main(void) {
    printf("nanograph %s\n\n", ng_version_string());

    /* 1. A 2x3 matrix, copied from a C array in row-major order. */
    const float values[2][3] = {{1, 2, 3}, {4, 5, 6}};
    const int64_t shape[2] = {2, 3};
    ng_tensor_t *m =
        check(ng_tensor_from_data(NG_FLOAT32, shape, 2, values), "ng_tensor_from_data");
    print_tensor("m", m);

    /* 2. Views. A transpose swaps the strides; a slice moves the start and scales a stride; a
     *    broadcast repeats a dimension with stride 0. None of them copies an element. */
    ng_tensor_t *mt = check(ng_tensor_transpose(m), "ng_tensor_transpose");
    print_tensor("transpose(m)", mt);

    ng_tensor_t *reversed_columns =
        check(ng_tensor_slice(m, 1, INT64_MAX, INT64_MIN, -1), "ng_tensor_slice");
    print_tensor("m[:, ::-1]", reversed_columns);

    ng_tensor_t *row = check(ng_tensor_slice(m, 0, 1, 2, 1), "ng_tensor_slice"); /* m[1:2, :] */
    const int64_t row_shape[1] = {3};
    ng_tensor_t *row_vector = check(ng_tensor_reshape(row, row_shape, 1), "ng_tensor_reshape");
    const int64_t tiled_shape[2] = {4, 3};
    ng_tensor_t *tiled =
        check(ng_tensor_broadcast(row_vector, tiled_shape, 2), "ng_tensor_broadcast");
    print_tensor("broadcast(m[1], (4, 3))", tiled);

    /* 3. Views share storage: write m again and the transpose sees the new values. */
    const float tens[2][3] = {{10, 20, 30}, {40, 50, 60}};
    check_status(ng_tensor_write(m, tens, sizeof tens), "ng_tensor_write");
    print_tensor("transpose(m) after writing m", mt);

    /* 4. Wrap memory allocated here, without copying. nanograph owns it from now on and calls the
     *    deleter when the last handle over it goes: here the slice outlives the wrapper. */
    float *buffer = malloc(6 * sizeof *buffer);
    if (buffer == NULL) return EXIT_FAILURE;
    for (int i = 0; i < 6; ++i) buffer[i] = (float)(i * i);
    ng_tensor_t *wrapped =
        ng_tensor_wrap(NG_FLOAT32, shape, NULL, 2, buffer, free_wrapped, "the wrapped buffer");
    if (wrapped == NULL) free(buffer); /* ownership passes only on success */
    check(wrapped, "ng_tensor_wrap");
    ng_tensor_t *last_column = check(ng_tensor_slice(wrapped, 1, 2, 3, 1), "ng_tensor_slice");
    print_tensor("wrapped[:, 2:3]", last_column);
    ng_tensor_release(wrapped);
    print_tensor("the same slice, after releasing the wrapper", last_column);
    ng_tensor_release(last_column); /* the deleter runs now */

    /* 5. A failure: 6 elements cannot be reshaped to 4. The call returns NULL and says why. */
    const int64_t bad_shape[1] = {4};
    ng_tensor_t *bad = ng_tensor_reshape(m, bad_shape, 1);
    printf("\nreshape (2, 3) -> (4): %s, %s: %s\n", bad == NULL ? "NULL" : "a tensor?!",
           ng_status_string(ng_last_status()), ng_last_error());
    ng_tensor_release(bad); /* NULL is accepted */

    ng_tensor_release(tiled);
    ng_tensor_release(row_vector);
    ng_tensor_release(row);
    ng_tensor_release(reversed_columns);
    ng_tensor_release(mt);
    ng_tensor_release(m);
    return bad == NULL ? EXIT_SUCCESS : EXIT_FAILURE;
}
