#!/usr/bin/python3
"""How the time to build, derive and compile a graph grows with its number of ops: nanograph's
bench_graph_size over four workloads (a chain of adds, a wide sum of products, a balanced tree of
adds, and the chain with its derivative) at 1,000, 10,000 and 100,000 ops. Prints a Markdown
table of the median seconds and peak memory of each, the scaling ratio of each figure (its time
at 10 times the ops divided by its time at 1 times: 10 is linear growth, 100 quadratic), and the
verdicts on the two graph-size goals:

- a chain of 100,000 adds builds in under 0.5 s;
- the 100,000-op graph of a chain and its derivative derives and compiles in under 3 s.

    /usr/bin/python3 bench/run_graph_size.py BUILD_DIR [--quick] [--rounds N] [--json FILE]

Every measurement runs in a fresh child process (one graph, one compile); --rounds (default 3)
repeats each and the table shows the medians. --quick stops at 10,000 ops (no verdicts).
--json writes one record per workload and size (the medians and each round's figures) to FILE,
which bench/goals.py reads beside a run's other records (bash bench/run.sh writes it as
FILE.graph). Exits non-zero when a measurement failed or computed a wrong value.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

WORKLOADS = ("chain", "wide_sum", "tree", "chain_deriv")
SIZES = (1000, 10000, 100000)
FIGURES = ("build_s", "deriv_s", "compile_s", "run_s")
BUILD_GOAL_S = 0.5     # a chain of 100,000 adds builds in less
COMPILE_GOAL_S = 3.0   # the chain and its derivative (100,000 ops) derive and compile in less
GOAL_OPS = 100000


def program_of(build):
    """bench_graph_size in a build directory, or the path given."""
    if os.path.isfile(build) and os.access(build, os.X_OK):
        return build
    return os.path.join(build, "bench", "bench_graph_size")


def measure(program, workload, ops, rounds):
    """The median record of `rounds` child runs (with each round's figures as round_*)."""
    runs = []
    for _ in range(rounds):
        done = subprocess.run([program, workload, str(ops)], capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{workload} at {ops} ops failed ({done.returncode}): "
                               f"{done.stderr.strip() or done.stdout.strip()}")
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    record = dict(runs[0])
    for key in FIGURES + ("peak_mib",):
        values = [r[key] for r in runs]
        record[key] = statistics.median(values)
        record["round_" + key] = values
    record["check"] = "ok" if all(r["check"] == "ok" for r in runs) else "WRONG"
    return record


def seconds(value):
    return f"{value:.4f}" if value < 10 else f"{value:.2f}"


def ratio(records, workload, ops, key):
    """The figure at `ops` over the figure at ops / 10, or None."""
    small = records.get((workload, ops // 10))
    large = records.get((workload, ops))
    if not small or not large or small[key] <= 0:
        return None
    return large[key] / small[key]


def verdicts(records):
    """(goal, figure, line, met) for the goals the records have figures for."""
    out = []
    chain = records.get(("chain", GOAL_OPS))
    if chain:
        out.append((f"a chain of {GOAL_OPS:,} adds builds in under {BUILD_GOAL_S} s",
                    chain["build_s"], BUILD_GOAL_S, chain["build_s"] < BUILD_GOAL_S))
    deriv = records.get(("chain_deriv", GOAL_OPS))
    if deriv:
        figure = deriv["deriv_s"] + deriv["compile_s"]
        out.append((f"the chain and its derivative ({deriv['graph_ops']:,} ops) derive and "
                    f"compile in under {COMPILE_GOAL_S} s", figure, COMPILE_GOAL_S,
                    figure < COMPILE_GOAL_S))
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args(argv[1:])
    program = program_of(args.build)
    sizes = SIZES[:2] if args.quick else SIZES
    records, failed = {}, False
    for workload in WORKLOADS:
        for ops in sizes:
            try:
                records[(workload, ops)] = measure(program, workload, ops, max(1, args.rounds))
            except (RuntimeError, OSError, ValueError) as e:
                print(f"run_graph_size.py: {e}", file=sys.stderr)
                failed = True
    print(f"Graph size: median of {args.rounds} processes each; seconds, and peak MiB above "
          "the process at start.\n")
    print("| workload | ops (graph) | build | deriv | compile | run | peak MiB | check |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for (workload, ops), r in records.items():
        print(f"| {workload} | {ops:,} ({r['graph_ops']:,}) | {seconds(r['build_s'])} | "
              f"{seconds(r['deriv_s'])} | {seconds(r['compile_s'])} | {seconds(r['run_s'])} | "
              f"{r['peak_mib']:.1f} | {r['check']} |")
    print("\nScaling: the time at 10 times the ops over the time at 1 times (10: linear).\n")
    print("| workload | ops | build | deriv | compile |")
    print("| --- | --- | ---: | ---: | ---: |")
    for workload in WORKLOADS:
        for ops in sizes[1:]:
            cells = []
            for key in ("build_s", "deriv_s", "compile_s"):
                value = ratio(records, workload, ops, key)
                cells.append("-" if value is None or key == "deriv_s" and workload !=
                             "chain_deriv" else f"{value:.1f}")
            print(f"| {workload} | {ops // 10:,} to {ops:,} | {' | '.join(cells)} |")
    if not args.quick:
        print("\n| goal | nanograph | line | verdict |")
        print("| --- | ---: | ---: | --- |")
        for goal, figure, line, met in verdicts(records):
            print(f"| {goal} | {figure:.3f} s | {line} s | {'met' if met else 'MISSED'} |")
    if args.json:
        with open(args.json, "w") as f:
            for r in records.values():
                f.write(json.dumps(r) + "\n")
    wrong = [k for k, r in records.items() if r["check"] != "ok"]
    if wrong:
        print(f"run_graph_size.py: wrong values in {wrong}", file=sys.stderr)
    return 1 if failed or wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
