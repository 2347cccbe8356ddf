// Persistent workers that sleep on a condition variable between jobs. A job is one
// parallel_for. Its range is cut into one home part per thread taking part (the caller's is the
// first, worker i's the i-th), and each thread first runs the chunks of its own part, then
// takes chunks from the others' parts (from the next part on) until none is left; the caller
// then waits for the workers that joined.
//
// Home parts: a kernel run again (the next step, the next batch) hands each thread the same
// rows, which are still in that thread's caches. A virtual machine's two cores can sit on two
// core complexes with a third-level cache each: two threads copying 16 MiB into 16 MiB took
// 0.26 ms (best of 40 passes) when each kept its half from pass to pass, and 0.38-0.40 ms when
// they swapped halves, as chunks handed out first come, first served can.
//
// Chunks shrink as a part empties (half of what is left of it, never below the grain): large
// ones early cost few hand-outs, small ones at the end leave no thread alone with a long last
// chunk while the others wait, and a worker that wakes late finds its part taken by the others
// instead of holding up the job (for memory-bound loops the last thread also runs at one
// core's bandwidth instead of the machine's).
#include "kernels/thread_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
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

// Polls done() with a pause between readings, for up to kPollFor (the clock read once every 64
// pauses); whether it came true.
template <class Done>
bool poll_until(Done done) {
    const auto until = std::chrono::steady_clock::now() + kPollFor;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done()) return true;
            pause();
        }
        if (std::chrono::steady_clock::now() >= until) return false;
    }
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
    std::atomic<uint64_t> rests{0};              // bumped by rest_workers(): polling workers sleep
    std::atomic<uint64_t> rests_at_last_job{0};  // `rests` when the last job was handed out
    int helpers_wanted = 0, helpers_joined = 0;
    // Written under mutex; atomic so that the caller can wait for it without it (wait_for_helpers).
    std::atomic<int> helpers_left{0};

    // One thread's home part of the current job: [next, end) is what is left of it. A cache
    // line each, so that threads taking chunks from their own parts do not share one.
    struct alignas(64) Part {
        std::atomic<int64_t> next{0};
        int64_t end = 0;
    };

    // The current job. Read by joined workers without the lock: written before the generation
    // is published under the mutex, and not changed until every joined worker has left.
    const std::function<void(int64_t, int64_t)> *body = nullptr;
    int64_t grain = 1;
    std::unique_ptr<Part[]> parts;  // one per thread; the job uses the first parts_used
    int parts_used = 1;
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // the first exception of the job (under mutex)

    // Runs chunks of part `home`, then of the parts after it, until every part is empty.
    void run_chunks(int home) {
        for (int k = 0; k < parts_used; ++k) {
            Part &part = parts[size_t((home + k) % parts_used)];
            int64_t begin = part.next.load(std::memory_order_relaxed);
            for (;;) {
                if (failed.load(std::memory_order_relaxed)) return;
                const int64_t left = part.end - begin;
                if (left <= 0) break;
                // Half of what is left, at least the grain, and no remainder below the grain.
                int64_t take = std::max(grain, left / 2);
                if (left - take < grain) take = left;
                if (!part.next.compare_exchange_weak(begin, begin + take,
                                                     std::memory_order_relaxed))
                    continue;
                try {
                    (*body)(begin, begin + take);
                } catch (...) {
                    std::lock_guard<std::mutex> lock(mutex);
                    if (!error) error = std::current_exception();
                    failed.store(true, std::memory_order_relaxed);
                }
                begin = part.next.load(std::memory_order_relaxed);
            }
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
        poll_until([&] {
            return stop.load(std::memory_order_relaxed) ||
                   generation.load(std::memory_order_relaxed) != seen ||
                   rests.load(std::memory_order_relaxed) != rests_seen;
        });
    }

    // Likewise the caller, its own chunks done, polls for the `joined` helpers to finish theirs
    // before it sleeps on `finished`: woken, it would lose tens of microseconds again. Batch-1
    // inference of a 784-512-256-10 network at two threads, medians of 200 runs: 0.018 to 0.054
    // ms (12 of 26 processes at most 0.030 ms) against 0.037 to 0.052 ms with the caller
    // sleeping at once (Intel Xeon with AVX-512 under KVM).
    void wait_for_helpers(int joined) const {
        poll_until([&] { return helpers_left.load(std::memory_order_acquire) == joined; });
    }

    // Worker `id` (1 for the first worker; the caller is 0) joins jobs with a part of that
    // number.
    void worker_loop(int id) {
        inside_parallel_region = true;
        // The worker's own kernel scratch, freed when the worker ends (kernels/scratch.hpp).
        kernels::Scratch scratch;
        kernels::ScratchScope scratch_scope(scratch);
        std::unique_lock<std::mutex> lock(mutex);
        // The generation when the pool was made, not when this thread first runs: a job handed
        // out before then is still this worker's to join.
        uint64_t seen = 0;
        for (;;) {
            lock.unlock();
            poll_for_job(seen);
            lock.lock();
            wake.wait(lock, [&] {
                return stop ||
                       (generation != seen && id < parts_used && helpers_joined < helpers_wanted);
            });
            if (stop) return;
            seen = generation;
            ++helpers_joined;
            lock.unlock();
            run_chunks(id);
            lock.lock();
            if (helpers_left.fetch_add(1, std::memory_order_release) + 1 == helpers_joined)
                finished.notify_one();
        }
    }
};

int ThreadPool::size_for(int threads) noexcept {
    return threads > 0 ? threads
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadPool::ThreadPool(int threads) : impl_(new Impl) {
    threads = size_for(threads);
    impl_->threads = threads;
    try {
        impl_->parts.reset(new Impl::Part[size_t(threads)]);
        for (int i = 1; i < threads; ++i) {
            try {
                impl_->workers.emplace_back([impl = impl_, i] { impl->worker_loop(i); });
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

bool ThreadPool::workers_resting() const noexcept {
    return impl_->rests.load(std::memory_order_relaxed) !=
           impl_->rests_at_last_job.load(std::memory_order_relaxed);
}

void ThreadPool::parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t)> &body) {
    if (n <= 0) return;
    grain = std::max<int64_t>(grain, 1);
    Impl &p = *impl_;
    // One part per thread, each at least the grain long (so every chunk is). Small loops,
    // single-thread pools and nested or concurrent calls run on the caller and pay no
    // synchronisation.
    const int parts = static_cast<int>(std::min<int64_t>(p.threads, n / grain));
    if (parts <= 1 || inside_parallel_region) return body(0, n);
    std::unique_lock<std::mutex> job(p.dispatch, std::try_to_lock);
    if (!job.owns_lock()) return body(0, n);
    {
        std::lock_guard<std::mutex> lock(p.mutex);
        p.body = &body;
        p.grain = grain;
        p.parts_used = parts;
        for (int i = 0; i < parts; ++i) {
            p.parts[size_t(i)].next.store(n * i / parts, std::memory_order_relaxed);
            p.parts[size_t(i)].end = n * (i + 1) / parts;
        }
        p.failed.store(false, std::memory_order_relaxed);
        p.error = nullptr;
        p.helpers_wanted = parts - 1;
        p.helpers_joined = 0;
        p.helpers_left.store(0, std::memory_order_relaxed);
        p.rests_at_last_job.store(p.rests.load(std::memory_order_relaxed),
                                  std::memory_order_relaxed);
        ++p.generation;
    }
    p.wake.notify_all();

    inside_parallel_region = true;
    p.run_chunks(0);
    inside_parallel_region = false;

    int joined;
    {
        std::lock_guard<std::mutex> lock(p.mutex);
        p.helpers_wanted = joined = p.helpers_joined;  // workers still asleep are not needed now
    }
    p.wait_for_helpers(joined);
    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(p.mutex);
        p.finished.wait(lock, [&] { return p.helpers_left.load() == p.helpers_joined; });
        p.body = nullptr;
        error = p.error;
        p.error = nullptr;
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace ng
