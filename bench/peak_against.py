#!/usr/bin/python3
"""Peak memory of two builds of nanograph on the same machine, workload by workload.

bench/goals.py judges peak memory against lines measured on the development machine on the day
the goals were set. Peak memory depends on the machine too: OpenBLAS, for one, blocks its
products, and so touches its buffers, by the processor it finds. On another machine, build the
commit of that day (6f85bf6) and compare it with this one here, in the same minutes:

    python3 bench/peak_against.py OLD_BUILD_DIR NEW_BUILD_DIR [--threads 1 2] [--processes 2]
        [--only NAME]

Each build directory holds bench/bench_transformer and bench/bench_train (a Release build; the
old one can be configured without tests or docs). Every workload runs at each thread count in a
fresh process of each build in turn, --processes times, and the lowest peak of each build is
compared (MiB above the inputs, as bench/run.sh records them). Prints a Markdown table and exits
with status 1 when the new build's peak is above the old one's on any workload, 2 when a program
fails.
"""
import argparse
import json
import os
import subprocess
import sys

# (program, workload): the workloads that bench/goals.py has peak lines for.
WORKLOADS = (("bench_transformer", "l2_diff"), ("bench_transformer", "tanh_fma"),
             ("bench_transformer", "softmax"), ("bench_transformer", "matmul"),
             ("bench_transformer", "sum_axis0"), ("bench_transformer", "sum_axis1"),
             ("bench_transformer", "tiny_add"), ("bench_train", "sgd_step"),
             ("bench_train", "adam_epoch"))


def peak_mib(build, program, workload, threads):
    """The peak one process of `build` records for `workload`, in MiB above its inputs."""
    path = os.path.join(build, "bench", program)
    done = subprocess.run([path, "--threads", str(threads), "--only", workload],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{path} --only {workload} exited with {done.returncode}: "
                           f"{done.stderr.strip()[-300:]}")
    for line in done.stdout.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("impl") == "nanograph" and record.get("workload") == workload:
            return float(record["peak_mib"])
    raise RuntimeError(f"{path} --only {workload} printed no peak for nanograph")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="build directory of the earlier commit")
    parser.add_argument("new", help="build directory of the commit to check")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--processes", type=int, default=2,
                        help="processes of each build per workload and thread count")
    parser.add_argument("--only", help="one workload")
    args = parser.parse_args()
    workloads = [w for w in WORKLOADS if args.only in (None, w[1])]
    if not workloads or args.processes < 1:
        parser.error("no workload named " + args.only if not workloads else "--processes < 1")
    print("| workload | threads | old build, MiB | new build, MiB | new - old |")
    print("| --- | ---: | ---: | ---: | ---: |")
    higher = []
    for threads in args.threads:
        for program, workload in workloads:
            peaks = {args.old: [], args.new: []}
            try:
                for _ in range(args.processes):
                    for build in (args.old, args.new):
                        peaks[build].append(peak_mib(build, program, workload, threads))
            except (OSError, RuntimeError) as error:
                print(f"peak_against.py: {error}", file=sys.stderr)
                return 2
            old, new = min(peaks[args.old]), min(peaks[args.new])
            print(f"| `{workload}` | {threads} | {' / '.join(f'{p:.2f}' for p in peaks[args.old])}"
                  f" | {' / '.join(f'{p:.2f}' for p in peaks[args.new])} | {new - old:+.2f} |")
            if new > old:
                higher.append(f"`{workload}` at {threads} thread(s)")
    print()
    print("Higher than the old build: " + ", ".join(higher) if higher else
          "The new build's lowest peak is at or below the old build's on every workload.")
    return 1 if higher else 0


if __name__ == "__main__":
    sys.exit(main())
