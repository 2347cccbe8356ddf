// Persistent workers that sleep on a condition variable between jobs. A job is one
// parallel_for: its chunks are handed out through an atomic counter to the workers that joined
// and to the calling thread, which works too and then waits for the joined workers to finish.
// Chunks shrink as the job goes (a share of what is left, never below the grain): large ones
// early cost few hand-outs, small ones at the end leave no thread alone with a long last chunk
// while the others wait (for memory-bound loops the last thread also runs at one core's
// bandwidth instead of the machine's).
#include "kernels/thread_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "kernels/scratch.hpp"

namespace ng {
namespace {
// Set on pool workers, and on a caller while it runs its share of a job: a parallel_for nested
// inside a body runs inline instead of waiting for workers that are busy with the outer job.
thread_local bool inside_parallel_region = false;
// At most 15 characters (the kernel's limit for a thread name).
constexpr char kWorkerThreadName[] = "nanograph-pool";
// How long an idle worker polls for the next job before it sleeps (Impl::poll_for_job).
constexpr auto kPollFor = std::chrono::microseconds(200);

// A spin-wait hint: lets the core's other hardware thread run and saves power while polling.
inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
}  // namespace

struct ThreadPool::Impl {
    int threads = 1;
    std::vector<std::thread> workers;

    std::mutex dispatch;  // one job at a time; a concurrent caller runs its loop inline

    std::mutex mutex;  // guards the job fields below and the counters
    std::condition_variable wake, finished;
    // Written under mutex; atomic so that a worker can poll them without it (poll_for_job).
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> generation{0};
    std::atomic<uint64_t> rests{0};  // bumped by rest_workers(): polling workers sleep
    int helpers_wanted = 0, helpers_joined = 0, helpers_left = 0;

    // The current job. Read by joined workers without the lock: written before the generation
    // is published under the mutex, and not changed until every joined worker has left.
    const std::function<void(int64_t, int64_t)> *body = nullptr;
    int64_t n = 0, grain = 1, shares = 1;  // a chunk: max(grain, what is left / shares)
    std::atomic<int64_t> next{0};          // the start of the next chunk
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // the first exception of the job (under mutex)

    void run_chunks() {
        int64_t begin = next.load(std::memory_order_relaxed);
        for (;;) {
            if (begin >= n || failed.load(std::memory_order_relaxed)) return;
            const int64_t end = std::min(n, begin + std::max(grain, (n - begin) / shares));
            if (!next.compare_exchange_weak(begin, end, std::memory_order_relaxed)) continue;
            try {
                (*body)(begin, end);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (!error) error = std::current_exception();
                failed.store(true, std::memory_order_relaxed);
            }
            begin = next.load(std::memory_order_relaxed);
        }
    }

    // Stops and joins the workers (all of them, or those started before a constructor failed).
    void shutdown() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            stop = true;
        }
        wake.notify_all();
        for (auto &worker : workers) worker.join();
    }

    // Before sleeping, a worker polls for a new job for up to kPollFor: the steps of a run follow
    // each other within microseconds, and a sleeping worker takes tens of microseconds to wake
    // (a futex wake and a reschedule, longer in a virtual machine), during which the caller has
    // taken most of a short job's chunks alone. A 128 x 512 by 512 x 256 product on two threads:
    // 308 us (median) with workers woken from sleep, against 300 us on one thread.
    void poll_for_job(uint64_t seen) const {
        const uint64_t rests_seen = rests.load(std::memory_order_relaxed);
        const auto until = std::chrono::steady_clock::now() + kPollFor;
        for (;;) {
            for (int i = 0; i < 64; ++i) {
                if (stop.load(std::memory_order_relaxed) ||
                    generation.load(std::memory_order_relaxed) != seen ||
                    rests.load(std::memory_order_relaxed) != rests_seen)
                    return;
                pause();
            }
            if (std::chrono::steady_clock::now() >= until) return;
        }
    }

    void worker_loop() {
        inside_parallel_region = true;
        // The worker's own kernel scratch, freed when the worker ends (kernels/scratch.hpp).
        kernels::Scratch scratch;
        kernels::ScratchScope scratch_scope(scratch);
        std::unique_lock<std::mutex> lock(mutex);
        uint64_t seen = generation;
        for (;;) {
            lock.unlock();
            poll_for_job(seen);
            lock.lock();
            wake.wait(lock, [&] {
                return stop || (generation != seen && helpers_joined < helpers_wanted);
            });
            if (stop) return;
            seen = generation;
            ++helpers_joined;
            lock.unlock();
            run_chunks();
            lock.lock();
            if (++helpers_left == helpers_joined) finished.notify_one();
        }
    }
};

ThreadPool::ThreadPool(int threads) : impl_(new Impl) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    impl_->threads = threads;
    try {
        for (int i = 1; i < threads; ++i) {
            try {
                impl_->workers.emplace_back([impl = impl_] { impl->worker_loop(); });
                // Named so that a host sees whose threads these are (top -H, gdb,
                // /proc/<pid>/task/*/comm); by the creator, so the name is there as soon as the
                // pool is, even before the worker first runs.
                (void)pthread_setname_np(impl_->workers.back().native_handle(), kWorkerThreadName);
            } catch (const std::system_error &e) {
                // pthread_create's EAGAIN: no memory for the thread (or the system's limit).
                if (e.code() != std::errc::resource_unavailable_try_again) throw;
                throw Error(NG_ERR_OUT_OF_MEMORY, concat("cannot start pool thread ", i, " of ",
                                                         threads, ": ", e.what()));
            }
        }
    } catch (...) {
        impl_->shutdown();
        delete impl_;
        throw;
    }
}

ThreadPool::~ThreadPool() {
    impl_->shutdown();
    delete impl_;
}

int ThreadPool::size() const noexcept {
    return impl_->threads;
}

void ThreadPool::rest_workers() noexcept {
    impl_->rests.fetch_add(1, std::memory_order_relaxed);
}

void ThreadPool::parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t)> &body) {
    if (n <= 0) return;
    grain = std::max<int64_t>(grain, 1);
    Impl &p = *impl_;
    // Small loops, single-thread pools and nested or concurrent calls pay no synchronisation.
    if (p.threads == 1 || n <= grain || inside_parallel_region) return body(0, n);
    std::unique_lock<std::mutex> job(p.dispatch, std::try_to_lock);
    if (!job.owns_lock()) return body(0, n);

    // Every chunk but the last is >= grain; a thread takes 1 / (2 * threads) of what is left.
    const int64_t chunks = n / grain;  // at most
    {
        std::lock_guard<std::mutex> lock(p.mutex);
        p.body = &body;
        p.n = n;
        p.grain = grain;
        p.shares = 2 * int64_t(p.threads);
        p.next.store(0, std::memory_order_relaxed);
        p.failed.store(false, std::memory_order_relaxed);
        p.error = nullptr;
        p.helpers_wanted =
            static_cast<int>(std::min<int64_t>(int64_t(p.workers.size()), chunks - 1));
        p.helpers_joined = p.helpers_left = 0;
        ++p.generation;
    }
    p.wake.notify_all();

    inside_parallel_region = true;
    p.run_chunks();
    inside_parallel_region = false;

    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(p.mutex);
        p.helpers_wanted = p.helpers_joined;  // workers still asleep are not needed any more
        p.finished.wait(lock, [&] { return p.helpers_left == p.helpers_joined; });
        p.body = nullptr;
        error = p.error;
        p.error = nullptr;
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace ng
