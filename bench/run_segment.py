#!/usr/bin/python3
"""Segment sum and segment softmax over 10^6 real elements in segments of 1 to 1,000 elements
(log-uniform lengths), unpadded and padded with a mask, in nanograph (bench_segment), NumPy and
PyTorch (Debian's, /usr/bin/python3), in one run. Prints a Markdown table: the median
milliseconds of the repetitions, each measurement's time divided by nanograph's unpadded one
(> 1: nanograph unpadded is faster) and the peak resident memory above the inputs.

    /usr/bin/python3 bench/run_segment.py BUILD_DIR [--quick] [--reps N] [--threads N]

nanograph runs with its default thread pool (one worker per core; the segment kernels themselves
are single-threaded), PyTorch with --threads (default 2, the machine's cores).

Every (library, workload, form) runs in a fresh child process that makes its inputs, takes a
memory baseline, runs two warm-ups and the timed repetitions. The peers' unpadded forms are
NumPy's add.reduceat / maximum.reduceat with repeat, and PyTorch's segment_reduce with
repeat_interleave; their padded forms are the masked (segments, 1000) tensors nanograph's padded
form uses. Exits non-zero when a measurement failed or gave a wrong result.
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import PeakTracker  # noqa: E402  (the same peak-memory method as the other benchmarks)

MAX_LENGTH = 1000
WORKLOADS = ("segment_sum", "segment_softmax")
FORMS = ("jagged", "padded")
MASK64 = (1 << 64) - 1


def splits_of(total):
    """The segment boundaries bench_segment.c makes: splitmix64, log-uniform lengths."""
    state, splits = 12345, [0]
    while splits[-1] < total:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        u = (z >> 11) * 2.0 ** -53
        length = min(MAX_LENGTH, max(1, int(math.exp(u * math.log(MAX_LENGTH + 1)))))
        splits.append(min(total, splits[-1] + length))
    return splits


def child(lib, workload, form, total, reps, threads):
    import numpy as np

    splits = np.array(splits_of(total), dtype=np.int64)
    nseg = len(splits) - 1
    lengths = np.diff(splits)
    x = (np.sin(0.001 * np.arange(total)) * 4).astype(np.float32)
    if form == "padded":
        xp = np.zeros((nseg, MAX_LENGTH), np.float32)
        mask = np.zeros((nseg, MAX_LENGTH), np.float32)
        rows = np.repeat(np.arange(nseg), lengths)
        cols = np.arange(total) - np.repeat(splits[:-1], lengths)
        xp[rows, cols] = x
        mask[rows, cols] = 1
    if lib == "torch":
        import torch

        torch.set_num_threads(threads)
        version = torch.__version__
        tx, tl = torch.from_numpy(x), torch.from_numpy(lengths)
        if form == "padded":
            txp, tm = torch.from_numpy(xp), torch.from_numpy(mask)
            fns = {"segment_sum": lambda: (txp * tm).sum(dim=1),
                   "segment_softmax": lambda: torch.softmax(txp + (tm - 1) * 1e9, dim=1) * tm}
        else:
            def softmax():
                m = torch.segment_reduce(tx, "max", lengths=tl)
                e = torch.exp(tx - torch.repeat_interleave(m, tl))
                return e / torch.repeat_interleave(torch.segment_reduce(e, "sum", lengths=tl), tl)
            fns = {"segment_sum": lambda: torch.segment_reduce(tx, "sum", lengths=tl),
                   "segment_softmax": softmax}
        check = lambda y: y.numpy()  # noqa: E731
    else:
        version = np.__version__
        starts = splits[:-1]
        if form == "padded":
            def softmax_padded():
                z = xp + (mask - 1) * 1e9
                e = np.exp(z - z.max(axis=1, keepdims=True))
                return e / e.sum(axis=1, keepdims=True) * mask
            fns = {"segment_sum": lambda: (xp * mask).sum(axis=1), "segment_softmax": softmax_padded}
        else:
            def softmax():
                e = np.exp(x - np.repeat(np.maximum.reduceat(x, starts), lengths))
                return e / np.repeat(np.add.reduceat(e, starts), lengths)
            fns = {"segment_sum": lambda: np.add.reduceat(x, starts), "segment_softmax": softmax}
        check = lambda y: y  # noqa: E731
    fn = fns[workload]
    peak = PeakTracker()
    for _ in range(2):
        y = fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        y = fn()
        times.append((time.perf_counter() - start) * 1e3)
    peak_kib = int(peak.delta_mib() * 1024)
    y = np.asarray(check(y), dtype=np.float64)
    if workload == "segment_sum":
        ok = np.allclose(y, np.add.reduceat(x.astype(np.float64), splits[:-1]), rtol=1e-3, atol=1e-3)
    else:
        sums = y.sum(axis=1) if form == "padded" else np.add.reduceat(y, splits[:-1])
        ok = np.allclose(sums, 1, atol=1e-3)
    print(json.dumps(dict(lib=lib, version=version, workload=workload, form=form, elements=total,
                          segments=nseg, ms=statistics.median(times), peak_kib=peak_kib, ok=bool(ok))))
    return 0 if ok else 1


def measure(command):
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return None
    return lines[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir", nargs="?")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--child", nargs=3, metavar=("LIB", "WORKLOAD", "FORM"))
    args = ap.parse_args()
    total = 10000 if args.quick else 1000000
    if args.child:
        return child(*args.child, total, args.reps, args.threads)
    program = os.path.join(args.build_dir, "bench", "bench_segment")
    if not os.access(program, os.X_OK):
        sys.exit(f"run_segment.py: build the bench_segment target first ({program} is missing)")
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    results, failed = [], []
    for workload in WORKLOADS:
        for form in FORMS:
            for lib in ("nanograph", "numpy", "torch"):
                if lib == "nanograph":
                    cmd = [program, workload, form, "--reps", str(args.reps)] + (["--quick"] if args.quick else [])
                else:
                    cmd = [sys.executable, __file__, "--child", lib, workload, form, "--reps", str(args.reps),
                           "--threads", str(args.threads)] + (["--quick"] if args.quick else [])
                r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env)
                lines = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
                if r.returncode != 0 or not lines or not lines[0]["ok"]:
                    failed.append(f"{lib} {workload} {form}")
                    continue
                results.append(lines[0])
    first = results[0] if results else {}
    print(f"# Segment ops over {first.get('elements')} real elements in {first.get('segments')} segments "
          f"(lengths 1..{MAX_LENGTH}, log-uniform): {platform.node()}, {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, median of {args.reps} repetitions\n")
    print("| workload | library | form | ms | nanograph unpadded is faster by | peak MiB |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for workload in WORKLOADS:
        base = next((r for r in results if r["lib"] == "nanograph" and r["workload"] == workload
                     and r["form"] == "jagged"), None)
        for r in (r for r in results if r["workload"] == workload):
            ratio = f"{r['ms'] / base['ms']:.2f}x" if base else "-"
            print(f"| {workload} | {r['lib']} {r.get('version', '')} | {'unpadded' if r['form'] == 'jagged' else 'padded + mask'} "
                  f"| {r['ms']:.3f} | {ratio} | {r['peak_kib'] / 1024:.1f} |")
    if failed:
        print("\nFAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
