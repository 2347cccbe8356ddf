"""bench/hot_functions.py on made-up inputs: which functions a callgrind output file says the
library ran (names given in full once, then by number; calls into other objects not counted),
and the order the linker gets (outside the per-instruction-set kernels first, then the AVX-512,
AVX2 and SSE2 kernels, each kernel listed for all three; more processes first, then by name).
Nothing is run under valgrind.

Given a built library, also checks that cmake/hot-functions.txt has not gone stale: at least 90%
of the functions it lists are in the library (all of them in a Release build when the list is
fresh; a Debug build keeps some functions inline).

    python3 tests/bench_hot_functions.py [LIBRARY]
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import hot_functions  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, expected {want!r}")


CALLGRIND = """\
version: 1
events: Ir
ob=(1) /usr/lib/libc.so.6
fn=(1) memcpy
0 10
ob=(2) /build/libnanograph.so.0.1.0
fn=(2) _ZN2ng3runEv
0 5
cob=(1)
cfn=(1)
calls=1 0
0 7
fn=(3) _ZN2ng7compileEv
0 3
ob=(1)
fn=(1)
0 2
ob=(2)
fn=(2)
0 1
ob=(3) /usr/lib/libopenblas.so.0
fn=(4) cblas_sgemm
0 9
"""

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "callgrind.out.1")
    with open(path, "w", encoding="utf-8") as f:
        f.write(CALLGRIND)
    expect("executed_functions", hot_functions.executed_functions(path),
           {"_ZN2ng3runEv", "_ZN2ng7compileEv"})

SYMBOLS = {
    "run": "ng::run()",
    "compile": "ng::compile()",
    "cold": "ng::cold()",
    "k512": "void ng::kernel<xsimd::avx512f>(float*)",
    "k2": "void ng::kernel<xsimd::fma3<xsimd::avx2> >(float*)",
    "k1": "void ng::kernel<xsimd::sse2>(float*)",
    "j512": "void ng::other<xsimd::avx512f>(float*)",
    "j1": "void ng::other<xsimd::sse2>(float*)",
}
RUNS = [{"run", "compile", "k512", "missing"}, {"run", "j1"}, {"run", "compile"}]
expect("hot_order", hot_functions.hot_order(RUNS, SYMBOLS),
       ["run", "compile", "j512", "k512", "k2", "j1", "k1"])
expect("hot_order of nothing", hot_functions.hot_order([], SYMBOLS), [])

if len(sys.argv) > 1:
    listed = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                           "cmake", "hot-functions.txt"))
    with open(listed, encoding="utf-8") as f:
        names = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    in_library = hot_functions.library_symbols(sys.argv[1])
    present = sum(name in in_library for name in names)
    print(f"{present} of the {len(names)} functions in {listed} are in {sys.argv[1]}")
    if not names or present < 0.9 * len(names):
        failures.append("cmake/hot-functions.txt is stale: run bench/hot_functions.py BUILD_DIR")

for failure in failures:
    print("FAIL:", failure)
print("bench_hot_functions:", "failed" if failures else "passed")
sys.exit(1 if failures else 0)
