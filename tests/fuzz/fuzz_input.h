/* Decoding a fuzzer's input: every target reads its bytes through these, so an input that runs
 * out simply yields zeros and the program it describes ends. Header-only and C99, for the
 * targets in this directory. */
#ifndef NG_FUZZ_INPUT_H
#define NG_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, at;
} fuzz_input;

static inline fuzz_input fuzz_begin(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size, 0};
    return in;
}

static inline int fuzz_done(const fuzz_input *in) {
    return in->at >= in->size;
}

static inline uint8_t fuzz_u8(fuzz_input *in) {
    return in->at < in->size ? in->data[in->at++] : 0;
}

/* A value in [0, n), n > 0. */
static inline uint32_t fuzz_below(fuzz_input *in, uint32_t n) {
    return fuzz_u8(in) % n;
}

/* Eight bytes, little-endian: reaches the extremes (INT64_MIN, INT64_MAX) directly. */
static inline int64_t fuzz_i64(fuzz_input *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= (uint64_t)fuzz_u8(in) << (8 * i);
    int64_t s;
    memcpy(&s, &v, sizeof s);
    return s;
}

/* A small signed number, or now and then an extreme one: the dimension-like values that find
 * off-by-one and overflow errors without making every input huge. */
static inline int64_t fuzz_dim(fuzz_input *in) {
    uint8_t b = fuzz_u8(in);
    switch (b >> 5) {
    case 0: return fuzz_i64(in);
    case 1: return (int64_t)(b & 31) - 8;
    default: return (int64_t)(b & 7);
    }
}

#endif
