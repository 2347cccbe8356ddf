#!/usr/bin/python3
"""Checks one full benchmark run against nanograph's performance goals and prints a verdict for
each, with its margin and the share of the run's rounds in which it held.

    python3 bench/goals.py FILE [FILE...]

FILE is what `bash bench/run.sh BUILD_DIR --json FILE` wrote (the workloads' records), read
together with FILE.train and FILE.graph beside it (the training and inference records, the
graph-size records of bench/run_graph_size.py) when they exist. Each
FILE is one run at one thread count: pass the one-thread and the two-thread runs to check both.

The goals, each on the run's median figures (the tables of run.sh):
- every memory-bound workload (l2_diff, tanh_fma, softmax, sum_axis0, sum_axis1) at 80% of its
  bound or more, and faster than every peer (each at its fastest thread count);
- the SGD training step and the main job's Adam epoch faster than PyTorch and JAX, and the step
  within 1.3 times the raw OpenBLAS time of its GEMMs (the median of the rounds' ratios, each
  round's step against the GEMMs timed in that round, as the memory-bound workloads are set
  against their bounds);
- inference at batch 128 and batch 1 faster than ONNX Runtime;
- a chain of 100,000 adds built in under 0.5 s, and a 100,000-op chain with its derivative
  derived and compiled in under 3 s;
- matmul within 3% of raw OpenBLAS on the same shape, median against median and best against best;
- a run's fixed cost (tiny_add) at most 0.15 us;
- peak memory above the inputs no higher than on the day the goals were set (PEAK_LINES_MIB,
  measured on the development machine: an AMD Zen 4 virtual machine with 2 cores; elsewhere
  compare with that day's build on the same machine, bench/peak_against.py).

A verdict's "rounds" column counts the rounds that met the goal on their own figures: a goal met
by the medians in only some rounds is met with no margin to spare. Exit status 0 when every goal
that the files have figures for is met, 1 when one is missed, 2 when a file cannot be read.
"""
import json
import os
import sys

from run_all import TINY_GOAL_US, median

MEMORY_BOUND = ("l2_diff", "tanh_fma", "softmax", "sum_axis0", "sum_axis1")
PERCENT_OF_BOUND_LINE = 80.0
STEP_TO_GEMM_LINE = 1.3
MATMUL_LINE = 1.03
# (workload, time key, the peers to beat) for the training and inference goals.
TRAIN_GOALS = (("sgd_step", "ms", ("torch", "jax")), ("adam_epoch", "seconds", ("torch", "jax")),
               ("mlp_infer_b128", "ms", ("onnxruntime",)), ("mlp_infer_b1", "ms", ("onnxruntime",)))
# Peak MiB above the inputs on the day the goals were set, {threads: {workload: MiB}}: the lower
# of the two processes measured then for each (docs/benchmarks.md, "Against the goals"), on the
# development machine.
PEAK_LINES_MIB = {
    1: {"l2_diff": 2.75, "tanh_fma": 66.70, "softmax": 18.69, "matmul": 8.68, "sum_axis0": 2.73,
        "sum_axis1": 2.79, "tiny_add": 2.52, "sgd_step": 18.21, "adam_epoch": 12.89},
    2: {"l2_diff": 2.65, "tanh_fma": 66.58, "softmax": 18.61, "matmul": 9.31, "sum_axis0": 2.55,
        "sum_axis1": 2.61, "tiny_add": 2.38, "sgd_step": 18.16, "adam_epoch": 13.80},
}
# The graph-size goals on bench/run_graph_size.py's records at GRAPH_SIZE_OPS ops:
# {workload: (what, the figures summed, the line in seconds)}.
GRAPH_SIZE_OPS = 100000
GRAPH_SIZE_GOALS = {
    "graph_chain": ("a chain of adds builds", ("build_s",), 0.5),
    "graph_chain_deriv": ("a chain and its derivative derive and compile",
                          ("deriv_s", "compile_s"), 3.0),
}
PEER_NAMES = {"numpy": "NumPy", "torch": "PyTorch", "onnxruntime": "ONNX Runtime", "jax": "JAX"}


class Verdict:
    """One goal: what it asks, nanograph's figure, the line, the margin, and in how many of the
    run's rounds it held (None when the records do not say)."""

    def __init__(self, goal, figure, line, margin, met, rounds=None):
        self.goal, self.figure, self.line, self.margin = goal, figure, line, margin
        self.met, self.rounds = met, rounds

    def row(self):
        rounds = f"{self.rounds[0]} of {self.rounds[1]}" if self.rounds else "-"
        return (f"| {self.goal} | {self.figure} | {self.line} | {self.margin} | {rounds} "
                f"| {'met' if self.met else 'MISSED'} |")


def read_records(path):
    """The JSON records of a run file; exits with status 2 when it cannot be read."""
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        print(f"goals.py: cannot read the run file {path}: {e}", file=sys.stderr)
        sys.exit(2)


def rounds_held(ours, theirs, key, holds):
    """(rounds where holds(our figure, theirs), rounds) over the rounds both records have."""
    mine, other = ours.get("round_" + key), theirs.get("round_" + key)
    if not mine or not other or len(mine) != len(other):
        return None
    return sum(1 for a, b in zip(mine, other) if holds(a, b)), len(mine)


def fastest(records, impl, workload, key):
    """A library's record of a workload at its fastest thread count, or None."""
    runs = [r for r in records if r["impl"] == impl and r.get("workload") == workload]
    return min(runs, key=lambda r: r[key]) if runs else None


def faster_than(records, ours, workload, key, peers):
    """One verdict per peer present: nanograph's time below the peer's at its fastest count."""
    verdicts = []
    for peer in peers:
        theirs = fastest(records, peer, workload, key)
        if not theirs:
            continue
        ratio = theirs[key] / ours[key]
        wrong = " (its result WRONG)" if theirs.get("check", "ok") != "ok" else ""
        verdicts.append(Verdict(
            f"`{workload}` faster than {PEER_NAMES[peer]}{wrong}",
            f"{PEER_NAMES[peer]} takes {ratio:.2f} times nanograph's time "
            f"(at {theirs['threads']} thread{'s' if theirs['threads'] > 1 else ''})",
            "above 1.00", f"{100 * (ratio - 1):+.1f}%", ratio > 1,
            rounds_held(ours, theirs, key, lambda a, b: a < b)))
    return verdicts


def memory_bound(records, ours):
    """The percentage of the bound and the peers for one memory-bound workload."""
    workload, verdicts = ours["workload"], []
    percents = ours.get("percent_of_bound_rounds")
    if percents:
        percent = median(percents)
        verdicts.append(Verdict(
            f"`{workload}` at {PERCENT_OF_BOUND_LINE:.0f}% of its bound",
            f"{percent:.1f}% (rounds {min(percents):.0f} to {max(percents):.0f}%)",
            f"{PERCENT_OF_BOUND_LINE:.0f}%", f"{percent - PERCENT_OF_BOUND_LINE:+.1f} points",
            percent >= PERCENT_OF_BOUND_LINE,
            (sum(1 for p in percents if p >= PERCENT_OF_BOUND_LINE), len(percents))))
    return verdicts + faster_than(records, ours, workload, "ms", PEER_NAMES)


def limit_for(records, workload):
    """The sgemm limit record bounding a workload (its GEMMs' raw OpenBLAS time), or None."""
    name = "adam_epoch_step" if workload == "adam_epoch" else workload
    return next((r for r in records if r["impl"] == "limits" and r.get("limit") == "sgemm"
                 and r.get("workload") == name), None)


def matmul(records, ours):
    """matmul against raw OpenBLAS, median against median and best against best."""
    raw = limit_for(records, "matmul")
    if not raw or "ms_median" not in raw or "ms_min" not in ours:
        return []
    verdicts = []
    for what, mine, theirs in (("median", ours["ms"], raw["ms_median"]),
                               ("best", ours["ms_min"], raw["ms"])):
        ratio = mine / theirs
        verdicts.append(Verdict(
            f"`matmul` within 3% of raw OpenBLAS ({what} against {what})",
            f"{mine:.3f} ms against {theirs:.3f} ms", f"at most {MATMUL_LINE:.2f} times",
            f"{100 * (ratio - 1):+.1f}%", ratio <= MATMUL_LINE))
    return verdicts


def tiny_add(ours):
    def us_per_run(ms):
        return ms * 1e3 / ours["calls_per_rep"]

    per_run_us = us_per_run(ours["ms"])
    rounds = ours.get("round_ms")
    held = None
    if rounds:
        held = (sum(1 for ms in rounds if us_per_run(ms) <= TINY_GOAL_US), len(rounds))
    return [Verdict("a run's fixed cost (`tiny_add`)", f"{per_run_us:.3f} us per run",
                    f"at most {TINY_GOAL_US} us", f"{per_run_us - TINY_GOAL_US:+.3f} us",
                    per_run_us <= TINY_GOAL_US, held)]


def step_to_gemms(records, ours):
    """The SGD step against its GEMMs. Like the memory-bound workloads against their bounds, each
    round's step is set against the GEMMs timed seconds before it in the same round, and the
    verdict is the median of the rounds' ratios; a run without per-round figures sets its median
    step against its best GEMMs."""
    step_rounds, gemm_rounds = ours.get("round_ms"), ours.get("bound_ms_rounds")
    line = STEP_TO_GEMM_LINE
    goal = f"the SGD step within {line} times its raw GEMM time"
    if step_rounds and gemm_rounds and len(step_rounds) == len(gemm_rounds):
        ratios = [step / gemms for step, gemms in zip(step_rounds, gemm_rounds)]
        ratio = median(ratios)
        return [Verdict(goal, f"{ratio:.2f} times (rounds {min(ratios):.2f} to {max(ratios):.2f})",
                        f"at most {line}", f"{ratio - line:+.2f}", ratio <= line,
                        (sum(1 for r in ratios if r <= line), len(ratios)))]
    raw = limit_for(records, "sgd_step")
    if not raw:
        return []
    ratio = ours["ms"] / raw["ms"]
    return [Verdict(goal, f"{ratio:.2f} times ({ours['ms']:.3f} against {raw['ms']:.3f} ms)",
                    f"at most {line}", f"{ratio - line:+.2f}", ratio <= line)]


def training(records, ours, key, peers):
    """A training or inference workload against its peers (and the step against its GEMMs)."""
    workload = ours["workload"]
    verdicts = step_to_gemms(records, ours) if workload == "sgd_step" else []
    return verdicts + faster_than(records, ours, workload, key, peers)


def peak(ours):
    """Peak memory against the day the goals were set, where that day has a figure."""
    line = PEAK_LINES_MIB.get(ours["threads"], {}).get(ours["workload"])
    if line is None or "peak_mib" not in ours:
        return []
    rounds = ours.get("round_peak_mib")
    held = (sum(1 for p in rounds if p <= line), len(rounds)) if rounds else None
    return [Verdict(f"`{ours['workload']}` peak memory", f"{ours['peak_mib']:.2f} MiB",
                    f"at most {line:.2f} MiB", f"{ours['peak_mib'] - line:+.2f} MiB",
                    ours["peak_mib"] <= line, held)]


def graph_size(ours):
    """A graph-size goal (bench/run_graph_size.py): the seconds at GRAPH_SIZE_OPS ops."""
    if ours.get("ops") != GRAPH_SIZE_OPS:
        return []
    what, keys, line = GRAPH_SIZE_GOALS[ours["workload"]]
    figure = sum(ours[k] for k in keys)
    rounds = [sum(r) for r in zip(*(ours.get("round_" + k, []) for k in keys))]
    return [Verdict(f"{what} in under {line} s ({GRAPH_SIZE_OPS:,} ops)", f"{figure:.3f} s",
                    f"under {line} s", f"{100 * (figure / line - 1):+.0f}%", figure < line,
                    (sum(1 for r in rounds if r < line), len(rounds)) if rounds else None)]


def verdicts_of(records):
    """Every verdict the records of one run have figures for, workload by workload."""
    verdicts = []
    train_keys = {w: (key, peers) for w, key, peers in TRAIN_GOALS}
    for ours in records:
        if ours["impl"] != "nanograph":
            continue
        workload = ours["workload"]
        if workload in MEMORY_BOUND:
            verdicts += memory_bound(records, ours)
        elif workload == "matmul":
            verdicts += matmul(records, ours)
        elif workload == "tiny_add":
            verdicts += tiny_add(ours)
        elif workload in train_keys:
            verdicts += training(records, ours, *train_keys[workload])
        elif workload in GRAPH_SIZE_GOALS:
            verdicts += graph_size(ours)
        verdicts += peak(ours)
    return verdicts


def report(path):
    """Prints the verdicts of one run file (and its .train beside it); returns (its thread
    count, its verdicts)."""
    records = read_records(path)
    for extra in (".train", ".graph"):
        if os.path.exists(path + extra):
            records += read_records(path + extra)
    threads = sorted({r["threads"] for r in records if r["impl"] == "nanograph"})
    if not threads:
        print(f"goals.py: {path} has no nanograph records: is it a file of bench/run.sh --json?",
              file=sys.stderr)
        sys.exit(2)
    verdicts = verdicts_of(records)
    missed = [v for v in verdicts if not v.met]
    label = "+".join(map(str, threads))
    print(f"Against the goals: {path}, nanograph at {' and '.join(map(str, threads))} "
          f"thread{'s' if threads != [1] else ''}; {len(verdicts) - len(missed)} of "
          f"{len(verdicts)} met.\n")
    print("| goal | nanograph | line | margin | rounds that met it | verdict |")
    print("| --- | --- | --- | ---: | ---: | --- |")
    for v in verdicts:
        print(v.row())
    print()
    if missed:
        print("Missed: " + "; ".join(f"{v.goal} ({v.margin})" for v in missed) + ".\n")
    return label, verdicts


def across(runs):
    """Prints, for runs at the same thread count, each goal's verdicts run by run: how often it
    was met and its narrowest margin."""
    goals = {}
    for threads, verdicts in runs:
        for v in verdicts:
            goals.setdefault((threads, v.goal), []).append(v)
    print(f"Across the {len(runs)} runs:\n")
    print("| goal | threads | runs that met it | margins, run by run |")
    print("| --- | ---: | ---: | --- |")
    for (threads, goal), verdicts in goals.items():
        met = sum(1 for v in verdicts if v.met)
        print(f"| {goal} | {threads} | {met} of {len(verdicts)} "
              f"| {', '.join(v.margin for v in verdicts)} |")
    print()


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) < 2:
        print("usage: python3 bench/goals.py FILE [FILE...] (files of bench/run.sh --json)",
              file=sys.stderr)
        return 2
    runs = [report(path) for path in argv[1:]]
    if len(runs) > 1:
        across(runs)
    return 0 if all(v.met for _, verdicts in runs for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
