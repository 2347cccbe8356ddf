#include "core/jagged.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "core/checked_math.hpp"
#include "core/shape_iter.hpp"

namespace ng {

JaggedTensor::JaggedTensor(std::shared_ptr<const Shape> s, Tensor v)
    : shape(std::move(s)), values(std::move(v)) {
    if (shape->kind() == ShapeKind::Nested)
        throw unsupported("a jagged tensor's shape may not be nested: flatten it first");
    if (values.rank() != 1 || values.numel() != shape->numel())
        throw axes_error("the shape ", shape->text(), " has ", shape->numel(),
                         " elements but the values have shape ", dims_text(values.shape()));
}

JaggedTensor JaggedTensor::range(int64_t start, int64_t stop) const {
    auto s = std::make_shared<const Shape>(shape->range(start, stop));
    int64_t first, last;
    shape->last_mode_span(0, start, stop, first, last);
    return JaggedTensor(std::move(s), values.slice(0, first, last, 1));
}

JaggedTensor JaggedTensor::at(const int64_t *prefix, int32_t n) const {
    auto s = std::make_shared<const Shape>(shape->at(prefix, n));
    int64_t first = 0, last = values.numel();
    if (n > 0) {
        int64_t p = shape->position(prefix, n);
        shape->last_mode_span(n - 1, p, p + 1, first, last);
    }
    return JaggedTensor(std::move(s), values.slice(0, first, last, 1));
}

namespace {

// The largest extent of every mode.
Dims padded_extents(const Shape &s) {
    Dims dims(static_cast<size_t>(s.rank()), 0);
    if (s.rank() == 0) return dims;
    dims[0] = s.outer();
    for (int32_t k = 1; k < s.rank(); ++k)
        for (int64_t p = 0; p < s.count(k - 1); ++p)
            dims[static_cast<size_t>(k)] =
                std::max(dims[static_cast<size_t>(k)], s.child_count(k, p));
    return dims;
}

}  // namespace

void JaggedTensor::to_padded(Tensor &padded, Tensor &mask) const {
    Dims dims = padded_extents(*shape);
    padded = Tensor::zeros(values.dtype(), dims);
    mask = Tensor::zeros(NG_BOOL, dims);
    Tensor dense = values.is_contiguous() ? values : values.dense_copy();
    const size_t size = values.element_size();
    const char *src = static_cast<const char *>(dense.data());
    char *dst = static_cast<char *>(padded.data());
    uint8_t *on = static_cast<uint8_t *>(mask.data());
    ShapeIterator it(shape, false);
    std::vector<int64_t> index(static_cast<size_t>(shape->rank()));
    Dims strides = row_major_strides(dims);
    for (int64_t e = 0; it.next(index.data()); ++e) {
        int64_t at = 0;
        for (size_t k = 0; k < index.size(); ++k) at += index[k] * strides[k];
        std::memcpy(dst + static_cast<size_t>(at) * size, src + static_cast<size_t>(e) * size,
                    size);
        on[at] = 1;
    }
}

JaggedTensor JaggedTensor::from_padded(const Tensor &padded, const Tensor &mask) {
    if (mask.dtype() != NG_BOOL)
        throw dtype_error("the mask is ", dtype_name(mask.dtype()), ", not bool");
    if (mask.shape() != padded.shape())
        throw axes_error("the mask has shape ", dims_text(mask.shape()), " but the padded values ",
                         dims_text(padded.shape()));
    if (padded.rank() < 1) throw invalid_argument("the padded values have rank 0");
    const Dims &dims = padded.shape();
    const size_t r = dims.size();
    // any[d][q]: whether the padded sub-block at prefix q (d indices, row-major) holds a true.
    std::vector<std::vector<uint8_t>> any(r + 1);
    any[r].resize(static_cast<size_t>(mask.numel()));
    mask.read(any[r].data(), any[r].size());
    std::vector<size_t> blocks(r + 1, 1);  // prefixes of d indices
    for (size_t d = 0; d < r; ++d) blocks[d + 1] = blocks[d] * static_cast<size_t>(dims[d]);
    for (size_t d = r; d-- > 0;) {
        any[d].assign(blocks[d], 0);
        for (size_t q = 0; q < blocks[d + 1]; ++q)
            any[d][q / static_cast<size_t>(dims[d])] |= any[d + 1][q];
    }
    // Top-down: the padded prefixes of every position, mode after mode.
    std::vector<int64_t> prefixes(static_cast<size_t>(dims[0]));
    for (int64_t i = 0; i < dims[0]; ++i) prefixes[static_cast<size_t>(i)] = i;
    std::vector<ShapeMode> modes;
    for (size_t k = 1; k < r; ++k) {
        ShapeMode m;
        m.splits.assign(1, 0);
        std::vector<int64_t> next;
        for (int64_t q : prefixes) {
            int64_t e = dims[k];
            while (e > 0 && !any[k + 1][static_cast<size_t>(q * dims[k] + e - 1)]) --e;
            for (int64_t j = 0; j < e; ++j) next.push_back(q * dims[k] + j);
            m.splits.push_back(m.splits.back() + e);
        }
        modes.push_back(std::move(m));
        prefixes = std::move(next);
    }
    int64_t trues = 0;
    for (uint8_t b : any[r]) trues += b != 0;
    for (int64_t q : prefixes)
        if (!any[r][static_cast<size_t>(q)])
            throw invalid_argument("the mask is not the mask of a jagged shape: padded element ", q,
                                   " (row-major) is inside a row but false");
    if (trues != static_cast<int64_t>(prefixes.size()))
        throw invalid_argument("the mask is not the mask of a jagged shape: ", trues,
                               " true entries but the rows they end hold ", prefixes.size());
    auto shape = std::make_shared<const Shape>(Shape::ragged(dims[0], std::move(modes)));
    Tensor values = Tensor::zeros(padded.dtype(), {shape->numel()});
    Tensor dense = padded.is_contiguous() ? padded : padded.dense_copy();
    const size_t size = padded.element_size();
    const char *src = static_cast<const char *>(dense.data());
    char *dst = static_cast<char *>(values.data());
    for (size_t e = 0; e < prefixes.size(); ++e)
        std::memcpy(dst + e * size, src + static_cast<size_t>(prefixes[e]) * size, size);
    return JaggedTensor(std::move(shape), std::move(values));
}

}  // namespace ng
