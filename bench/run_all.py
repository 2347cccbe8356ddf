#!/usr/bin/python3
"""Runs the benchmark of nanograph (a built bench_transformer), the machine's limits (bench_limits,
beside it) and the peers NumPy, PyTorch, ONNX Runtime and JAX (bench/peers.py, under this
interpreter: bench/run.sh uses the environment of bench/setup-peers.sh) in one run, and prints
Markdown tables: each workload's bound on this machine and nanograph's time as a percentage of it;
each peer at its fastest thread count and at nanograph's, as its time divided by nanograph's
(> 1: nanograph is faster); everyone's peak memory above the inputs.

    python bench/run_all.py BUILD_DIR_OR_PROGRAM [--threads N] [--quick] [--only NAME] [--json FILE]
                            [--rounds N]

Builds nothing: BUILD_DIR_OR_PROGRAM is a build directory (bench/bench_transformer inside it)
or the program itself. Exits non-zero when a workload failed or nanograph computed a wrong result;
a peer's wrong result is marked WRONG in the tables and listed after them.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

from peers import WORKLOADS, json_lines

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = ("numpy", "torch", "onnxruntime", "jax")
# The limit (a bench_limits line, by its "bounds" or sgemm "workload") that bounds each workload;
# tiny_add has no machine limit but a goal per run.
TINY_GOAL_US = 0.15
# bench_limits' name for a workload's bounding figures where it differs from the workload's name.
LIMIT_NAMES = {"adam_epoch": "adam_epoch_step"}


def find_program(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench", "bench_transformer")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"run_all.py: no bench_transformer program at {path}; build the 'bench_transformer' target first")
    return path


def run(command, env=None):
    """Runs a benchmark command (its stderr passes through); returns (its JSON lines, its status)."""
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=env)
    return json_lines(done.stdout), done.returncode


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def ratio(peer, ours):
    return f"{peer['ms'] / ours['ms']:.2f}" if peer and ours and ours["ms"] > 0 else "-"


def cell(record, key, fmt):
    return fmt.format(record[key]) if record else "-"


def bound_of(workload, limits, calls_per_rep):
    """(milliseconds, what) of the workload's bound from the bench_limits lines, or None."""
    if workload == "tiny_add":
        return TINY_GOAL_US * calls_per_rep / 1e3, f"goal {TINY_GOAL_US} us/run"
    for limit in limits:
        if limit["limit"] == "sgemm" and limit.get("workload") == workload:
            return limit["ms"], f"OpenBLAS sgemm {limit['gflops']:.0f} GFLOP/s"
        if workload in limit.get("bounds", "").split(","):
            return limit["ms"], f"{limit['limit']} {limit['gb_per_s']:.1f} GB/s"
    return None


def timed(record):
    text = f"{record['ms']:.3f}"
    return text + (" WRONG" if record.get("check", "ok") != "ok" else "")


def tables(records, workloads, threads):
    """The Markdown tables, one row per workload in the order nanograph ran them."""
    limits = [r for r in records if r["impl"] == "limits"]
    ours_by = {r["workload"]: r for r in records if r["impl"] == "nanograph"}
    peers = {}
    for r in records:
        if r["impl"] in PEERS:
            peers.setdefault((r["impl"], r["workload"]), []).append(r)
    present = [p for p in PEERS if any(k[0] == p for k in peers)]

    def best(impl, name):
        runs = peers.get((impl, name), [])
        return min(runs, key=lambda r: r["ms"]) if runs else None

    def at(impl, name, count):
        return next((r for r in peers.get((impl, name), []) if r["threads"] == count), None)

    head = "| workload | shape | bound ms | nanograph ms | % of bound | " + " | ".join(
        f"{p} best ms (threads) | {p}/ng" for p in present) + " |"
    rows = [f"Each peer at its fastest thread count; nanograph at {threads}. Each round measures a "
            "workload's bound seconds before nanograph runs it; the bound is the median of the "
            "rounds' bounds, the percentage the median of the rounds' percentages:\n", head,
            "| --- | --- | --- | ---: | ---: | " + " | ".join("---: | ---:" for _ in present) + " |"]
    for name in workloads:
        ours = ours_by.get(name)
        any_record = ours or next((r for k, v in peers.items() if k[1] == name for r in v), None)
        calls = any_record["calls_per_rep"]
        shape = any_record["shape"] + (f" ×{calls} runs" if calls > 1 else "")
        bound = bound_of(name, limits, calls)
        percent = "-"
        if bound and ours and ours.get("percent_of_bound_rounds"):
            # Each round's bound against the same round's time (run_side_by_side).
            bound = (median(ours["bound_ms_rounds"]), bound[1])
            percent = f"{median(ours['percent_of_bound_rounds']):.0f}%"
        elif bound and ours and ours["ms"] > 0:
            percent = f"{100 * bound[0] / ours['ms']:.0f}%"
        bound_text = f"{bound[0]:.3f} ({bound[1]})" if bound else "-"
        cells = []
        for p in present:
            b = best(p, name)
            cells.append(f"{timed(b)} ({b['threads']}) | {ratio(b, ours)}" if b else "- | -")
        rows.append(f"| {name} | {shape} | {bound_text} | {timed(ours) if ours else '-'} | {percent} | "
                    + " | ".join(cells) + " |")
    rows += ["", f"Every library at nanograph's {threads} threads, and peak MiB above the inputs:\n",
             "| workload | nanograph ms | " + " | ".join(f"{p} ms | {p}/ng" for p in present)
             + " | ng MiB | " + " | ".join(f"{p} MiB" for p in present) + " |",
             "| --- | ---: | " + " | ".join("---: | ---:" for _ in present) + " | ---: | "
             + " | ".join("---:" for _ in present) + " |"]
    for name in workloads:
        ours = ours_by.get(name)
        same = [at(p, name, threads) for p in present]
        rows.append(f"| {name} | {timed(ours) if ours else '-'} | "
                    + " | ".join(f"{timed(r)} | {ratio(r, ours)}" if r else "- | -" for r in same)
                    + f" | {cell(ours, 'peak_mib', '{:.1f}')} | "
                    + " | ".join(cell(r, "peak_mib", "{:.1f}") for r in same) + " |")
    return "\n".join(rows)


def raw_gemm_comparison(records):
    """Workloads that are one GEMM against raw OpenBLAS on the same shape, median against median
    and best against best of the same kind of repetitions (the bound above is a best)."""
    ours_by = {r["workload"]: r for r in records if r["impl"] == "nanograph"}
    rows = []
    for r in records:
        ours = ours_by.get(r.get("workload"))
        if r["impl"] != "limits" or r["limit"] != "sgemm" or len(r["gemms"]) != 1 or not ours:
            continue
        if "ms_median" not in r or "ms_min" not in ours:
            continue
        rows.append(f"| {r['workload']} | {ours['ms']:.3f} | {r['ms_median']:.3f} "
                    f"| {100 * (ours['ms'] / r['ms_median'] - 1):+.1f}% | {ours['ms_min']:.3f} "
                    f"| {r['ms']:.3f} | {100 * (ours['ms_min'] / r['ms'] - 1):+.1f}% |")
    if not rows:
        return ""
    return "\n".join(["One-GEMM workloads against raw OpenBLAS, statistic for statistic:\n",
                      "| workload | nanograph median ms | OpenBLAS median ms | difference "
                      "| nanograph best ms | OpenBLAS best ms | difference |",
                      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"] + rows)


def limits_table(records):
    """The machine's limits as measured in this run."""
    rows = ["| limit | over | threads | ms | rate |", "| --- | --- | ---: | ---: | ---: |"]
    for r in records:
        if r["impl"] != "limits":
            continue
        if r["limit"] == "sgemm":
            shapes = ", ".join(f"{g['m']}x{g['k']}{'ᵀ' if g['trans_a'] else ''}·{g['k']}x{g['n']}"
                               f"{'ᵀ' if g['trans_b'] else ''} {g['gflops']:.0f}" for g in r["gemms"])
            rows.append(f"| sgemm | {r['workload']}: {shapes} | {r['threads']} | {r['ms']:.3f} "
                        f"| {r['gflops']:.1f} GFLOP/s |")
        else:
            rows.append(f"| {r['limit']} | {r['bytes'] / 2**20:.0f} MiB ({r['bounds']}) | {r['threads']} "
                        f"| {r['ms']:.3f} | {r['gb_per_s']:.1f} GB/s |")
    return "\n".join(rows)


def plan_figures(records):
    """nanograph's plan figures per workload (ng_computation_stats), to explain the times."""
    rows = ["| workload | kernels | nodes (source ops) | arena bytes | buffers (bytes before reuse) |",
            "| --- | ---: | ---: | ---: | ---: |"]
    for r in records:
        if r["impl"] == "nanograph":
            rows.append(f"| {r['workload']} | {r['num_kernels']} | {r['num_nodes']} ({r['num_source_ops']}) "
                        f"| {r['arena_bytes']} | {r['num_buffers']} ({r['buffer_bytes']}) |")
    return "\n".join(rows)


def find_limits(program):
    path = os.path.join(os.path.dirname(program), "bench_limits")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def median(values):
    """The median of a list (the lower middle for an even count)."""
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


def median_record(runs, key):
    """One record for the rounds of a library's workload: the round with the median `key` (the
    lower middle for an even count, its peak memory with it), with the best time of every round,
    the first failed check, and every round's `key` and peak (round_<key>, round_peak_mib)."""
    ordered = sorted(runs, key=lambda r: r[key])
    merged = dict(ordered[(len(ordered) - 1) // 2])
    merged["round_" + key] = [r[key] for r in runs]
    if all("ms_min" in r for r in runs):
        merged["ms_min"] = min(r["ms_min"] for r in runs)
    if all("peak_mib" in r for r in runs):
        merged["round_peak_mib"] = [r["peak_mib"] for r in runs]
    failed = next((r for r in runs if r.get("check", "ok") != "ok"), None)
    if failed:
        merged["check"], merged["check_error"] = failed["check"], failed.get("check_error")
    return merged


def best_limit(runs):
    """One limit for its rounds: the best round (a limit is what the machine can do); an sgemm
    figure keeps the median of its rounds' medians for the statistic-for-statistic table."""
    merged = dict(min(runs, key=lambda r: r["ms"]))
    merged.pop("measured_for", None)  # one figure may bound several workloads
    if all("ms_median" in r for r in runs):
        merged["ms_median"] = median([r["ms_median"] for r in runs])
    return merged


def merge_rounds(rounds):
    """The records of several rounds as one set, in the first round's order."""
    groups = {}
    for records in rounds:
        for r in records:
            key = (r["impl"], r.get("workload"), r.get("threads"), r.get("limit"), r.get("bounds"))
            groups.setdefault(key, []).append(r)
    merged = []
    for runs in groups.values():
        if runs[0]["impl"] == "limits":
            merged.append(best_limit(runs))
        else:
            merged.append(median_record(runs, "seconds" if "seconds" in runs[0] else "ms"))
    return merged


def pair_bounds(records, workloads):
    """Each workload's bound in one round (the limits measured just before it, marked
    "measured_for") against nanograph's time in the same round: {workload: (bound ms, percent of
    bound)} for the workloads that have both."""
    paired = {}
    for r in records:
        if r["impl"] == "nanograph" and r["workload"] in workloads and r.get("ms", 0) > 0:
            limits = [l for l in records
                      if l["impl"] == "limits" and l.get("measured_for") == r["workload"]]
            bound = bound_of(r["workload"], limits, r.get("calls_per_rep", 1))
            if bound:
                paired[r["workload"]] = (bound[0], 100 * bound[0] / r["ms"])
    return paired


def run_side_by_side(program, peers_script, options, threads, quick, json_path, workloads, rounds):
    """Runs `rounds` rounds. A round measures the stream bandwidths (bench_limits beside the
    program), then, workload by workload, the machine limits that bound the workload, nanograph's
    program and the peers' script (under this interpreter) with the same options and --only:
    every library and the bound meet the machine in the same state, seconds apart, and a slow spell
    of a shared machine falls on all of them. Merges the rounds (median_record, best_limit; each
    nanograph record also gets its rounds' bounds and percentages of them, bound_ms_rounds and
    percent_of_bound_rounds), writes every merged record to json_path (when given) and prints the
    header line of the report. Returns the records and the problems found so far."""
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M")
    limits_program = find_limits(program)
    statuses = {}  # each tool's first non-zero exit status

    def run_tool(tool, command, env=None):
        records, status = run(command, env)
        if status:
            statuses.setdefault(tool, status)
        return records

    limits_command = [limits_program, "--threads", str(threads)] + (["--quick"] if quick else [])
    every_round = []
    paired_rounds = {}
    for _ in range(rounds):
        records = []
        if limits_program:
            records += run_tool("bench_limits", limits_command + ["--only", "stream"])
        for workload in workloads:
            only = ["--only", workload]
            if limits_program:
                records += [dict(limit, measured_for=workload) for limit in run_tool(
                    "bench_limits", limits_command + ["--only", LIMIT_NAMES.get(workload, workload)])]
            # nanograph leaves OpenBLAS's process-wide thread count alone, so its matrix products
            # would use every core whatever --threads says: give OpenBLAS the same count, as the
            # peers get.
            records += run_tool(os.path.basename(program), [program] + options + only,
                                env=dict(os.environ, OPENBLAS_NUM_THREADS=str(threads)))
            records += run_tool(peers_script,
                                [sys.executable, os.path.join(HERE, peers_script)] + options + only)
        every_round.append(records)
        for workload, pair in pair_bounds(records, workloads).items():
            paired_rounds.setdefault(workload, []).append(pair)
    records = merge_rounds(every_round)
    for r in records:
        pairs = paired_rounds.get(r["workload"]) if r["impl"] == "nanograph" else None
        if pairs:
            r["bound_ms_rounds"] = [bound for bound, _ in pairs]
            r["percent_of_bound_rounds"] = [percent for _, percent in pairs]
    if json_path:
        with open(json_path, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
    versions = {r["impl"]: r.get("version", "?") for r in records}
    print(f"{started}, {cpu_model()}, {os.cpu_count()} cores, {threads} threads"
          f"{', QUICK sizes (not a measurement)' if quick else ''}; "
          f"nanograph {versions.get('nanograph', '?')}, NumPy {versions.get('numpy', '?')}, "
          f"PyTorch {versions.get('torch', '?')}, ONNX Runtime {versions.get('onnxruntime', '-')}, "
          f"JAX {versions.get('jax', '-')}; {rounds} round{'s' if rounds > 1 else ''}, each library's "
          f"figure from its median round; load average {load_before[0]:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after\n")
    problems = [f"{tool} exited with status {status}" for tool, status in statuses.items()]
    if not limits_program:
        print("(no bench_limits beside the program: build the 'bench_limits' target for the bounds)\n")
    return records, problems


def add_rounds_option(parser):
    parser.add_argument("--rounds", type=int, help="rounds of every library, each workload's libraries "
                        "back to back (default 3; 1 with --quick)")


def rounds_of(args):
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    if rounds < 1:
        sys.exit("--rounds wants a count of 1 or more")
    return rounds


def finish(tool, records, problems, size_of):
    """Adds a problem for every workload whose sides ran different sizes (size_of(record)),
    lists the peers' results outside their tolerance (which are not problems: see peers.py),
    prints the problems and returns the exit status."""
    sizes = {}
    wrong = {}
    for r in records:
        if r["impl"] != "limits":
            sizes.setdefault(r["workload"], set()).add(size_of(r))
        if r["impl"] not in ("limits", "nanograph") and r.get("check", "ok") != "ok":
            wrong.setdefault((r["impl"], r["workload"]), []).append(str(r["threads"]))
    if wrong:
        print("Peers' results outside the tolerance, marked WRONG: " + "; ".join(
            f"{impl} {workload} at {' and '.join(threads)} thread(s)"
            for (impl, workload), threads in sorted(wrong.items())) + ".\n")
    for workload, seen in sizes.items():
        if len(seen) > 1:
            problems.append(f"{workload}: nanograph and the peers ran different sizes {sorted(seen)}")
    for problem in problems:
        print(f"{tool}: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", help="a build directory, or the bench_transformer program")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2,
                        help="threads of every library (default: the number of cores)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test, not a measurement")
    parser.add_argument("--only", help="run one workload")
    parser.add_argument("--json", metavar="FILE", help="also write every JSON line to FILE")
    add_rounds_option(parser)
    args = parser.parse_args()

    options = ["--threads", str(args.threads)] + (["--quick"] if args.quick else [])
    chosen = [args.only] if args.only else list(WORKLOADS)
    records, problems = run_side_by_side(find_program(args.program), "peers.py", options, args.threads,
                                         args.quick, args.json, chosen, rounds_of(args))
    workloads = list(dict.fromkeys(r["workload"] for r in records if r["impl"] != "limits"))
    print(tables(records, workloads, args.threads))
    print()
    comparison = raw_gemm_comparison(records)
    if comparison:
        print(comparison)
        print()
    print("The machine's limits in this run (best of several passes):\n")
    print(limits_table(records))
    print()
    print(plan_figures(records))
    return finish("run_all.py", records, problems, lambda r: (r["shape"], r["calls_per_rep"]))


if __name__ == "__main__":
    sys.exit(main())
