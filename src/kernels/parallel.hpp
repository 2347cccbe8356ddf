// How the strided drivers split work over a ThreadPool: only when the whole run is large enough
// to pay for waking workers, in chunks big enough to amortise the hand-out.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/thread_pool.hpp"

namespace ng::kernels {

constexpr int64_t kParallelMinElements = 65536;
constexpr int64_t kChunkMinElements = 16384;
// The least work handed to workers that rest_workers() sent to sleep (ThreadPool::
// workers_resting), which happens before each matrix product OpenBLAS runs on its own threads.
// Waking them costs tens of microseconds, and OpenBLAS's threads still poll the other cores for
// a while after its product, so a loop of a layer's size (128 x 512) runs sooner on the caller
// alone: a 784-512-256-10 MLP's SGD step, whose one split loop is such a ReLU gradient, is no
// faster split and less steady (bench_train --threads 2 --only sgd_step). An Adam update of a
// 784 x 256 weight (200,704 elements) still gains from the workers (bench_train --threads 2 --only
// adam_epoch).
constexpr int64_t kWakeMinElements = 131072;

// Whether a driver over a space of `points` points may hand work to a pool at all. The drivers'
// estimates of their work (items * elements_per_item below) round up to whole tiles or column
// blocks (at most twice the points) and to whole chunks or groups of rows (at most four times):
// below kParallelMinElements / 8 points they always run on the caller, which can then skip
// fetching a pool.
inline bool may_split(int64_t points) {
    return points >= kParallelMinElements / 8;
}

// body(begin, end) over [0, items) where each item costs about `elements_per_item` elements.
template <class Body>
void for_items(ThreadPool *pool, int64_t items, int64_t elements_per_item, const Body &body) {
    elements_per_item = std::max<int64_t>(elements_per_item, 1);
    if (pool && pool->size() > 1 && items > 1 &&
        items * elements_per_item >=
            (pool->workers_resting() ? kWakeMinElements : kParallelMinElements)) {
        int64_t grain = std::max<int64_t>(1, kChunkMinElements / elements_per_item);
        // A single-reference capture fits std::function's inline buffer: no allocation.
        pool->parallel_for(items, grain, [&body](int64_t begin, int64_t end) { body(begin, end); });
    } else {
        body(0, items);
    }
}

}  // namespace ng::kernels
