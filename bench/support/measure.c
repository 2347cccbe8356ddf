#define _POSIX_C_SOURCE 200809L
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, size_t n) {
    if (n == 0) return 0;
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* A "VmXXX:   1234 kB" line of /proc/self/status, in KiB; -1 when absent. */
static int64_t status_field_kib(const char *field) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    size_t len = strlen(field);
    int64_t kib = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kib = strtoll(line + len + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

static int64_t lifetime_peak_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss; /* KiB on Linux */
}

static int reset_high_water_mark(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return 0;
    int written = fputs("5", f) >= 0; /* "5": reset the peak RSS to the current RSS */
    return (fclose(f) == 0) && written;
}

void bench_peak_start(bench_peak_tracker_t *tracker) {
    tracker->hwm_was_reset = reset_high_water_mark() && status_field_kib("VmHWM") >= 0;
    tracker->baseline_kib =
        tracker->hwm_was_reset ? status_field_kib("VmRSS") : lifetime_peak_kib();
}

int64_t bench_peak_delta_kib(const bench_peak_tracker_t *tracker) {
    int64_t peak = tracker->hwm_was_reset ? status_field_kib("VmHWM") : lifetime_peak_kib();
    return peak > tracker->baseline_kib ? peak - tracker->baseline_kib : 0;
}
