// The CPU transformer: owns the values of persistent tensors (keyed by their op), runs their
// initializers once, and owns the thread pool every computation's kernels use.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/tensor.hpp"
#include "graph/op.hpp"
#include "kernels/thread_pool.hpp"

namespace ng {

// Shared: every computation keeps its transformer alive, so destroying the C handle first is safe.
class Transformer : public std::enable_shared_from_this<Transformer> {
public:
    explicit Transformer(int threads);

    void set_threads(int threads);
    int threads() const { return pool_->size(); }
    ThreadPool *pool() { return pool_.get(); }

    // The value of a persistent op, running its initializer first if it has none yet
    // (zeros when it has no initial value, except placeholders: NG_ERR_STATE).
    Tensor &value(const Op *persistent);
    bool has_value(const Op *persistent) const;
    // Whether value() can produce a value (has one, or an initializer, or is not a placeholder).
    bool can_initialize(const Op *persistent) const;
    void set_value(const Op *persistent, const Tensor &value);

private:
    Tensor initialize(const Op *persistent);

    std::unique_ptr<ThreadPool> pool_;
    std::unordered_map<const Op *, Tensor> values_;
    std::vector<const Op *> initializing_;  // cycle detection
    mutable std::recursive_mutex mutex_;
};

// Copies `src` (over `src_axes`) into `dst` (over `dst_axes`), broadcasting by axis name.
void copy_broadcast_by_name(const Tensor &src, const Axes &src_axes, Tensor &dst,
                            const Axes &dst_axes, ThreadPool *pool);

}  // namespace ng
