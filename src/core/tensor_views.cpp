// Views: new descriptions over the same storage. None of them copies.
#include <numeric>

#include "core/checked_math.hpp"
#include "core/tensor.hpp"

namespace ng {

namespace {

// Strides that give `to` the same element order as `from`, or false when the old strides do
// not allow it (numpy's no-copy reshape). Both shapes hold the same positive number of
// elements. Dimensions of length 1 are ignored on the old side; groups of old dimensions with
// the same product as a group of new ones must be contiguous among themselves.
bool strides_for_reshape(const Dims &from_shape, const Dims &from_strides, const Dims &to,
                         Dims &out) {
    Dims shape, strides;
    for (size_t k = 0; k < from_shape.size(); ++k)
        if (from_shape[k] != 1) {
            shape.push_back(from_shape[k]);
            strides.push_back(from_strides[k]);
        }
    out.assign(to.size(), 0);
    size_t i = 0, j = 0;
    while (i < shape.size() && j < to.size()) {
        size_t last_i = i, last_j = j;
        int64_t old_product = shape[i], new_product = to[j];
        while (old_product != new_product) {
            if (new_product < old_product)
                new_product *= to[++last_j];
            else
                old_product *= shape[++last_i];
        }
        for (size_t k = i; k < last_i; ++k) {
            int64_t span;
            if (__builtin_mul_overflow(strides[k + 1], shape[k + 1], &span) || strides[k] != span)
                return false;
        }
        out[last_j] = strides[last_i];
        for (size_t k = last_j; k > j; --k) out[k - 1] = checked_mul(out[k], to[k], "strides");
        i = last_i + 1;
        j = last_j + 1;
    }
    // Whatever is left of the new shape has length 1; give it row-major-like strides.
    for (size_t k = to.size(); k-- > j;)
        out[k] = k + 1 < to.size() ? checked_mul(out[k + 1], to[k + 1], "strides") : 1;
    return true;
}

}  // namespace

Tensor Tensor::reshape(const Dims &shape) const {
    int64_t n = checked_numel(shape, "shape");
    if (n != numel())
        throw axes_error("cannot reshape ", dims_text(this->shape()), " (", numel(),
                         " elements) to ", dims_text(shape), " (", n, " elements)");
    Layout layout{shape, {}, layout_.offset};
    if (n == 0)
        layout.strides = row_major_strides(shape);
    else if (!strides_for_reshape(layout_.shape, layout_.strides, shape, layout.strides))
        throw unsupported("cannot reshape ", dims_text(this->shape()), " with strides ",
                          dims_text(strides()), " to ", dims_text(shape),
                          " without a copy; copy the tensor first");
    return Tensor(dtype_, std::move(layout), storage_);
}

Tensor Tensor::permute(const std::vector<int32_t> &order) const {
    if (static_cast<int32_t>(order.size()) != rank())
        throw invalid_argument("order has ", order.size(), " entries for a tensor of rank ",
                               rank());
    std::vector<bool> used(order.size(), false);
    Layout layout{Dims(order.size()), Dims(order.size()), layout_.offset};
    for (size_t k = 0; k < order.size(); ++k) {
        int32_t source = order[k];
        if (source < 0 || source >= rank())
            throw invalid_argument("order[", k, "] is ", source, ", not a dimension of a rank-",
                                   rank(), " tensor");
        if (used[source]) throw invalid_argument("order[", k, "] repeats dimension ", source);
        used[source] = true;
        layout.shape[k] = layout_.shape[source];
        layout.strides[k] = layout_.strides[source];
    }
    return Tensor(dtype_, std::move(layout), storage_);
}

Tensor Tensor::transpose() const {
    std::vector<int32_t> order(rank());
    std::iota(order.rbegin(), order.rend(), 0);
    return permute(order);
}

Tensor Tensor::slice(int32_t dim, int64_t start, int64_t stop, int64_t step) const {
    if (dim < 0 || dim >= rank())
        throw invalid_argument("dim ", dim, " is not a dimension of a rank-", rank(), " tensor");
    if (step == 0) throw invalid_argument("step is 0");
    const int64_t n = layout_.shape[dim];
    // Python's rules: a negative index counts from the end, then both ends are clamped to the
    // range a step in that direction can start or stop at.
    auto resolve = [n](int64_t index, int64_t low, int64_t high) {
        if (index < 0) index += n;
        return index < low ? low : index > high ? high : index;
    };
    int64_t length;
    if (step > 0) {
        start = resolve(start, 0, n);
        stop = resolve(stop, 0, n);
        length = stop > start ? (stop - start - 1) / step + 1 : 0;
    } else {
        start = resolve(start, -1, n - 1);
        stop = resolve(stop, -1, n - 1);
        // -step overflows for INT64_MIN: divide by its magnitude as an unsigned number.
        const uint64_t magnitude = uint64_t{0} - static_cast<uint64_t>(step);
        length = start > stop
                     ? static_cast<int64_t>(static_cast<uint64_t>(start - stop - 1) / magnitude) + 1
                     : 0;
    }
    Layout layout = layout_;
    layout.shape[dim] = length;
    // A view with no elements never addresses memory: its offset stays (wrapped empty tensors
    // may have any strides).
    if (length > 0 && layout.numel() > 0) {
        layout.offset = checked_add(layout_.offset,
                                    checked_mul(start, layout_.strides[dim], "offset"), "offset");
        layout.strides[dim] =
            length > 1 ? checked_mul(layout_.strides[dim], step, "strides") : layout_.strides[dim];
    }
    return Tensor(dtype_, std::move(layout), storage_);
}

Tensor Tensor::broadcast(const Dims &shape) const {
    checked_numel(shape, "shape");
    if (shape.size() < layout_.shape.size())
        throw axes_error("cannot broadcast ", dims_text(this->shape()), " to the lower rank ",
                         dims_text(shape));
    const size_t lead = shape.size() - layout_.shape.size();
    Layout layout{shape, Dims(shape.size(), 0), layout_.offset};
    for (size_t k = 0; k < layout_.shape.size(); ++k) {
        int64_t have = layout_.shape[k], want = shape[lead + k];
        if (have == want)
            layout.strides[lead + k] = layout_.strides[k];
        else if (have != 1)
            throw axes_error("cannot broadcast ", dims_text(this->shape()), " to ",
                             dims_text(shape), ": dimension ", k, " has length ", have,
                             ", not 1 or ", want);
    }
    return Tensor(dtype_, std::move(layout), storage_);
}

}  // namespace ng
