// Host tensors: construction over owned or caller storage.
#include "core/tensor.hpp"

#include <atomic>
#include <cstdint>
#include <utility>

#include "core/checked_math.hpp"

namespace ng {

namespace {

// 1, 2, ...: a 64-bit count does not wrap in the life of a process.
uint64_t new_identity() {
    static std::atomic<uint64_t> made{0};
    return made.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

Tensor::Tensor(DType dt, Layout layout, std::shared_ptr<Storage> storage)
    : dtype_(dt),
      layout_(std::move(layout)),
      storage_(std::move(storage)),
      identity_(new_identity()) {}

Tensor Tensor::zeros(DType dt, const Dims &shape) {
    return dense(dt, shape, true);
}

Tensor Tensor::uninitialized(DType dt, const Dims &shape) {
    return dense(dt, shape, false);
}

Tensor Tensor::dense(DType dt, const Dims &shape, bool zeroed) {
    check_dtype(dt, "dtype");
    size_t bytes = checked_bytes(checked_numel(shape, "shape"), dtype_size(dt), "shape");
    Layout layout{shape, row_major_strides(shape), 0};
    return Tensor(dt, std::move(layout),
                  zeroed ? Storage::allocate(bytes) : Storage::allocate_uninitialized(bytes));
}

Tensor Tensor::wrap(DType dt, const Dims &shape, const Dims &strides, void *data,
                    Storage::Deleter deleter, void *ctx) {
    check_dtype(dt, "dtype");
    const size_t element = dtype_size(dt);
    if (strides.size() != shape.size())
        throw invalid_argument("strides has ", strides.size(), " entries for a shape of rank ",
                               shape.size());
    int64_t numel = checked_numel(shape, "shape");
    for (size_t k = 0; k < strides.size(); ++k)
        if (strides[k] == INT64_MIN) throw invalid_argument("stride ", k, " is INT64_MIN");
    if (numel > 0 && data == nullptr)
        throw invalid_argument("data is NULL but the tensor has ", numel, " elements");
    if (reinterpret_cast<uintptr_t>(data) % element != 0)
        throw invalid_argument("data ", data, " is not aligned to its ", dtype_name(dt),
                               " elements (", element, " bytes)");

    // The storage starts at the lowest address the strides reach, so every view's offset is
    // non-negative; the deleter still receives the caller's own pointer.
    Layout layout{shape, strides, 0};
    int64_t lowest, past_highest;
    layout.extent(lowest, past_highest);
    const int64_t elements_below = checked_mul(lowest, -1, "strides");
    size_t bytes =
        checked_bytes(checked_add(past_highest, elements_below, "strides"), element, "strides");
    size_t below = checked_bytes(elements_below, element, "strides");
    uintptr_t address = reinterpret_cast<uintptr_t>(data);
    if (address < below || UINTPTR_MAX - (address - below) < bytes)
        throw invalid_argument("strides reach outside the address space from data ", data);
    layout.offset = -lowest;

    std::shared_ptr<Storage> storage =
        Storage::wrap(reinterpret_cast<void *>(address - below), bytes, nullptr, nullptr);
    Tensor result(dt, std::move(layout), std::move(storage));
    result.storage_->adopt(deleter, ctx, data);  // last: nothing after this can fail
    return result;
}

}  // namespace ng
