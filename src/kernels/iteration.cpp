#include "kernels/iteration.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "core/checked_math.hpp"
#include "core/error.hpp"

namespace ng::kernels {

void IterationSpace::assign(const char *driver, const std::vector<int64_t> &shape,
                            std::initializer_list<const Strided *> first,
                            const std::vector<Strided> &rest) {
    for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] < 0)
            throw invalid_argument(driver, ": dimension ", d, " has negative length ", shape[d]);
    checked_numel(shape, driver);
    shape_.assign(shape.begin(), shape.end());
    strides_.resize(first.size() + rest.size());
    size_t op = 0;
    auto take = [&](const Strided &s) {
        if (s.strides.size() != shape.size())
            throw internal_error(driver, ": operand ", op, " has ", s.strides.size(),
                                 " strides for rank ", shape.size());
        strides_[op++].assign(s.strides.begin(), s.strides.end());
    };
    for (const Strided *s : first) take(*s);
    for (const Strided &s : rest) take(s);
}

int64_t IterationSpace::numel() const {
    return count(0, rank());
}

int64_t IterationSpace::count(int32_t first, int32_t last) const {
    int64_t n = 1;
    for (int32_t d = first; d < last; ++d) n *= shape_[d];
    return n;
}

void IterationSpace::apply_order() {
    tmp_.resize(order_.size());
    for (size_t i = 0; i < order_.size(); ++i) tmp_[i] = shape_[order_[i]];
    shape_.swap(tmp_);
    for (auto &s : strides_) {
        tmp_.resize(order_.size());
        for (size_t i = 0; i < order_.size(); ++i) tmp_[i] = s[order_[i]];
        s.swap(tmp_);
    }
}

void IterationSpace::drop_unit_dims() {
    partition(rank(), [&](int32_t d) { return shape_[d] != 1; });
    int32_t kept = 0;
    while (kept < rank() && shape_[kept] != 1) ++kept;
    shape_.resize(kept);
    for (auto &s : strides_) s.resize(kept);
    if (shape_.empty()) {
        shape_.push_back(1);
        for (auto &s : strides_) s.push_back(0);
    }
}

void IterationSpace::sort_by_stride(int32_t op, int32_t end) {
    order_.resize(rank());
    for (int32_t d = 0; d < rank(); ++d) order_[d] = d;
    const auto &s = strides_[op];
    // Insertion sort: stable, and unlike std::stable_sort it never allocates a buffer.
    for (int32_t i = 1; i < end; ++i)
        for (int32_t j = i; j > 0 && std::abs(s[order_[j]]) > std::abs(s[order_[j - 1]]); --j)
            std::swap(order_[j], order_[j - 1]);
    apply_order();
}

void IterationSpace::coalesce() {
    int32_t out = 0;  // dimensions [0, out] are final; `out` is the one being extended
    for (int32_t d = 1; d < rank(); ++d) {
        bool mergeable = true;
        for (const auto &s : strides_) mergeable = mergeable && s[out] == s[d] * shape_[d];
        if (mergeable) {
            shape_[out] *= shape_[d];
            for (auto &s : strides_) s[out] = s[d];
        } else {
            ++out;
            shape_[out] = shape_[d];
            for (auto &s : strides_) s[out] = s[d];
        }
    }
    shape_.resize(out + 1);
    for (auto &s : strides_) s.resize(out + 1);
}

void IterationSpace::add_offsets(int32_t first, int32_t last, int64_t linear,
                                 int64_t *offsets) const {
    for (int32_t d = last - 1; d >= first; --d) {
        int64_t i = linear % shape_[d];
        linear /= shape_[d];
        for (size_t op = 0; op < strides_.size(); ++op) offsets[op] += i * strides_[op][d];
    }
}

namespace {

struct AlignedFree {
    void operator()(unsigned char *p) const { ::operator delete(p, std::align_val_t(64)); }
};

struct ScratchBuffer {
    std::unique_ptr<unsigned char, AlignedFree> data;
    size_t bytes = 0;
};

}  // namespace

void *thread_scratch(ScratchArea area, size_t bytes) {
    thread_local ScratchBuffer buffers[static_cast<int>(ScratchArea::Count)];
    ScratchBuffer &b = buffers[static_cast<int>(area)];
    if (bytes > b.bytes) {
        size_t grown = std::max(bytes, b.bytes * 2);
        b.data.reset(static_cast<unsigned char *>(::operator new(grown, std::align_val_t(64))));
        b.bytes = grown;
    }
    return b.data.get();
}

namespace {
template <class Body>
void by_size(size_t size, Body &&body) {
    switch (size) {
    case 1: return body(uint8_t{});
    case 4: return body(uint32_t{});
    case 8: return body(uint64_t{});
    default: throw internal_error("strided copy of ", size, "-byte elements");
    }
}
}  // namespace

void gather(size_t size, int64_t n, const void *src, int64_t src_stride, void *dst) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        auto s = static_cast<const T *>(src);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i] = s[i * src_stride];
    });
}

void scatter(size_t size, int64_t n, const void *src, void *dst, int64_t dst_stride) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        auto s = static_cast<const T *>(src);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = s[i];
    });
}

void broadcast(size_t size, int64_t n, const void *value, void *dst, int64_t dst_stride) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        T v;
        std::memcpy(&v, value, sizeof v);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = v;
    });
}

}  // namespace ng::kernels
