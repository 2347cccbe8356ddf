// ThreadPool: coverage of [0, n) exactly once in chunks of at least `grain`, each thread starting
// on its home part, inline execution for small loops, nested calls and single-thread pools,
// exceptions rethrown on the caller, workers joined by the destructor, and resting workers
// woken only for large loops.
#include <chrono>
#include <map>

#include "kernels/parallel.hpp"
#include "test_kernels_support.hpp"

namespace {

struct Chunks {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    std::set<std::thread::id> threads;
};

// Runs parallel_for and checks the chunks tile [0, n) without overlap, each >= grain but the last.
Chunks run_and_check(ng::ThreadPool &pool, int64_t n, int64_t grain) {
    Chunks c;
    std::mutex mutex;
    std::vector<std::atomic<int>> hits(size_t(n > 0 ? n : 0));
    pool.parallel_for(n, grain, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) hits[size_t(i)].fetch_add(1);
        std::lock_guard<std::mutex> lock(mutex);
        c.ranges.emplace_back(begin, end);
        c.threads.insert(std::this_thread::get_id());
    });
    for (int64_t i = 0; i < n; ++i)
        if (hits[size_t(i)] != 1)
            fail_msg("n=%lld grain=%lld: index %lld ran %d times", (long long)n, (long long)grain,
                     (long long)i, int(hits[size_t(i)]));
    for (auto [begin, end] : c.ranges)
        if (end - begin < grain && end != n)
            fail_msg("chunk [%lld, %lld) shorter than grain %lld", (long long)begin, (long long)end,
                     (long long)grain);
    return c;
}

void test_coverage_one_and_four_threads(void **) {
    for (int threads : {1, 4}) {
        ng::ThreadPool pool(threads);
        assert_int_equal(pool.size(), threads);
        for (int64_t n : {int64_t(0), int64_t(1), int64_t(7), int64_t(1000), int64_t(100003)})
            for (int64_t grain : {int64_t(1), int64_t(16), int64_t(5000)})
                run_and_check(pool, n, grain);
        Chunks c = run_and_check(pool, 100000, 1);
        if (threads == 1) {
            assert_int_equal(c.ranges.size(), 1);  // everything on the caller
            assert_true(*c.threads.begin() == std::this_thread::get_id());
        } else {
            assert_true(c.ranges.size() > 1);
        }
    }
    ng::ThreadPool automatic(0);
    assert_true(automatic.size() >= 1);
}

void test_small_loops_run_inline(void **) {
    ng::ThreadPool pool(4);
    Chunks c = run_and_check(pool, 64, 64);  // n <= grain: no hand-off
    assert_int_equal(c.ranges.size(), 1);
    assert_true(*c.threads.begin() == std::this_thread::get_id());
    // Many tiny loops in a row stay on the caller.
    int64_t total = 0;
    for (int i = 0; i < 100000; ++i)
        pool.parallel_for(3, 8, [&](int64_t b, int64_t e) { total += e - b; });
    assert_int_equal(total, 300000);
}

void test_nested_parallel_for(void **) {
    ng::ThreadPool pool(4);
    std::atomic<int64_t> sum{0};
    pool.parallel_for(8, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            pool.parallel_for(1000, 1, [&](int64_t ib, int64_t ie) { sum.fetch_add(ie - ib); });
    });
    assert_int_equal(sum.load(), 8000);
}

// Each thread starts on its home part: the caller on [0, n / threads), worker i on
// [n i / threads, ...). Every thread's first chunk holds on until all threads have started one,
// so that no thread can empty its part and take from another's first; in every one of many
// runs, the first chunks must then start the four parts.
void test_threads_start_on_their_home_parts(void **) {
    constexpr int kThreads = 4;
    ng::ThreadPool pool(kThreads);
    const std::thread::id caller = std::this_thread::get_id();
    for (int run = 0; run < 50; ++run) {
        std::mutex mutex;
        std::map<std::thread::id, int64_t> first_begin;
        std::atomic<int> started{0};
        std::atomic<bool> timed_out{false};
        pool.parallel_for(1000, 1, [&](int64_t begin, int64_t) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (!first_begin.emplace(std::this_thread::get_id(), begin).second) return;
            }
            started.fetch_add(1);
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (started.load() < kThreads && !timed_out.load())
                if (std::chrono::steady_clock::now() > until) timed_out = true;
        });
        if (timed_out.load())
            fail_msg("run %d: %d of %d threads started", run, started.load(), kThreads);
        assert_int_equal(first_begin.size(), kThreads);
        assert_int_equal(first_begin.at(caller), 0);
        std::set<int64_t> starts;
        for (auto [thread, begin] : first_begin) starts.insert(begin);
        assert_true(starts == (std::set<int64_t>{0, 250, 500, 750}));
    }
}

void test_exception_rethrown_on_caller(void **) {
    for (int threads : {1, 4}) {
        ng::ThreadPool pool(threads);
        bool caught = false;
        try {
            pool.parallel_for(1000, 1, [&](int64_t b, int64_t e) {
                if (b <= 500 && 500 < e) throw ng::invalid_argument("chunk holding 500 failed");
            });
        } catch (const ng::Error &err) {
            caught = true;
            kt::expect_contains(err.what(), "500");
        }
        assert_true(caught);
        run_and_check(pool, 10000, 1);  // the pool still works afterwards
    }
}

void test_concurrent_callers_and_destruction(void **) {
    for (int round = 0; round < 20; ++round) {
        ng::ThreadPool pool(4);
        std::atomic<int64_t> total{0};
        auto caller = [&] {
            for (int i = 0; i < 50; ++i)
                pool.parallel_for(2000, 10, [&](int64_t b, int64_t e) { total.fetch_add(e - b); });
        };
        std::thread other(caller);
        caller();
        other.join();
        assert_int_equal(total.load(), 2 * 50 * 2000);
    }  // each destructor joins its workers; ASan/TSan-free exit proves none outlives the pool
}

// workers_resting: set by rest_workers(), cleared by the next job handed out (not by a loop that
// runs on the caller alone, which wakes no one).
void test_workers_resting_until_the_next_job(void **) {
    ng::ThreadPool pool(2);
    assert_false(pool.workers_resting());
    pool.rest_workers();
    assert_true(pool.workers_resting());
    run_and_check(pool, 1, 1);  // one part: inline
    assert_true(pool.workers_resting());
    run_and_check(pool, 1000, 1);
    assert_false(pool.workers_resting());
}

// The number of chunks for_items hands its body for `items` items of `per_item` elements each.
size_t chunks_of(ng::ThreadPool &pool, int64_t items, int64_t per_item) {
    std::mutex mutex;
    size_t chunks = 0;
    int64_t covered = 0;
    ng::kernels::for_items(&pool, items, per_item, [&](int64_t begin, int64_t end) {
        std::lock_guard<std::mutex> lock(mutex);
        ++chunks;
        covered += end - begin;
    });
    assert_int_equal(covered, items);
    return chunks;
}

// Resting workers are woken for at least kWakeMinElements elements; awake ones for
// kParallelMinElements. One chunk means the caller ran the whole loop.
void test_for_items_wakes_resting_workers_only_for_large_loops(void **) {
    using ng::kernels::kParallelMinElements;
    using ng::kernels::kWakeMinElements;
    static_assert(kWakeMinElements > kParallelMinElements, "waking costs more than handing out");
    ng::ThreadPool pool(2);
    const int64_t per_item = 1024;
    const int64_t layer = kParallelMinElements / per_item, large = kWakeMinElements / per_item;
    assert_true(chunks_of(pool, layer, per_item) > 1);  // workers awake: split
    pool.rest_workers();
    assert_int_equal(chunks_of(pool, layer, per_item), 1);  // resting: on the caller
    assert_int_equal(chunks_of(pool, large - 1, per_item), 1);
    assert_true(pool.workers_resting());
    assert_true(chunks_of(pool, large, per_item) > 1);  // large enough to wake them
    assert_false(pool.workers_resting());
    assert_true(chunks_of(pool, layer, per_item) > 1);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coverage_one_and_four_threads),
        cmocka_unit_test(test_small_loops_run_inline),
        cmocka_unit_test(test_nested_parallel_for),
        cmocka_unit_test(test_threads_start_on_their_home_parts),
        cmocka_unit_test(test_exception_rethrown_on_caller),
        cmocka_unit_test(test_concurrent_callers_and_destruction),
        cmocka_unit_test(test_workers_resting_until_the_next_job),
        cmocka_unit_test(test_for_items_wakes_resting_workers_only_for_large_loops),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
