/* Clocks and memory figures for the benchmarks: a monotonic wall clock, the median of a few
 * timings, and the peak resident memory of the process since a chosen moment. */
#ifndef NG_BENCH_MEASURE_H
#define NG_BENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* Nanoseconds of CLOCK_MONOTONIC. */
int64_t bench_now_ns(void);

/* The median of n values (sorts them in place); 0 when n is 0. */
double bench_median(double *values, size_t n);

/* The peak resident memory of this process from a baseline onwards. */
typedef struct bench_peak_tracker {
    int64_t baseline_kib; /* resident memory when the baseline was taken */
    int hwm_was_reset;    /* 1: the kernel's high-water mark was reset to the baseline */
} bench_peak_tracker_t;

/* Takes the baseline now. Resets the kernel's peak-RSS mark (VmHWM, via /proc/self/clear_refs)
 * so that memory touched earlier (input generation) does not hide later peaks; where the reset
 * is not allowed, falls back to the lifetime peak (getrusage ru_maxrss), which can only
 * under-report what follows. */
void bench_peak_start(bench_peak_tracker_t *tracker);

/* Peak resident memory since the baseline, minus the baseline, in KiB (0 if lower). */
int64_t bench_peak_delta_kib(const bench_peak_tracker_t *tracker);

#endif
