#include "core/strided_space.hpp"

#include <cstdlib>

#include "core/checked_math.hpp"
#include "core/error.hpp"

namespace ng {

void StridedSpace::reset(const char *driver, const Dims &shape) {
    for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] < 0)
            throw invalid_argument(driver, ": dimension ", d, " has negative length ", shape[d]);
    checked_numel(shape, driver);
    shape_.assign(shape.begin(), shape.end());
    operands_ = 0;
}

void StridedSpace::add_operand(const char *driver, const Dims &strides) {
    if (strides.size() != shape_.size())
        throw internal_error(driver, ": operand ", operands_, " has ", strides.size(),
                             " strides for rank ", shape_.size());
    if (static_cast<size_t>(operands_) == strides_.size()) strides_.emplace_back();
    strides_[operands_++].assign(strides.begin(), strides.end());
}

int64_t StridedSpace::numel() const {
    return count(0, rank());
}

int64_t StridedSpace::count(int32_t first, int32_t last) const {
    int64_t n = 1;
    for (int32_t d = first; d < last; ++d) n *= shape_[d];
    return n;
}

int64_t StridedSpace::elements_of(int32_t op) const {
    int64_t n = 1;
    for (int32_t d = 0; d < rank(); ++d)
        if (strides_[op][d] != 0) n *= shape_[d];
    return numel() == 0 ? 0 : n;
}

void StridedSpace::apply_order() {
    tmp_.resize(order_.size());
    for (size_t i = 0; i < order_.size(); ++i) tmp_[i] = shape_[order_[i]];
    shape_.swap(tmp_);
    for (int32_t op = 0; op < operands_; ++op) {
        Dims &s = strides_[op];
        tmp_.resize(order_.size());
        for (size_t i = 0; i < order_.size(); ++i) tmp_[i] = s[order_[i]];
        s.swap(tmp_);
    }
}

void StridedSpace::drop_unit_dims() {
    partition(rank(), [&](int32_t d) { return shape_[d] != 1; });
    int32_t kept = 0;
    while (kept < rank() && shape_[kept] != 1) ++kept;
    shape_.resize(kept);
    for (int32_t op = 0; op < operands_; ++op) strides_[op].resize(kept);
    if (shape_.empty()) {
        shape_.push_back(1);
        for (int32_t op = 0; op < operands_; ++op) strides_[op].push_back(0);
    }
}

void StridedSpace::sort_by_stride(int32_t op, int32_t end) {
    order_.resize(rank());
    for (int32_t d = 0; d < rank(); ++d) order_[d] = d;
    const Dims &s = strides_[op];
    // Insertion sort: stable, and unlike std::stable_sort it never allocates a buffer.
    for (int32_t i = 1; i < end; ++i)
        for (int32_t j = i; j > 0 && std::abs(s[order_[j]]) > std::abs(s[order_[j - 1]]); --j)
            std::swap(order_[j], order_[j - 1]);
    apply_order();
}

void StridedSpace::coalesce() {
    if (shape_.empty()) return;
    int32_t out = 0;  // dimensions [0, out] are final; `out` is the one being extended
    for (int32_t d = 1; d < rank(); ++d) {
        // Stepping dimension `out` once must equal stepping d across its whole length, in every
        // operand (wrapped caller strides can make the product overflow: then it cannot).
        bool mergeable = true;
        for (int32_t op = 0; mergeable && op < operands_; ++op) {
            int64_t span;
            mergeable = !__builtin_mul_overflow(strides_[op][d], shape_[d], &span) &&
                        strides_[op][out] == span;
        }
        if (mergeable) {
            shape_[out] *= shape_[d];
        } else {
            ++out;
            shape_[out] = shape_[d];
        }
        for (int32_t op = 0; op < operands_; ++op) strides_[op][out] = strides_[op][d];
    }
    shape_.resize(out + 1);
    for (int32_t op = 0; op < operands_; ++op) strides_[op].resize(out + 1);
}

void StridedSpace::simplify_for(int32_t op) {
    drop_unit_dims();
    if (op != kKeepOrder) sort_by_stride(op, rank());
    coalesce();
}

void StridedSpace::add_offsets(int32_t first, int32_t last, int64_t linear,
                               int64_t *offsets) const {
    for (int32_t d = last - 1; d >= first; --d) {
        int64_t i = linear % shape_[d];
        linear /= shape_[d];
        for (int32_t op = 0; op < operands_; ++op) offsets[op] += i * strides_[op][d];
    }
}

}  // namespace ng
