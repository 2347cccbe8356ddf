// Dense row-major copies into and out of strided tensors.
#include <cstring>

#include "core/checked_math.hpp"
#include "core/tensor_strided_copy.hpp"
#include "core/tensor.hpp"

namespace ng {

namespace {

// The byte count of a dense copy of t; `buffer` may be NULL only when that is 0.
size_t check_dense_buffer(const Tensor &t, const void *buffer, size_t buffer_bytes,
                          const char *name, const char *bytes_name) {
    size_t needed = checked_bytes(t.numel(), t.element_size(), "shape");
    if (buffer_bytes != needed)
        throw invalid_argument(bytes_name, " is ", buffer_bytes, " but the tensor's ", t.numel(),
                               " ", dtype_name(t.dtype()), " elements take ", needed, " bytes");
    if (buffer == nullptr && needed > 0) throw invalid_argument(name, " is NULL");
    return needed;
}

void check_writable(const Tensor &t) {
    if (t.layout().has_broadcast_dims())
        throw unsupported(
            "cannot write into a broadcast view (a stride of 0 maps several indices to one "
            "element)");
}

bool overlaps(const Tensor &a, const Tensor &b) {
    if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
    int64_t a_low, a_high, b_low, b_high;
    a.layout().extent(a_low, a_high);
    b.layout().extent(b_low, b_high);
    return a_low < b_high && b_low < a_high;
}

}  // namespace

void Tensor::read(void *dst, size_t dst_bytes) const {
    size_t bytes = check_dense_buffer(*this, dst, dst_bytes, "dst", "dst_bytes");
    if (bytes == 0) return;
    if (is_contiguous())
        std::memcpy(dst, data(), bytes);
    else
        copy_strided_elements(element_size(), shape(), data(), strides(), dst,
                              row_major_strides(shape()));
}

void Tensor::write(const void *src, size_t src_bytes) {
    size_t bytes = check_dense_buffer(*this, src, src_bytes, "src", "src_bytes");
    check_writable(*this);
    if (bytes == 0) return;
    if (is_contiguous())
        std::memmove(data(), src, bytes);
    else
        copy_strided_elements(element_size(), shape(), src, row_major_strides(shape()), data(),
                              strides());
}

void Tensor::copy_from(const Tensor &src) {
    if (src.dtype() != dtype_)
        throw dtype_error("cannot copy a ", dtype_name(src.dtype()), " tensor into a ",
                          dtype_name(dtype_), " tensor");
    if (src.shape() != shape())
        throw axes_error("cannot copy a tensor of shape ", dims_text(src.shape()),
                         " into one of shape ", dims_text(shape()));
    check_writable(*this);
    if (numel() == 0) return;
    if (overlaps(*this, src)) {
        // Go through a dense copy so that no element is overwritten before it is read.
        copy_from(src.dense_copy());
        return;
    }
    copy_strided_elements(element_size(), shape(), src.data(), src.strides(), data(), strides());
}

Tensor Tensor::dense_copy() const {
    Tensor copy = zeros(dtype_, shape());
    if (numel() > 0)
        copy_strided_elements(element_size(), shape(), data(), strides(), copy.data(),
                              copy.strides());
    return copy;
}

}  // namespace ng
