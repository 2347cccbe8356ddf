// Host tensors: a description (dtype, shape, strides in elements, offset in elements, optional
// allocated sizes) over a shared Storage. Views share
// the storage; the storage lives while any view does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/storage.hpp"

namespace ng {

using Dims = std::vector<int64_t>;

// "(2, 3, 4)": dimensions as messages show them.
std::string dims_text(const Dims &dims);

// Row-major strides over allocated sizes (size[i] >= shape[i], padding); empty `sizes` means
// sizes == shape.
Dims row_major_strides(const Dims &shape, const Dims &sizes = {});

// A strided layout without storage: what kernels and the compiler reason about.
struct Layout {
    Dims shape;
    Dims strides;        // in elements; 0 for a broadcast dimension
    int64_t offset = 0;  // in elements, from the start of the storage

    int32_t rank() const { return static_cast<int32_t>(shape.size()); }
    int64_t numel() const;
    bool is_row_major_contiguous() const;  // dense, row-major, no gaps (size-1 dims ignored)
    // Lowest and one-past-highest element offsets touched (both equal offset when numel is 0).
    // Throws NG_ERR_INVALID_ARGUMENT when they cannot be represented (wrapped caller strides).
    void extent(int64_t &lowest, int64_t &past_highest) const;
    // True when two indices map to one element through a stride 0 on a dimension longer than 1
    // (a broadcast view): such a layout can be read but not written.
    bool has_broadcast_dims() const;
};

class Tensor {
public:
    // Zero-filled, row-major. Throws NG_ERR_INVALID_ARGUMENT on negative/overflowing shapes.
    static Tensor zeros(DType dt, const Dims &shape);
    // The same, not zeroed: for a tensor whose every element is written before it is read.
    static Tensor uninitialized(DType dt, const Dims &shape);
    // Views caller memory: `data` is the address of element (0, ..., 0), `strides` (one per
    // dimension, in elements, any sign) must be given. Checks the dtype, the shape, that every
    // touched address is representable and that `data` is aligned to the element size. The
    // storage takes ownership (deleter(data, ctx), deleter may be null) only if this returns.
    static Tensor wrap(DType dt, const Dims &shape, const Dims &strides, void *data,
                       Storage::Deleter deleter, void *ctx);

    Tensor() = default;
    Tensor(DType dt, Layout layout, std::shared_ptr<Storage> storage);

    DType dtype() const { return dtype_; }
    const Layout &layout() const { return layout_; }
    const Dims &shape() const { return layout_.shape; }
    const Dims &strides() const { return layout_.strides; }
    int32_t rank() const { return layout_.rank(); }
    int64_t numel() const { return layout_.numel(); }
    size_t element_size() const { return dtype_size(dtype_); }
    const std::shared_ptr<Storage> &storage() const { return storage_; }
    // Address of element (0, ..., 0). Inline: a run takes it for every input and output.
    void *data() const {
        char *base = storage_ ? static_cast<char *>(storage_->data()) : nullptr;
        if (base == nullptr) return nullptr;
        return base + layout_.offset * static_cast<int64_t>(element_size());
    }
    bool is_contiguous() const { return layout_.is_row_major_contiguous(); }
    // Which tensor this is: tensors of one identity have the same dtype, layout and storage.
    // Each tensor made gets a new one, never used before; a copy shares it; a moved-from or
    // empty tensor has 0. A computation compares the identities of a run's tensors with those
    // of the run before, to skip the checks it made then (Computation::run).
    uint64_t identity() const { return identity_.value; }

    // Dense row-major copies out of / into this tensor, whatever its strides.
    void read(void *dst, size_t dst_bytes) const;
    void write(const void *src, size_t src_bytes);
    // Elementwise copy from a tensor of the same dtype and shape (any strides). Correct even
    // when src overlaps this tensor's memory.
    void copy_from(const Tensor &src);
    // A new dense row-major tensor with the same dtype, shape and values.
    Tensor dense_copy() const;

    // Views (share storage). Each throws a descriptive ng::Error when not possible.
    Tensor reshape(const Dims &shape) const;  // NG_ERR_UNSUPPORTED if a copy is needed
    Tensor permute(const std::vector<int32_t> &order) const;  // order[i] = source dim of dim i
    Tensor transpose() const;                                 // reverses every dimension
    // Python's start:stop:step on one dimension: negative start/stop count from the end, both
    // are clamped to the dimension (so INT64_MIN / INT64_MAX act as an open end), step may be
    // negative but not 0.
    Tensor slice(int32_t dim, int64_t start, int64_t stop, int64_t step) const;
    Tensor broadcast(const Dims &shape) const;  // numpy-style trailing alignment

private:
    static Tensor dense(DType dt, const Dims &shape, bool zeroed);

    // The identity number: moving leaves 0 behind, as the moved-from tensor's layout and
    // storage are gone.
    struct Identity {
        uint64_t value = 0;
        Identity() = default;
        explicit Identity(uint64_t v) : value(v) {}
        Identity(const Identity &) = default;
        Identity &operator=(const Identity &) = default;
        Identity(Identity &&other) noexcept : value(other.value) { other.value = 0; }
        Identity &operator=(Identity &&other) noexcept {
            value = other.value;
            other.value = 0;
            return *this;
        }
    };

    DType dtype_ = 0;
    Layout layout_;
    std::shared_ptr<Storage> storage_;
    Identity identity_;
};

}  // namespace ng
