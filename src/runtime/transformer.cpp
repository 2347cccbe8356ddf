#include "runtime/transformer.hpp"

#include <algorithm>
#include <cblas.h>

#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "runtime/computation.hpp"
#include "kernels/kernels.hpp"

namespace ng {

namespace {

bool is_placeholder(const Op *op) {
    return op->flags() & kFlagInput;
}

std::vector<int64_t> shape_of(const Axes &axes) {
    std::vector<int64_t> s;
    for (const Axis *a : axes) s.push_back(a->length);
    return s;
}

}  // namespace

Transformer::Transformer(int threads) {
    set_threads(threads);
}

void Transformer::set_threads(int threads) {
    if (threads < 0) throw invalid_argument("thread count ", threads, " is negative");
    pool_ = std::make_unique<ThreadPool>(threads);
    // OpenBLAS's own threads run while ours wait for the GEMM, so together they never exceed
    // the pool's size.
    openblas_set_num_threads(pool_->size());
}

bool Transformer::has_value(const Op *persistent) const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return values_.count(persistent) != 0;
}

bool Transformer::can_initialize(const Op *persistent) const {
    return has_value(persistent) || persistent->initial_value != nullptr ||
           !is_placeholder(persistent);
}

Tensor &Transformer::value(const Op *persistent) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto found = values_.find(persistent);
    if (found != values_.end()) return found->second;
    Tensor v = initialize(persistent);
    return values_.emplace(persistent, std::move(v)).first->second;
}

Tensor Transformer::initialize(const Op *persistent) {
    if (!can_initialize(persistent))
        throw state_error("placeholder ", persistent->name,
                          " has no value: pass it as a parameter, set its value, "
                          "or give it an initial value");
    if (std::find(initializing_.begin(), initializing_.end(), persistent) != initializing_.end())
        throw invalid_argument("the initial value of ", persistent->name, " depends on itself");
    Tensor value = Tensor::zeros(persistent->dtype, shape_of(persistent->axes));
    if (persistent->flags() & kFlagConstant) {
        if (!persistent->attrs.data.empty())
            value.write(persistent->attrs.data.data(), persistent->attrs.data.size());
        return value;
    }
    if (!persistent->initial_value) return value;

    initializing_.push_back(persistent);
    try {
        // The initializer is an ordinary computation of the initial value, run once.
        const Op *init = persistent->initial_value;
        Computation c(shared_from_this(), {init}, {});
        Tensor *no_slot = nullptr;
        Tensor result;
        c.run(nullptr, &no_slot, &result);
        copy_broadcast_by_name(result, init->axes, value, persistent->axes, pool());
    } catch (...) {
        initializing_.pop_back();
        throw;
    }
    initializing_.pop_back();
    return value;
}

void Transformer::set_value(const Op *persistent, const Tensor &v) {
    if (v.dtype() != persistent->dtype)
        throw dtype_error("value has dtype ", dtype_name(v.dtype()), " but ", persistent->name,
                          " is ", dtype_name(persistent->dtype));
    auto shape = shape_of(persistent->axes);
    if (v.shape() != shape)
        throw axes_error("value shape does not match the axes of ", persistent->name);
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto found = values_.find(persistent);
    if (found == values_.end())
        found = values_.emplace(persistent, Tensor::zeros(persistent->dtype, shape)).first;
    found->second.copy_from(v);
}

void copy_broadcast_by_name(const Tensor &src, const Axes &src_axes, Tensor &dst,
                            const Axes &dst_axes, ThreadPool *pool) {
    kernels::Strided from, to;
    from.data = src.data();
    to.data = dst.data();
    to.strides = dst.strides();
    from.strides.assign(dst_axes.size(), 0);
    for (size_t i = 0; i < src_axes.size(); ++i) {
        int32_t at = find_by_name(dst_axes, src_axes[i]->name);
        if (at < 0) {
            if (src_axes[i]->length == 1) continue;
            throw axes_error("axis ", src_axes[i]->name, "(", src_axes[i]->length,
                             ") of the value is not an axis of the target");
        }
        from.strides[at] = src.strides()[i];
    }
    kernels::copy_strided(dst.dtype(), dst.shape(), from, to, pool);
}

}  // namespace ng
