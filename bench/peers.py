#!/usr/bin/python3
"""The workloads of bench_transformer, run by NumPy and PyTorch (Debian's, via /usr/bin/python3).

Measured as bench_transformer measures nanograph: each (library, workload) pair runs in a fresh
child process that creates its inputs, takes a memory baseline, runs warm-up and timed
repetitions, and prints one JSON line with the median milliseconds per repetition and the peak
resident memory above the baseline. Sizes, names and shape labels must match
bench/support/workloads.c: bench/run_all.py joins the lines on them and refuses a mismatch.

    /usr/bin/python3 bench/peers.py [--threads N] [--quick] [--only NAME] [--libs numpy,torch]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

WORKLOADS = ("l2_diff", "tanh_fma", "softmax", "matmul", "sum_axis0", "sum_axis1", "tiny_add")
LIBRARIES = ("numpy", "torch")
TINY = "tiny_add"
WARMUP_RUNS = 2
TINY_WARMUP_CALLS = 1000


def sizes(quick):
    if quick:
        return dict(elementwise=1 << 16, softmax_rows=64, softmax_cols=128, matmul=64, reduce_side=256,
                    tiny_calls=10000, reps=3, tiny_reps=2)
    return dict(elementwise=1 << 24, softmax_rows=4096, softmax_cols=1024, matmul=1024, reduce_side=4096,
                tiny_calls=1000000, reps=10, tiny_reps=3)


def input_shapes(workload, s):
    n, side, m = s["elementwise"], s["reduce_side"], s["matmul"]
    return {
        "l2_diff": [(n,), (n,)],
        "tanh_fma": [(n,), (n,), (n,)],
        "softmax": [(s["softmax_rows"], s["softmax_cols"])],
        "matmul": [(m, m), (m, m)],
        "sum_axis0": [(side, side)],
        "sum_axis1": [(side, side)],
        "tiny_add": [(4,), (4,)],
    }[workload]


# ---- peak resident memory (as bench/support/measure.c) ------------------------------------------

def _status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


class PeakTracker:
    """Peak RSS above a baseline: resets the kernel's VmHWM where allowed, else ru_maxrss."""

    def __init__(self):
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # reset the peak RSS to the current RSS
            self.method = "vmhwm" if _status_kib("VmHWM") is not None else "ru_maxrss"
        except OSError:
            self.method = "ru_maxrss"
        self.baseline_kib = self._peak_kib() if self.method == "ru_maxrss" else _status_kib("VmRSS")

    def _peak_kib(self):
        if self.method == "vmhwm":
            return _status_kib("VmHWM")
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

    def delta_mib(self):
        return max(0, self._peak_kib() - self.baseline_kib) / 1024.0


# ---- the workloads --------------------------------------------------------------------------------

def numpy_workload(workload, xs):
    import numpy as np

    def softmax(x):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    if workload == TINY:
        out = np.empty_like(xs[0])
        return lambda: np.add(xs[0], xs[1], out=out)
    return {
        "l2_diff": lambda: np.sum((xs[0] - xs[1]) ** 2),
        "tanh_fma": lambda: np.tanh(xs[0] * xs[1] + xs[2]) * 0.5 + xs[0],
        "softmax": lambda: softmax(xs[0]),
        "matmul": lambda: xs[0] @ xs[1],
        "sum_axis0": lambda: xs[0].sum(axis=0),
        "sum_axis1": lambda: xs[0].sum(axis=1),
    }[workload]


def torch_workload(workload, xs):
    import torch

    ts = [torch.from_numpy(x) for x in xs]  # shares the arrays' memory: no copy after the baseline
    if workload == TINY:
        out = torch.empty_like(ts[0])
        return lambda: torch.add(ts[0], ts[1], out=out)
    return {
        "l2_diff": lambda: torch.sum((ts[0] - ts[1]) ** 2),
        "tanh_fma": lambda: torch.tanh(ts[0] * ts[1] + ts[2]) * 0.5 + ts[0],
        "softmax": lambda: torch.softmax(ts[0], dim=1),
        "matmul": lambda: ts[0] @ ts[1],
        "sum_axis0": lambda: ts[0].sum(dim=0),
        "sum_axis1": lambda: ts[0].sum(dim=1),
    }[workload]


def library_setup(library, threads):
    """Imports the library with its thread count set; returns (version, context manager factory)."""
    import contextlib

    if library == "torch":
        import torch

        torch.set_num_threads(threads)
        return torch.__version__, torch.inference_mode
    import numpy

    return numpy.__version__, contextlib.nullcontext


def run_child(library, workload, threads, quick):
    """One (library, workload) measurement in this process; prints its JSON line."""
    import numpy as np

    version, context = library_setup(library, threads)
    s = sizes(quick)
    shapes = input_shapes(workload, s)
    rng = np.random.default_rng(1)
    xs = [rng.random(shape, dtype=np.float32) * 2 - 1 for shape in shapes]

    peak = PeakTracker()
    tiny = workload == TINY
    reps = s["tiny_reps"] if tiny else s["reps"]
    calls = s["tiny_calls"] if tiny else 1
    with context():
        run = (numpy_workload if library == "numpy" else torch_workload)(workload, xs)
        # Each run drops the previous result before making the next (as bench_transformer does),
        # so the peak holds one result; the tiny graph writes into its preallocated output.
        result = None
        for _ in range(TINY_WARMUP_CALLS if tiny else WARMUP_RUNS):
            result = None
            result = run()
        times_ms = []
        for _ in range(reps):
            start = time.perf_counter_ns()  # CLOCK_MONOTONIC on Linux
            for _ in range(calls):
                result = None
                result = run()
            times_ms.append((time.perf_counter_ns() - start) / 1e6)
        del result
    print(json.dumps({
        "impl": library, "workload": workload, "shape": "x".join(str(d) for d in shapes[0]),
        "threads": threads, "reps": reps, "calls_per_rep": calls,
        "ms": round(statistics.median(times_ms), 4), "ms_min": round(min(times_ms), 4),
        "peak_mib": round(peak.delta_mib(), 2), "peak_method": peak.method, "version": version,
    }), flush=True)


def child_environment(threads):
    env = dict(os.environ)
    # NumPy's BLAS (OpenBLAS on Debian) and PyTorch's OpenMP read these when they load.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = str(threads)
    return env


def run_all(libraries, workloads, threads, quick):
    """Every pair in a fresh child; returns the number of pairs that failed."""
    failures = 0
    for workload in workloads:
        for library in libraries:
            command = [sys.executable, os.path.abspath(__file__), "--child", library, workload,
                       "--threads", str(threads)] + (["--quick"] if quick else [])
            done = subprocess.run(command, env=child_environment(threads), stdout=subprocess.PIPE, text=True)
            sys.stdout.write(done.stdout)
            sys.stdout.flush()
            if done.returncode != 0:
                print(f"peers.py: {library} {workload} failed with status {done.returncode}", file=sys.stderr)
                failures += 1
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads of every library (default 2)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test, not a measurement")
    parser.add_argument("--only", choices=WORKLOADS, help="run one workload")
    parser.add_argument("--libs", default=",".join(LIBRARIES), help="comma-separated subset of numpy,torch")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "WORKLOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads wants a count of 1 or more")
    if args.child:
        library, workload = args.child
        if library not in LIBRARIES or workload not in WORKLOADS:
            parser.error(f"unknown child {library} {workload}")
        run_child(library, workload, args.threads, args.quick)
        return 0
    libraries = [lib for lib in args.libs.split(",") if lib]
    unknown = [lib for lib in libraries if lib not in LIBRARIES]
    if unknown:
        parser.error(f"unknown libraries {unknown}; choose from {LIBRARIES}")
    workloads = [args.only] if args.only else list(WORKLOADS)
    return 1 if run_all(libraries, workloads, args.threads, args.quick) else 0


if __name__ == "__main__":
    sys.exit(main())
