// The one strided walker: an N-d shape and one stride vector per operand (in elements, any sign,
// 0 = broadcast), simplified before a loop runs (size-1 dimensions dropped, dimensions reordered,
// adjacent dimensions merged when every operand allows), then walked row by row or entered at
// any linear position (for work split over threads). Host tensor copies, the kernels' drivers and
// the executor's index loops all iterate through it.
//
// A space keeps its vectors' capacity: one kept between calls (a thread_local) lets a warm run
// iterate without allocating.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace ng {

class StridedSpace {
public:
    // Starts a space of `shape` with no operands. Throws NG_ERR_INVALID_ARGUMENT, naming
    // `driver`, for a negative or overflowing shape.
    void reset(const char *driver, const Dims &shape);
    // Adds an operand; throws NG_ERR_INTERNAL unless it has one stride per dimension.
    void add_operand(const char *driver, const Dims &strides);

    int32_t rank() const { return static_cast<int32_t>(shape_.size()); }
    int32_t operands() const { return operands_; }
    int64_t dim(int32_t d) const { return shape_[d]; }
    int64_t stride(int32_t op, int32_t d) const { return strides_[op][d]; }
    int64_t last_stride(int32_t op) const { return strides_[op].back(); }
    int64_t numel() const;  // 0 if any dimension is 0
    // Product of dim(first..last-1).
    int64_t count(int32_t first, int32_t last) const;
    // The elements operand `op` spans: the product of the dimensions along which its stride is
    // not 0 (a broadcast operand repeats its elements along the others).
    int64_t elements_of(int32_t op) const;

    // Drops size-1 dimensions; leaves one dimension of length 1 (strides 0) for a single element.
    void drop_unit_dims();
    // Stable-sorts dimensions [0, end) by decreasing |stride| of operand `op`.
    void sort_by_stride(int32_t op, int32_t end);
    // Stable-partitions dimensions [0, end): those where `pred(d)` holds go first. Returns how
    // many.
    template <class Pred>
    int32_t partition(int32_t end, Pred pred);
    // Merges adjacent dimensions d, d+1 when stride[d] == stride[d+1] * dim(d+1) for every
    // operand (a product that overflows never matches).
    void coalesce();
    // The one simplification every loop over the space starts with: drop_unit_dims, sort by
    // operand `op`'s strides (the operand whose memory order the loop should follow), coalesce.
    // kKeepOrder skips the sort, for loops whose dimension order carries meaning (softmax's
    // reduced axis, a reduction with nothing to read). Call only when numel() > 0.
    static constexpr int32_t kKeepOrder = -1;
    void simplify_for(int32_t op);

    // Adds to offsets[op] the offset of the point with linear index `linear` in the row-major
    // enumeration of dimensions [first, last).
    void add_offsets(int32_t first, int32_t last, int64_t linear, int64_t *offsets) const;

    // Calls row(offsets) once per point of the outer dimensions [0, rank - 1), in row-major
    // order, with offsets[op] the element offset of operand op at the row's start; the row is the
    // last dimension (dim(rank() - 1) elements, last_stride(op) apart). Nothing when numel() is 0.
    template <class Row>
    void for_each_row(Row &&row);

private:
    void apply_order();

    Dims shape_;
    std::vector<Dims> strides_;  // the first operands_ are in use; the rest keep capacity
    int32_t operands_ = 0;
    std::vector<int32_t> order_;  // scratch for reordering
    Dims tmp_;
    Dims index_, offsets_;  // scratch for for_each_row
};

template <class Pred>
int32_t StridedSpace::partition(int32_t end, Pred pred) {
    order_.clear();
    for (int32_t d = 0; d < end; ++d)
        if (pred(d)) order_.push_back(d);
    auto first = static_cast<int32_t>(order_.size());
    for (int32_t d = 0; d < rank(); ++d)
        if (d >= end || !pred(d)) order_.push_back(d);
    apply_order();
    return first;
}

template <class Row>
void StridedSpace::for_each_row(Row &&row) {
    if (numel() == 0) return;
    const int32_t outer = rank() - 1;  // an empty shape is one row of one element
    index_.assign(outer > 0 ? outer : 0, 0);
    offsets_.assign(operands_, 0);
    for (;;) {
        row(static_cast<const int64_t *>(offsets_.data()));
        int32_t d = outer;
        for (; d-- > 0;) {
            for (int32_t op = 0; op < operands_; ++op) offsets_[op] += strides_[op][d];
            if (++index_[d] < shape_[d]) break;
            for (int32_t op = 0; op < operands_; ++op) offsets_[op] -= strides_[op][d] * shape_[d];
            index_[d] = 0;
        }
        if (d < 0) return;
    }
}

}  // namespace ng
