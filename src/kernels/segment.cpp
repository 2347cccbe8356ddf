#include "kernels/segment.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/error.hpp"

namespace ng::kernels {

void check_segment_splits(const int64_t *splits, int64_t nseg, int64_t rows) {
    if (splits[0] != 0) throw invalid_argument("the row splits start at ", splits[0], ", not 0");
    for (int64_t s = 0; s < nseg; ++s)
        if (splits[s + 1] < splits[s])
            throw invalid_argument("the row splits decrease at entry ", s + 1, " (", splits[s],
                                   " then ", splits[s + 1], ")");
    if (splits[nseg] != rows)
        throw invalid_argument("the row splits end at ", splits[nseg], " but the jagged axis has ",
                               rows, " elements");
}

namespace {

// A segment of one element per row (inner == 1) sums into four accumulators, so the adds of a
// long segment do not wait on each other.
template <class T>
T sum_run(const T *x, int64_t n) {
    T a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += x[i];
        a1 += x[i + 1];
        a2 += x[i + 2];
        a3 += x[i + 3];
    }
    for (; i < n; ++i) a0 += x[i];
    return (a0 + a1) + (a2 + a3);
}

template <class T>
T lowest() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
}

template <class T>
void reduce_typed(bool max, const T *x, int64_t inner, const int64_t *splits, int64_t nseg,
                  T *out) {
    for (int64_t s = 0; s < nseg; ++s) {
        const int64_t begin = splits[s], end = splits[s + 1];
        T *o = out + s * inner;
        if (inner == 1) {
            if (!max) {
                o[0] = sum_run(x + begin, end - begin);
            } else {
                T m = lowest<T>();
                // NaN propagates like the dense max: any NaN makes the result NaN.
                for (int64_t j = begin; j < end; ++j) m = (x[j] > m || x[j] != x[j]) ? x[j] : m;
                o[0] = m;
            }
            continue;
        }
        std::fill(o, o + inner, max ? lowest<T>() : T(0));
        for (int64_t j = begin; j < end; ++j) {
            const T *row = x + j * inner;
            if (max)
                for (int64_t i = 0; i < inner; ++i)
                    o[i] = (row[i] > o[i] || row[i] != row[i]) ? row[i] : o[i];
            else
                for (int64_t i = 0; i < inner; ++i) o[i] += row[i];
        }
    }
}

}  // namespace

void segment_reduce(DType dt, bool max, const void *x, int64_t rows, int64_t inner,
                    const int64_t *splits, int64_t nseg, void *out) {
    check_segment_splits(splits, nseg, rows);
    if (inner == 0) return;
    visit_dtype(dt, [&](auto zero) {
        using T = decltype(zero);
        reduce_typed<T>(max, static_cast<const T *>(x), inner, splits, nseg, static_cast<T *>(out));
    });
}

void segment_gather(DType dt, const void *y, int64_t rows, int64_t inner, const int64_t *splits,
                    int64_t nseg, void *out) {
    check_segment_splits(splits, nseg, rows);
    const size_t size = dtype_size(dt);
    const size_t row_bytes = static_cast<size_t>(inner) * size;
    const char *src = static_cast<const char *>(y);
    char *dst = static_cast<char *>(out);
    if (inner == 1) {
        visit_dtype(dt, [&](auto zero) {
            using T = decltype(zero);
            const T *v = static_cast<const T *>(y);
            T *o = static_cast<T *>(out);
            for (int64_t s = 0; s < nseg; ++s) std::fill(o + splits[s], o + splits[s + 1], v[s]);
        });
        return;
    }
    for (int64_t s = 0; s < nseg; ++s)
        for (int64_t j = splits[s]; j < splits[s + 1]; ++j)
            std::memcpy(dst + static_cast<size_t>(j) * row_bytes,
                        src + static_cast<size_t>(s) * row_bytes, row_bytes);
}

}  // namespace ng::kernels
