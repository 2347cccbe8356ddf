// The N-d iteration space of a strided driver: a shape and one stride vector per operand (in
// elements, 0 = broadcast), simplified before the loop runs (seed 002's flattening): size-1
// dimensions dropped, dimensions reordered, adjacent dimensions merged when every operand allows.
//
// Drivers keep their space in a thread_local so that a run reuses the vectors' capacity and does
// not allocate after warm-up.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernels.hpp"

namespace ng::kernels {

// Elements per tile of the innermost dimension: a few tiles of doubles fit in L1 together.
constexpr int64_t kTile = 2048;

class IterationSpace {
public:
    // Validates shape (non-negative) and that every operand has one stride per dimension.
    void assign(const char *driver, const std::vector<int64_t> &shape,
                std::initializer_list<const Strided *> first,
                const std::vector<Strided> &rest = {});

    int32_t rank() const { return static_cast<int32_t>(shape_.size()); }
    int32_t operands() const { return static_cast<int32_t>(strides_.size()); }
    int64_t dim(int32_t d) const { return shape_[d]; }
    int64_t stride(int32_t op, int32_t d) const { return strides_[op][d]; }
    int64_t last_stride(int32_t op) const { return strides_[op].back(); }
    int64_t numel() const;  // after assign: 0 if any dimension is 0
    // Product of dim(first..last-1).
    int64_t count(int32_t first, int32_t last) const;

    // Drops size-1 dimensions; leaves one dimension of length 1 (strides 0) for a single element.
    void drop_unit_dims();
    // Stable-sorts dimensions [0, end) by decreasing |stride| of operand `op`.
    void sort_by_stride(int32_t op, int32_t end);
    // Stable-partitions dimensions [0, end): those where `pred(d)` holds go first. Returns how
    // many.
    template <class Pred>
    int32_t partition(int32_t end, Pred pred);
    // Merges adjacent dimensions d, d+1 when stride[d] == stride[d+1] * dim(d+1) for every operand.
    void coalesce();

    // Adds to offsets[op] the offset of the point with linear index `linear` in the row-major
    // enumeration of dimensions [first, last).
    void add_offsets(int32_t first, int32_t last, int64_t linear, int64_t *offsets) const;

private:
    void apply_order();

    std::vector<int64_t> shape_;
    std::vector<std::vector<int64_t>> strides_;
    std::vector<int32_t> order_;  // scratch for reordering
    std::vector<int64_t> tmp_;
};

template <class Pred>
int32_t IterationSpace::partition(int32_t end, Pred pred) {
    order_.clear();
    for (int32_t d = 0; d < end; ++d)
        if (pred(d)) order_.push_back(d);
    auto first = static_cast<int32_t>(order_.size());
    for (int32_t d = 0; d < rank(); ++d)
        if (d >= end || !pred(d)) order_.push_back(d);
    apply_order();
    return first;
}

// Per-thread, 64-byte aligned scratch memory that grows and never shrinks (so a steady-state run
// does not allocate). Each thread has a few independent areas.
enum class ScratchArea : int32_t { Tile, Operands, Partials, Row, Count };
void *thread_scratch(ScratchArea area, size_t bytes);

// Strided copies of n elements of `size` bytes.
void gather(size_t size, int64_t n, const void *src, int64_t src_stride, void *dst);
void scatter(size_t size, int64_t n, const void *src, void *dst, int64_t dst_stride);
// dst[i * dst_stride] = *value for i < n.
void broadcast(size_t size, int64_t n, const void *value, void *dst, int64_t dst_stride);

inline char *advance(void *p, int64_t elements, size_t size) {
    return static_cast<char *>(p) + elements * static_cast<int64_t>(size);
}

}  // namespace ng::kernels
