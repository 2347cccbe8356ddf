#!/usr/bin/python3
"""The workloads of bench_transformer, run by NumPy and PyTorch (Debian's), ONNX Runtime and JAX
(from PyPI, in the virtual environment of bench/setup-peers.sh, which also sees Debian's packages).

Measured as bench_transformer measures nanograph: each (library, workload, thread count) runs in a
fresh child process that creates its inputs, takes a memory baseline, runs warm-up and timed
repetitions, checks its last result against a double-precision computation with the tolerances of
bench/support/workloads.c, and prints one JSON line with the median milliseconds per repetition,
the peak resident memory above the baseline and the check ("ok" or "WRONG"). Sizes, names and
shape labels must match bench/support/workloads.c: bench/run_all.py joins the lines on them and
refuses a mismatch. A library that is not installed is skipped with a note on stderr. Exit status 1
when a child fails; a wrong result is reported on stderr and marked WRONG, and is not a failure.

Every library runs at each thread count of --thread-counts (default: 1 up to --threads), so that
the report can show it at nanograph's count and at its own fastest.

    python bench/peers.py [--threads N] [--thread-counts 1,2] [--quick] [--only NAME]
                          [--libs numpy,torch,onnxruntime,jax]
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
LIBRARIES = ("numpy", "torch", "onnxruntime", "jax")
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


def onnx_model(workload, xs):
    """The workload as an ONNX model (opset 13) over inputs x0, x1, ... with output y."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    n = helper.make_node
    nodes, initializers = {
        "l2_diff": ([n("Sub", ["x0", "x1"], ["d"]), n("Mul", ["d", "d"], ["s"]),
                     n("ReduceSum", ["s"], ["y"], keepdims=0)], []),
        "tanh_fma": ([n("Mul", ["x0", "x1"], ["p"]), n("Add", ["p", "x2"], ["q"]), n("Tanh", ["q"], ["t"]),
                      n("Mul", ["t", "half"], ["h"]), n("Add", ["h", "x0"], ["y"])],
                     [numpy_helper.from_array(np.array(0.5, dtype=np.float32), "half")]),
        "softmax": ([n("Softmax", ["x0"], ["y"], axis=1)], []),
        "matmul": ([n("MatMul", ["x0", "x1"], ["y"])], []),
        "sum_axis0": ([n("ReduceSum", ["x0", "axis0"], ["y"], keepdims=0)],
                      [numpy_helper.from_array(np.array([0], dtype=np.int64), "axis0")]),
        "sum_axis1": ([n("ReduceSum", ["x0", "axis1"], ["y"], keepdims=0)],
                      [numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1")]),
        "tiny_add": ([n("Add", ["x0", "x1"], ["y"])], []),
    }[workload]
    inputs = [helper.make_tensor_value_info(f"x{i}", TensorProto.FLOAT, list(x.shape)) for i, x in enumerate(xs)]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, workload, inputs, [output], initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def ort_session(model_bytes, threads):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])


def onnxruntime_workload(workload, xs, threads):
    import numpy as np

    session = ort_session(onnx_model(workload, xs), threads)
    feeds = {f"x{i}": x for i, x in enumerate(xs)}
    if workload == TINY:
        # The fastest call ONNX Runtime has for a tiny model: inputs and output bound once.
        binding = session.io_binding()
        for name, x in feeds.items():
            binding.bind_cpu_input(name, x)
        out = np.empty_like(xs[0])
        binding.bind_output("y", "cpu", 0, np.float32, out.shape, out.ctypes.data)

        def run():
            session.run_with_iobinding(binding)
            return out

        return run
    return lambda: session.run(["y"], feeds)[0]


def jax_workload(workload, xs):
    import jax
    import jax.numpy as jnp

    functions = {
        "l2_diff": lambda x, y: jnp.sum((x - y) ** 2),
        "tanh_fma": lambda a, b, c: jnp.tanh(a * b + c) * 0.5 + a,
        "softmax": lambda x: jax.nn.softmax(x, axis=1),
        "matmul": lambda a, b: a @ b,
        "sum_axis0": lambda x: x.sum(axis=0),
        "sum_axis1": lambda x: x.sum(axis=1),
        "tiny_add": lambda a, b: a + b,
    }
    f = jax.jit(functions[workload])
    args = [jax.device_put(x) for x in xs]
    return lambda: f(*args).block_until_ready()


def library_setup(library, threads):
    """Imports the library with its thread count set; returns (version, context manager factory)."""
    import contextlib

    if library == "torch":
        import torch

        torch.set_num_threads(threads)
        return torch.__version__, torch.inference_mode
    if library == "onnxruntime":
        import onnxruntime

        return onnxruntime.__version__, contextlib.nullcontext
    if library == "jax":
        import jax

        jax.config.update("jax_platforms", "cpu")
        return jax.__version__, contextlib.nullcontext
    import numpy

    return numpy.__version__, contextlib.nullcontext


def check(workload, xs, result):
    """The worst error of result in units of its tolerance (as bench/support/workloads.c)."""
    import numpy as np

    y = np.asarray(result, dtype=np.float64)
    x = [np.asarray(v, dtype=np.float64) for v in xs]
    eps = float(np.finfo(np.float32).eps)

    def units(ref, tol):
        if not np.all(np.isfinite(y)):
            return float("inf")
        diff = np.abs(y - ref)
        return float(np.max(np.where(diff == 0, 0, diff / np.maximum(tol, 1e-300))))

    if workload == "l2_diff":
        ref = np.sum((x[0] - x[1]) ** 2)
        return units(ref, 1e-4 * ref)
    if workload == "tanh_fma":
        ref = np.tanh(x[0] * x[1] + x[2]) * 0.5 + x[0]
        return units(ref, 1e-5 * (1 + np.abs(ref)))
    if workload == "softmax":
        e = np.exp(x[0] - x[0].max(axis=1, keepdims=True))
        ref = e / e.sum(axis=1, keepdims=True)
        return units(ref, (x[0].shape[1] + 4) * eps * ref)
    if workload == "matmul":
        rows = [step * (x[0].shape[0] - 1) // 8 for step in range(9)]
        terms = x[0][rows, :, None] * x[1][None, :, :]
        ref, magnitude = terms.sum(axis=1), np.abs(terms).sum(axis=1)
        y = y[rows]
        return units(ref, x[0].shape[1] * eps * magnitude + np.finfo(np.float32).tiny)
    if workload in ("sum_axis0", "sum_axis1"):
        axis = 0 if workload == "sum_axis0" else 1
        ref, magnitude = x[0].sum(axis=axis), np.abs(x[0]).sum(axis=axis)
        return units(ref, x[0].shape[axis] * eps * magnitude + np.finfo(np.float32).tiny)
    ref = (xs[0] + xs[1]).astype(np.float64)  # one float add, rounded once: must match exactly
    return 0.0 if np.array_equal(y, ref) else float("inf")


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
        if library == "onnxruntime":
            run = onnxruntime_workload(workload, xs, threads)
        else:
            run = {"numpy": numpy_workload, "torch": torch_workload, "jax": jax_workload}[library](workload, xs)
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
        peak_mib = peak.delta_mib()  # before the check, whose double-precision copies are not the peer's
        error_units = check(workload, xs, result.numpy() if hasattr(result, "numpy") else result)
        del result
    print(json.dumps({
        "impl": library, "workload": workload, "shape": "x".join(str(d) for d in shapes[0]),
        "threads": threads, "reps": reps, "calls_per_rep": calls,
        "ms": round(statistics.median(times_ms), 4), "ms_min": round(min(times_ms), 4),
        "peak_mib": round(peak_mib, 2), "peak_method": peak.method, "version": version,
        "check": "ok" if error_units <= 1 else "WRONG", "check_error": error_units,
    }), flush=True)


def child_environment(threads):
    env = dict(os.environ)
    # NumPy's BLAS (OpenBLAS on Debian) and PyTorch's OpenMP read these when they load.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = str(threads)
    # XLA's CPU client has no thread-count setting: one thread is its single-threaded Eigen mode;
    # other counts are set by the CPUs the child may run on (limit_cpus).
    if threads == 1:
        flags = env.get("XLA_FLAGS", "")
        env["XLA_FLAGS"] = (flags + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1").strip()
    return env


def limit_cpus(threads):
    """Keeps this process (and the threads it starts) on `threads` CPUs when it may use more."""
    allowed = sorted(os.sched_getaffinity(0))
    if threads < len(allowed):
        os.sched_setaffinity(0, allowed[:threads])


def available(library):
    import importlib.util

    return importlib.util.find_spec(library) is not None and (library != "onnxruntime" or
                                                               importlib.util.find_spec("onnx") is not None)


def json_lines(text):
    """The JSON records among a program's output lines."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def child_failed(tool, what, returncode, records):
    """Reports on stderr how the child that ran `what` (a label such as "torch l2_diff (2
    threads)") ended, given its exit status and its JSON records; returns whether it failed. A
    peer's result outside its tolerance says something about the peer, not about the run: it is
    marked WRONG in the tables and reported here, and is not a failure. nanograph's is."""
    wrong = [r["impl"] for r in records if r.get("check", "ok") != "ok"]
    for impl in wrong:
        if impl != "nanograph":
            print(f"{tool}: {what}: {impl}'s result is outside the tolerance, marked WRONG (not a "
                  "failure of the run)", file=sys.stderr)
    if "nanograph" in wrong:
        print(f"{tool}: {what}: nanograph computed a wrong result", file=sys.stderr)
    elif returncode != 0:
        print(f"{tool}: {what}: failed with status {returncode}", file=sys.stderr)
    return returncode != 0 or "nanograph" in wrong


def run_all(libraries, workloads, thread_counts, quick):
    """Every (workload, library, thread count) in a fresh child; returns the number that failed
    (child_failed)."""
    failures = 0
    for workload in workloads:
        for library in libraries:
            for threads in thread_counts:
                command = [sys.executable, os.path.abspath(__file__), "--child", library, workload,
                           "--threads", str(threads)] + (["--quick"] if quick else [])
                done = subprocess.run(command, env=child_environment(threads), stdout=subprocess.PIPE, text=True)
                sys.stdout.write(done.stdout)
                sys.stdout.flush()
                failures += child_failed("peers.py", f"{library} {workload} ({threads} threads)",
                                         done.returncode, json_lines(done.stdout))
    return failures


def thread_count_list(text, threads):
    if not text:
        return list(range(1, threads + 1))
    counts = sorted({int(t) for t in text.split(",") if t})
    if not counts or counts[0] < 1:
        raise ValueError(text)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads of every library (default 2)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test, not a measurement")
    parser.add_argument("--only", choices=WORKLOADS, help="run one workload")
    parser.add_argument("--thread-counts", help="comma-separated thread counts to run each library at "
                        "(default: every count from 1 to --threads)")
    parser.add_argument("--libs", default=",".join(LIBRARIES), help="comma-separated subset of " + ",".join(LIBRARIES))
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "WORKLOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads wants a count of 1 or more")
    if args.child:
        library, workload = args.child
        if library not in LIBRARIES or workload not in WORKLOADS:
            parser.error(f"unknown child {library} {workload}")
        limit_cpus(args.threads)
        run_child(library, workload, args.threads, args.quick)
        return 0
    libraries = [lib for lib in args.libs.split(",") if lib]
    unknown = [lib for lib in libraries if lib not in LIBRARIES]
    if unknown:
        parser.error(f"unknown libraries {unknown}; choose from {LIBRARIES}")
    for lib in [lib for lib in libraries if not available(lib)]:
        print(f"peers.py: {lib} is not installed for {sys.executable}: skipped (bash bench/setup-peers.sh)",
              file=sys.stderr)
        libraries.remove(lib)
    try:
        # --quick is a smoke test: nanograph's thread count only, unless told otherwise
        thread_counts = ([args.threads] if args.quick and not args.thread_counts
                         else thread_count_list(args.thread_counts, args.threads))
    except ValueError:
        parser.error(f"--thread-counts wants counts of 1 or more, not '{args.thread_counts}'")
    workloads = [args.only] if args.only else list(WORKLOADS)
    return 1 if run_all(libraries, workloads, thread_counts, args.quick) else 0


if __name__ == "__main__":
    sys.exit(main())
