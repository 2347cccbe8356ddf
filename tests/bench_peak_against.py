"""bench/peak_against.py on made-up builds: programs that print a given peak per call. The lowest
peak of each build is compared, equal peaks pass, 0.01 MiB more fails naming the workload, and a
program that fails or prints no peak stops the comparison. Nothing is measured.

    python3 tests/bench_peak_against.py
"""
import json
import os
import stat
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench",
                      "peak_against.py")
failures = []

# A stand-in for bench_transformer and bench_train: prints the next peak of peaks.json for its
# --only workload and --threads (one per call, in order; the last repeats), or fails on "fail".
FAKE_PROGRAM = """#!/usr/bin/python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
key = args["--only"] + " " + args["--threads"]
peaks = json.load(open(os.path.join(here, "peaks.json")))[key]
count_file = os.path.join(here, "calls." + key.replace(" ", "."))
calls = int(open(count_file).read()) if os.path.exists(count_file) else 0
open(count_file, "w").write(str(calls + 1))
peak = peaks[min(calls, len(peaks) - 1)]
if peak == "fail":
    sys.exit(3)
if peak != "none":
    print(json.dumps({"impl": "nanograph", "workload": args["--only"], "peak_mib": peak}))
"""


def make_build(root, name, peaks):
    """A build directory whose two programs print `peaks` ({"workload threads": [MiB, ...]})."""
    bench = os.path.join(root, name, "bench")
    os.makedirs(bench)
    with open(os.path.join(bench, "peaks.json"), "w", encoding="utf-8") as f:
        json.dump(peaks, f)
    for program in ("bench_transformer", "bench_train"):
        path = os.path.join(bench, program)
        with open(path, "w", encoding="utf-8") as f:
            f.write(FAKE_PROGRAM)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return os.path.join(root, name)


def compare(old_peaks, new_peaks, *options):
    with tempfile.TemporaryDirectory() as root:
        old = make_build(root, "old", old_peaks)
        new = make_build(root, "new", new_peaks)
        done = subprocess.run([sys.executable, SCRIPT, old, new, *options], capture_output=True,
                              text=True, check=False)
        return done.returncode, done.stdout + done.stderr


def check(condition, what, output=""):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}\n{output}", file=sys.stderr)


def main():
    # Two processes each: the old build's lowest (2.00) against the new build's lowest.
    status, out = compare({"matmul 1": [3.0, 2.0]}, {"matmul 1": [2.5, 2.0]},
                          "--only", "matmul", "--threads", "1")
    check(status == 0, "equal lowest peaks pass", out)
    check("| `matmul` | 1 | 3.00 / 2.00 | 2.50 / 2.00 | +0.00 |" in out,
          "the table shows every process's peak and the difference of the lowest", out)
    status, out = compare({"matmul 1": [3.0, 2.0]}, {"matmul 1": [2.01, 2.5]},
                          "--only", "matmul", "--threads", "1")
    check(status == 1, "0.01 MiB above the old build's lowest fails", out)
    check("Higher than the old build: `matmul` at 1 thread(s)" in out,
          "the workload that is higher is named", out)
    # Every workload at both thread counts by default, the SGD step through bench_train.
    everything = {f"{w} {t}": [1.0] for w in ("l2_diff", "tanh_fma", "softmax", "matmul",
                                               "sum_axis0", "sum_axis1", "tiny_add", "sgd_step",
                                               "adam_epoch") for t in (1, 2)}
    higher = dict(everything, **{"sgd_step 2": [1.5]})
    status, out = compare(everything, higher)
    check(status == 1 and "`sgd_step` at 2 thread(s)" in out and out.count("| `") == 18,
          "all nine workloads at one and two threads, the one higher named", out)
    status, out = compare(everything, everything)
    check(status == 0 and "at or below the old build's on every workload" in out,
          "no workload higher passes", out)
    # A program that fails, or prints no peak, stops the comparison with status 2.
    status, out = compare({"softmax 1": [1.0]}, {"softmax 1": ["fail"]},
                          "--only", "softmax", "--threads", "1")
    check(status == 2 and "exited with 3" in out, "a failing program gives status 2", out)
    status, out = compare({"softmax 1": ["none"]}, {"softmax 1": [1.0]},
                          "--only", "softmax", "--threads", "1")
    check(status == 2 and "printed no peak" in out, "a program without a peak gives status 2",
          out)
    status, out = compare({}, {}, "--only", "bogus")
    check(status == 2 and "no workload named bogus" in out, "an unknown workload is refused", out)
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("bench/peak_against.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
