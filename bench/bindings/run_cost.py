"""What the Python binding adds to a large run: the row sums of a 4096 x 4096 float matrix (64 MiB,
so every run leaves the interpreter's code and data cold), on one thread and one CPU, through

    raw    one ctypes call of ng_computation_run, on an input tensor wrapped once;
    wrap   the same call on an input wrapped at every run (ng_tensor_wrap, ng_tensor_release);
    run    Computation.run([x]), the binding's lowest level on a NumPy array;
    call   the computation called on the array, returning a NumPy view of the result;
    torch  PyTorch's x.sum(dim=1), when PyTorch is installed (the same memory, shared);

in turn, in an order that rotates from round to round. Prints each one's median in ms, and
run, call and torch minus raw in microseconds (when raw runs). WAYS (default all) names the ways
to run, comma-separated: `run,torch` is run_paired.py's pairing.

    NANOGRAPH_LIBRARY=build/release/libnanograph.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/bindings/run_cost.py [ROUNDS [WAYS]]
"""
import ctypes
import os
import statistics
import sys
import time

import numpy as np

os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
try:
    import torch

    torch.set_num_threads(1)
except ImportError:
    torch = None

import nanograph as ng  # noqa: E402 - after the CPU is chosen
from nanograph._lib import lib  # noqa: E402
from nanograph._tensor import borrow_numpy  # noqa: E402

HUGE_PAGE = 2 << 20
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 120

# The matrix starts on a 2 MiB boundary, as bench_ab's and run_paired.py's do.
raw_bytes = np.empty(4096 * 4096 * 4 + HUGE_PAGE, np.uint8)
start = (-raw_bytes.ctypes.data) % HUGE_PAGE
x = raw_bytes[start:start + 4096 * 4096 * 4].view(np.float32).reshape(4096, 4096)
x[...] = np.random.default_rng(1).standard_normal((4096, 4096), dtype=np.float32)

g = ng.Graph()
R, C = g.axis("R", 4096), g.axis("C", 4096)
p = g.placeholder(ng.float32, [R, C])
f = ng.Transformer(num_threads=1).computation(ng.sum(p, C), [p])
handle = f.handle
wrapped_once = borrow_numpy(x)
inputs_once = (ctypes.c_void_p * 1)(wrapped_once)
inputs, outputs = (ctypes.c_void_p * 1)(), (ctypes.c_void_p * 1)()


def run_raw(ins):
    status = lib.computation_run(handle, ins, 1, outputs, 1)
    lib.tensor_release(outputs[0])
    outputs[0] = None  # a NULL slot: a new result at the next run
    return status


def raw():
    assert run_raw(inputs_once) == 0


def wrap():
    t = borrow_numpy(x)
    inputs[0] = t
    status = run_raw(inputs)
    lib.tensor_release(t)
    assert status == 0


ways = {"raw": raw, "wrap": wrap, "run": lambda: f.run([x]), "call": lambda: f(x)}
if torch is not None:
    tx = torch.from_numpy(x)
    ways["torch"] = lambda: tx.sum(dim=1)
want = x.sum(axis=1, dtype=np.float64)
assert np.allclose(f(x), want, rtol=1e-4, atol=1e-2), "the row sums are wrong"

names = sys.argv[2].split(",") if len(sys.argv) > 2 else list(ways)
unknown = [name for name in names if name not in ways]
if unknown:
    sys.exit("run_cost.py: no way named %s; the ways: %s" % (", ".join(unknown), ",".join(ways)))
times = {name: [] for name in names}
for r in range(rounds + 10):
    shift = r % len(names)
    for name in names[shift:] + names[:shift]:
        begin = time.perf_counter_ns()
        ways[name]()
        if r >= 10:  # the first rounds warm up
            times[name].append((time.perf_counter_ns() - begin) / 1e6)
lib.tensor_release(wrapped_once)
medians = {name: statistics.median(times[name]) for name in names}
for name in names:
    extra = "" if name in ("raw", "wrap") or "raw" not in medians else "  %+6.0f us against raw" % (
        (medians[name] - medians["raw"]) * 1e3)
    print("%-6s %7.3f ms%s" % (name, medians[name], extra))
