/* Loading the classification data sets the training examples use: Fashion-MNIST (IDX files,
 * gzip-compressed) and the small digits CSV shipped in examples/data. Pixels are scaled to
 * [0, 1]; labels are class indices. */
#ifndef NG_EXAMPLES_DATASETS_H
#define NG_EXAMPLES_DATASETS_H

#include <stdint.h>

typedef struct dataset {
    int64_t count;    /* number of examples */
    int64_t features; /* values per example */
    int32_t classes;  /* labels are 0 .. classes-1 */
    float *pixels;    /* count * features, example after example */
    uint8_t *labels;  /* count */
} dataset_t;

/* Each returns 0 on success; on failure prints why to stderr, returns -1 and leaves the
 * dataset empty. Free with dataset_free(). */

/* <dir>/<prefix>-images-idx3-ubyte.gz and <dir>/<prefix>-labels-idx1-ubyte.gz
 * (prefix "train" or "t10k"). */
int dataset_load_idx(const char *dir, const char *prefix, dataset_t *out);

/* One example a line: the feature values then the label, comma separated; values are divided
 * by `scale`. Every `test_every`-th line (counting from 0) goes to `test`, the others to `train`.
 */
int dataset_load_csv(const char *path, double scale, int32_t test_every, dataset_t *train,
                     dataset_t *test);

/* 1 when both Fashion-MNIST files for `prefix` exist in `dir`. */
int dataset_idx_present(const char *dir, const char *prefix);

void dataset_free(dataset_t *d);

/* Puts order[0..n) in a random order (Fisher-Yates over splitmix64), advancing *state: the same
 * state gives the same order on every machine. */
void dataset_shuffle(int64_t *order, int64_t n, uint64_t *state);

#endif
