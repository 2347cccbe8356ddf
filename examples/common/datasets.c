#include "datasets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define IDX_IMAGES_MAGIC 2051u
#define IDX_LABELS_MAGIC 2049u
#define CSV_MAX_LINE 4096

void dataset_free(dataset_t *d) {
    free(d->pixels);
    free(d->labels);
    memset(d, 0, sizeof *d);
}

static void idx_path(char *buf, size_t cap, const char *dir, const char *prefix, const char *kind) {
    snprintf(buf, cap, "%s/%s-%s-ubyte.gz", dir, prefix, kind);
}

int dataset_idx_present(const char *dir, const char *prefix) {
    char images[4096], labels[4096];
    idx_path(images, sizeof images, dir, prefix, "images-idx3");
    idx_path(labels, sizeof labels, dir, prefix, "labels-idx1");
    return access(images, R_OK) == 0 && access(labels, R_OK) == 0;
}

/* Reads exactly n bytes; 0 on success. */
static int read_exact(gzFile f, void *dst, size_t n, const char *path) {
    unsigned char *p = dst;
    while (n > 0) {
        unsigned chunk = n > (1u << 30) ? (1u << 30) : (unsigned)n;
        int got = gzread(f, p, chunk);
        if (got <= 0) {
            fprintf(stderr, "%s: truncated or unreadable\n", path);
            return -1;
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

static int read_be32(gzFile f, uint32_t *value, const char *path) {
    unsigned char b[4];
    if (read_exact(f, b, 4, path) != 0) return -1;
    *value = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return 0;
}

/* Opens an IDX file and reads its header: the magic number and `ndims` dimensions. */
static gzFile open_idx(const char *path, uint32_t magic, uint32_t *dims, int ndims) {
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return NULL;
    }
    uint32_t found;
    if (read_be32(f, &found, path) != 0) goto fail;
    if (found != magic) {
        fprintf(stderr, "%s: not an IDX file of this kind (magic %u, expected %u)\n", path, found,
                magic);
        goto fail;
    }
    for (int i = 0; i < ndims; ++i)
        if (read_be32(f, &dims[i], path) != 0) goto fail;
    return f;
fail:
    gzclose(f);
    return NULL;
}

int dataset_load_idx(const char *dir, const char *prefix, dataset_t *out) {
    char images_path[4096], labels_path[4096];
    idx_path(images_path, sizeof images_path, dir, prefix, "images-idx3");
    idx_path(labels_path, sizeof labels_path, dir, prefix, "labels-idx1");
    memset(out, 0, sizeof *out);

    uint32_t image_dims[3], label_count;
    gzFile images = open_idx(images_path, IDX_IMAGES_MAGIC, image_dims, 3);
    if (!images) return -1;
    gzFile labels = open_idx(labels_path, IDX_LABELS_MAGIC, &label_count, 1);
    if (!labels) {
        gzclose(images);
        return -1;
    }
    int status = -1;
    unsigned char *raw = NULL;
    if (label_count != image_dims[0]) {
        fprintf(stderr, "%s has %u images but %s has %u labels\n", images_path, image_dims[0],
                labels_path, label_count);
        goto done;
    }
    out->count = image_dims[0];
    out->features = (int64_t)image_dims[1] * image_dims[2];
    out->classes = 10;
    size_t values = (size_t)out->count * (size_t)out->features;
    raw = malloc(values ? values : 1);
    out->pixels = malloc((values ? values : 1) * sizeof(float));
    out->labels = malloc(out->count ? (size_t)out->count : 1);
    if (!raw || !out->pixels || !out->labels) {
        fprintf(stderr, "out of memory loading %s\n", images_path);
        goto done;
    }
    if (read_exact(images, raw, values, images_path) != 0) goto done;
    if (read_exact(labels, out->labels, (size_t)out->count, labels_path) != 0) goto done;
    for (size_t i = 0; i < values; ++i) out->pixels[i] = raw[i] / 255.0f;
    for (int64_t i = 0; i < out->count; ++i)
        if (out->labels[i] >= out->classes) {
            fprintf(stderr, "%s: label %u of example %lld is not a class 0..9\n", labels_path,
                    out->labels[i], (long long)i);
            goto done;
        }
    status = 0;
done:
    free(raw);
    gzclose(images);
    gzclose(labels);
    if (status != 0) dataset_free(out);
    return status;
}

/* Appends one example to d, growing its arrays; 0 on success. */
static int append(dataset_t *d, const float *values, uint8_t label, int64_t *capacity) {
    if (d->count == *capacity) {
        int64_t grown = *capacity ? *capacity * 2 : 256;
        float *pixels = realloc(d->pixels, (size_t)(grown * d->features) * sizeof(float));
        if (!pixels) return -1;
        d->pixels = pixels;
        uint8_t *labels = realloc(d->labels, (size_t)grown);
        if (!labels) return -1;
        d->labels = labels;
        *capacity = grown;
    }
    memcpy(d->pixels + d->count * d->features, values, (size_t)d->features * sizeof(float));
    d->labels[d->count++] = label;
    return 0;
}

/* Parses "v0,v1,...,label"; returns the number of values before the label, -1 when malformed. */
static int64_t parse_line(char *line, float *values, int64_t max_values, double scale, int *label) {
    int64_t n = 0;
    char *cursor = line;
    for (;;) {
        char *end;
        double v = strtod(cursor, &end);
        if (end == cursor) return -1;
        while (*end == ' ' || *end == '\r' || *end == '\n') ++end;
        if (*end == '\0') {
            if (v < 0 || v > 255 || v != (int)v) return -1;
            *label = (int)v;
            return n;
        }
        if (*end != ',' || n == max_values) return -1;
        values[n++] = (float)(v / scale);
        cursor = end + 1;
    }
}

int dataset_load_csv(const char *path, double scale, int32_t test_every, dataset_t *train,
                     dataset_t *test) {
    memset(train, 0, sizeof *train);
    memset(test, 0, sizeof *test);
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    char line[CSV_MAX_LINE];
    float values[CSV_MAX_LINE / 2];
    int64_t train_capacity = 0, test_capacity = 0, line_number = 0;
    int status = -1, max_label = 0;
    while (gzgets(f, line, sizeof line)) {
        size_t length = strlen(line);
        if (length == sizeof line - 1 && line[length - 1] != '\n') {
            fprintf(stderr, "%s:%lld: line longer than %d characters\n", path,
                    (long long)line_number + 1, CSV_MAX_LINE);
            goto done;
        }
        int label;
        int64_t n = parse_line(line, values, CSV_MAX_LINE / 2, scale, &label);
        if (n <= 0 || (train->features && n != train->features)) {
            fprintf(stderr, "%s:%lld: malformed line\n", path, (long long)line_number + 1);
            goto done;
        }
        train->features = test->features = n;
        if (label > max_label) max_label = label;
        int to_test = test_every > 0 && line_number % test_every == 0;
        if (append(to_test ? test : train, values, (uint8_t)label,
                   to_test ? &test_capacity : &train_capacity) != 0) {
            fprintf(stderr, "out of memory loading %s\n", path);
            goto done;
        }
        ++line_number;
    }
    if (line_number == 0) {
        fprintf(stderr, "%s: no examples\n", path);
        goto done;
    }
    train->classes = test->classes = max_label + 1;
    status = 0;
done:
    gzclose(f);
    if (status != 0) {
        dataset_free(train);
        dataset_free(test);
    }
    return status;
}

/* splitmix64: a tiny generator whose sequence does not depend on the C library. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void dataset_shuffle(int64_t *order, int64_t n, uint64_t *state) {
    for (int64_t i = n - 1; i > 0; --i) {
        int64_t j = (int64_t)(next_random(state) % (uint64_t)(i + 1));
        int64_t swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
}
