// A persistent pool of worker threads owned by a transformer. parallel_for splits [0, n) into
// chunks run by the workers and the calling thread; it returns when all are done. Destruction
// joins every worker (so a host can dlclose the library afterwards).
#pragma once

#include <cstdint>
#include <functional>

namespace ng {

class ThreadPool {
public:
    // threads <= 0: the number of cores. threads == 1: everything runs on the caller.
    explicit ThreadPool(int threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    int size() const noexcept;  // total threads including the caller
    // The size of a pool made with `threads`: the number of cores for threads <= 0.
    static int size_for(int threads) noexcept;
    // Idle workers poll for the next job for a short while before they sleep; this sends them to
    // sleep now. Called before handing work to another library's threads (OpenBLAS), which
    // would otherwise share the cores with polling workers.
    void rest_workers() noexcept;
    // Whether rest_workers() was called after the last job was handed out: the workers are
    // asleep (or on their way), and the next job pays to wake them.
    bool workers_resting() const noexcept;
    // Calls body(begin, end) on disjoint chunks covering [0, n), each at least `grain` long
    // (except when n itself is shorter). Each thread starts on a home part of [0, n) that
    // depends only on n, the grain and the pool's size (the caller's starts at 0), so that a loop
    // run again finds its data in the same thread's caches. Exceptions from body are rethrown
    // on the caller.
    void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)> &body);

private:
    struct Impl;
    Impl *impl_;
};

}  // namespace ng
