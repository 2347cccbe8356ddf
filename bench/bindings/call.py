"""The fixed cost of one run of `a + b` (four floats) from Python, in microseconds per run:
f(a, b) on NumPy arrays (lent without copying) returning a NumPy array (viewing the result), and
Computation.run on prepared tensors (the binding's lowest level).

    NANOGRAPH_LIBRARY=build/release/libnanograph.so PYTHONPATH=bindings/python python3 bench/bindings/call.py [RUNS]
"""
import sys
import time

import numpy as np

import nanograph as ng

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
g = ng.Graph()
N = g.axis("N", 4)
a, b = g.placeholder(ng.float32, [N]), g.placeholder(ng.float32, [N])
f = ng.Transformer().computation(a + b, [a, b])
av, bv = np.array([1, 2, 3, 4], np.float32), np.array([10, 20, 30, 40], np.float32)
ta, tb = ng.Tensor(av), ng.Tensor(bv)
for _ in range(1000):
    f(av, bv)


def timed(call):
    start = time.perf_counter()
    for _ in range(runs):
        call()
    return (time.perf_counter() - start) * 1e6 / runs


print("Python  %8.2f us/run  f(a, b) on NumPy arrays  (%d runs)" % (timed(lambda: f(av, bv)), runs))
print("Python  %8.2f us/run  f.run([ta, tb]) on tensors" % timed(lambda: f.run([ta, tb])))
