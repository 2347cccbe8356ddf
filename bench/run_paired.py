#!/usr/bin/python3
"""nanograph and its peers in one process, taking turns on the same arrays: paired ratios.

The full benchmark (bench/run_all.py) runs every library in processes of its own. On a shared
virtual machine two processes can differ by more than two libraries do: a process's arrays land on
other pages, and a slow spell of the host falls on one process and not on the next. Here all the
libraries of a workload run in one process, on the same input arrays, and take turns run by run,
in an order that rotates from one pair to the next. The runs of a pair meet the machine in the
same state, so the ratio of a peer's time to nanograph's within a pair cancels what they share.
The report gives each library's median time, and for each peer the median of its per-pair
ratios and the share of pairs in which nanograph was the faster.

    build/bench-venv/bin/python bench/run_paired.py BUILD_DIR_OR_LIBRARY [--threads N] [--pairs P]
        [--only NAME] [--offset BYTES] [--libs numpy,torch,onnxruntime,jax] [--quick] [--json FILE]

nanograph runs through its Python binding (bindings/python) on the library in BUILD_DIR (or the
library file given), and is given the peers' NumPy arrays, lent without copying; it returns its
result as a nanograph Tensor, as PyTorch and JAX return theirs. Every library returns a new result
at each run, dropped before the next. The inputs start --offset bytes past a 2 MiB boundary
(default 0; NumPy's own large arrays start 16 bytes past one). Each workload runs in a fresh child
process with every library at --threads threads, on that many CPUs, and the last result of each
library is checked with the tolerances of bench/peers.py. Exit status 1 when a library fails or
nanograph computes a wrong result; a peer's wrong result is marked WRONG and reported.

One thread (the default) is the fair comparison. At more, the worker threads of the library that
has just run poll for work for a while before they sleep (OpenBLAS's, under NumPy's and
nanograph's matrix products, for 2^28 cycles by default; ONNX Runtime's; OpenMP's under PyTorch;
nanograph's for 0.2 ms) and take a core from the library that runs next: at two threads
nanograph's matrix product took twice its time right after the others. A rest before each run
does not cure it here: on this virtual machine cores that have idled run slower for a while, and
a two-thread sum of nanograph's took 2.6 ms after a rest of 100 ms and four untimed runs, against
1.5 ms run after run.
"""
import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402 - the peers' workloads, setup and checks
from peers import json_lines  # noqa: E402
from run_all import cpu_model  # noqa: E402

WORKLOADS = tuple(w for w in peers.WORKLOADS if w != peers.TINY)  # a tiny run measures Python
HUGE_PAGE = 2 << 20


def placed(values, offset):
    """A copy of `values` that starts `offset` bytes past a 2 MiB boundary."""
    import numpy as np

    raw = np.empty(values.nbytes + HUGE_PAGE + offset, np.uint8)
    start = (-raw.ctypes.data) % HUGE_PAGE + offset
    array = raw[start:start + values.nbytes].view(values.dtype).reshape(values.shape)
    array[...] = values
    return array


def nanograph_workload(workload, xs, threads):
    """The workload of bench/support/workloads.c built through the Python binding."""
    import nanograph as ng

    g = ng.Graph()
    names = {"l2_diff": ["N"], "tanh_fma": ["N"], "softmax": ["N", "C"], "matmul": ["M", "K"],
             "sum_axis0": ["R", "C"], "sum_axis1": ["R", "C"]}[workload]
    axes = [g.axis(name, length) for name, length in zip(names, xs[0].shape)]
    if workload == "matmul":
        params = [g.placeholder(ng.float32, axes),
                  g.placeholder(ng.float32, [axes[1], g.axis("N", xs[1].shape[1])])]
    else:
        params = [g.placeholder(ng.float32, axes) for _ in xs]
    p = params
    result = {
        "l2_diff": lambda: ng.sum(ng.square(p[0] - p[1])),
        "tanh_fma": lambda: ng.tanh(p[0] * p[1] + p[2]) * 0.5 + p[0],
        "softmax": lambda: ng.softmax(p[0], axes[1]),
        "matmul": lambda: p[0] @ p[1],
        "sum_axis0": lambda: ng.sum(p[0], axes[0]),
        "sum_axis1": lambda: ng.sum(p[0], axes[1]),
    }[workload]()
    transformer = ng.Transformer(num_threads=threads)
    computation = transformer.computation(result, params)
    # Computation.run returns nanograph Tensors, as PyTorch and JAX return their own tensors;
    # calling the computation would also make a NumPy view of each (tens of microseconds here,
    # the interpreter's code and data cold after each run swept the cache).
    return ng.__version__, lambda: computation.run(xs)[0]


def measure(workload, libraries, threads, pairs, quick, offset):
    """Runs in a child: every library of `libraries` on the same arrays, in turn; JSON lines."""
    import numpy as np

    peers.limit_cpus(threads)
    shapes = peers.input_shapes(workload, peers.sizes(quick))
    rng = np.random.default_rng(1)
    xs = [placed(rng.random(shape, dtype=np.float32) * 2 - 1, offset) for shape in shapes]
    runs, versions = {}, {}
    with contextlib.ExitStack() as contexts:
        for library in libraries:
            if library == "nanograph":
                versions[library], runs[library] = nanograph_workload(workload, xs, threads)
                continue
            versions[library], context = peers.library_setup(library, threads)
            contexts.enter_context(context())
            if library == "onnxruntime":
                runs[library] = peers.onnxruntime_workload(workload, xs, threads)
            else:
                make = {"numpy": peers.numpy_workload, "torch": peers.torch_workload,
                        "jax": peers.jax_workload}[library]
                runs[library] = make(workload, xs)
        for run in runs.values():
            for _ in range(peers.WARMUP_RUNS):
                run()
        times = {library: [] for library in libraries}
        for pair in range(pairs):
            shift = pair % len(libraries)
            for library in libraries[shift:] + libraries[:shift]:
                start = time.perf_counter_ns()
                result = runs[library]()
                times[library].append((time.perf_counter_ns() - start) / 1e6)
                del result
        checks = {}
        for library, run in runs.items():
            result = run()
            checks[library] = peers.check(workload, xs, result.numpy() if hasattr(result, "numpy") else result)
            del result
    ours = times["nanograph"]
    for library in libraries:
        mine = times[library]
        ratios = [t / n for t, n in zip(mine, ours)]
        print(json.dumps({
            "impl": library, "workload": workload, "shape": "x".join(str(d) for d in shapes[0]),
            "threads": threads, "offset": offset, "pairs": pairs, "version": versions[library],
            "ms": round(statistics.median(mine), 4), "ms_min": round(min(mine), 4),
            "ratio_to_nanograph": round(statistics.median(ratios), 4),
            "nanograph_faster_share": round(sum(r > 1 for r in ratios) / len(ratios), 3),
            "check": "ok" if checks[library] <= 1 else "WRONG", "check_error": checks[library],
        }), flush=True)


def library_file(path):
    return os.path.join(path, "libnanograph.so") if os.path.isdir(path) else path


def child_environment(library, threads):
    env = peers.child_environment(threads)
    env["NANOGRAPH_LIBRARY"] = library
    python_path = os.path.join(os.path.dirname(HERE), "bindings", "python")
    env["PYTHONPATH"] = python_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def time_cell(record):
    return f"{record['ms']:.3f}" + (" WRONG" if record["check"] != "ok" else "")


def table(records, libraries):
    peers_run = [lib for lib in libraries if lib != "nanograph"]
    head = ["workload", "threads", "pairs", "nanograph ms"]
    for lib in peers_run:
        head += [f"{lib} ms", f"{lib}/ng", "ng faster"]
    lines = ["| " + " | ".join(head) + " |", "| --- | ---: | ---: | ---: |" + " ---: |" * (3 * len(peers_run))]
    by_workload = {}
    for r in records:
        by_workload.setdefault(r["workload"], {})[r["impl"]] = r
    for workload, row in by_workload.items():
        ours = row.get("nanograph")
        if not ours:
            continue
        cells = [workload, str(ours["threads"]), str(ours["pairs"]), time_cell(ours)]
        for lib in peers_run:
            r = row.get(lib)
            if r is None:
                cells += ["-", "-", "-"]
                continue
            cells += [time_cell(r), f"{r['ratio_to_nanograph']:.2f}", f"{100 * r['nanograph_faster_share']:.0f}%"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", help="a build directory holding libnanograph.so, or the library file")
    parser.add_argument("--threads", type=int, default=1, help="threads of every library (default 1)")
    parser.add_argument("--pairs", type=int, help="runs of each library, in turn (default 60; 3 with --quick)")
    parser.add_argument("--only", choices=WORKLOADS, help="run one workload")
    parser.add_argument("--offset", type=int, default=0,
                        help="bytes past a 2 MiB boundary at which every input starts (a multiple of 4)")
    parser.add_argument("--libs", default=",".join(peers.LIBRARIES),
                        help="comma-separated peers, of " + ",".join(peers.LIBRARIES))
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test, not a measurement")
    parser.add_argument("--json", help="also write every JSON line to this file")
    parser.add_argument("--child", metavar="WORKLOAD", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error(f"--threads wants a count of 1 or more, not {args.threads}")
    pairs = args.pairs if args.pairs is not None else (3 if args.quick else 60)
    if pairs < 1:
        parser.error(f"--pairs wants a count of 1 or more, not {pairs}")
    if args.offset < 0 or args.offset % 4 or args.offset >= HUGE_PAGE:
        parser.error(f"--offset wants a multiple of 4 from 0 below 2 MiB, not {args.offset}")
    chosen = [lib for lib in args.libs.split(",") if lib]
    unknown = [lib for lib in chosen if lib not in peers.LIBRARIES]
    if unknown:
        parser.error(f"unknown peers {unknown}; choose from {','.join(peers.LIBRARIES)}")
    libraries = ["nanograph"] + chosen
    if args.child:
        measure(args.child, libraries, args.threads, pairs, args.quick, args.offset)
        return 0
    library = os.path.abspath(library_file(args.build))
    if not os.path.isfile(library):
        parser.error(f"no {library}: build the release preset first")
    for lib in [lib for lib in chosen if not peers.available(lib)]:
        print(f"run_paired.py: {lib} is not installed for {sys.executable}: skipped (bash bench/setup-peers.sh)",
              file=sys.stderr)
        libraries.remove(lib)
    records, failures = [], 0
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {cpu_model()}, {os.cpu_count()} cores, {args.threads} threads, inputs {args.offset} bytes past a 2 MiB boundary; "
          f"load average {os.getloadavg()[0]:.2f} before")
    for workload in [args.only] if args.only else WORKLOADS:
        command = [sys.executable, os.path.abspath(__file__), args.build, "--child", workload,
                   "--threads", str(args.threads), "--pairs", str(pairs), "--offset", str(args.offset),
                   "--libs", ",".join(lib for lib in libraries if lib != "nanograph")]
        command += ["--quick"] if args.quick else []
        done = subprocess.run(command, env=child_environment(library, args.threads),
                              stdout=subprocess.PIPE, text=True)
        lines = json_lines(done.stdout)
        failures += peers.child_failed("run_paired.py", workload, done.returncode, lines)
        records += lines
    if args.json:
        with open(args.json, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
    print()
    print(table(records, libraries))
    print(f"\nload average {os.getloadavg()[0]:.2f} after")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
