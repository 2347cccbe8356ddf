#!/usr/bin/python3
"""Runs the benchmark of nanograph (a built bench_transformer) and its peers NumPy and PyTorch
(bench/peers.py) in one run, with the same thread count, and prints a Markdown table: median
milliseconds per repetition, the peers' time divided by nanograph's (> 1: nanograph is faster)
and each one's peak memory above its inputs.

    /usr/bin/python3 bench/run_all.py BUILD_DIR_OR_PROGRAM [--threads N] [--quick] [--only NAME]
                                      [--json FILE]

Builds nothing: BUILD_DIR_OR_PROGRAM is a build directory (bench/bench_transformer inside it)
or the program itself. Exits non-zero when a workload failed or nanograph computed a wrong result.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = ("numpy", "torch")


def find_program(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench", "bench_transformer")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"run_all.py: no bench_transformer program at {path}; build the 'bench_transformer' target first")
    return path


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def run(command):
    """Runs a benchmark command (its stderr passes through); returns (its JSON lines, its status)."""
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
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


def table(records, workloads):
    """The Markdown table, one row per workload in the order nanograph ran them."""
    by_key = {(r["impl"], r["workload"]): r for r in records}
    rows = ["| workload | shape | nanograph ms | numpy ms | torch ms | numpy/ng | torch/ng "
            "| ng MiB | numpy MiB | torch MiB |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in workloads:
        ours, np_, pt = (by_key.get((impl, name)) for impl in ("nanograph",) + PEERS)
        any_record = ours or np_ or pt
        shape = any_record["shape"] + (f" ×{any_record['calls_per_rep']} runs" if any_record["calls_per_rep"] > 1 else "")
        ours_ms = cell(ours, "ms", "{:.3f}")
        if ours and ours["check"] != "ok":
            ours_ms += " WRONG"
        rows.append(f"| {name} | {shape} | {ours_ms} | {cell(np_, 'ms', '{:.3f}')} | {cell(pt, 'ms', '{:.3f}')} "
                    f"| {ratio(np_, ours)} | {ratio(pt, ours)} | {cell(ours, 'peak_mib', '{:.1f}')} "
                    f"| {cell(np_, 'peak_mib', '{:.1f}')} | {cell(pt, 'peak_mib', '{:.1f}')} |")
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


def run_side_by_side(program, peers_script, options, threads, quick, json_path):
    """Runs nanograph's program, then the peers' script (under this interpreter), with the same
    options; writes every JSON line to json_path (when given) and prints the header line of the
    report. Returns the records and the problems found so far."""
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M")
    ours, ours_status = run([program] + options)
    peers, peers_status = run([sys.executable, os.path.join(HERE, peers_script)] + options)
    records = ours + peers
    if json_path:
        with open(json_path, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
    versions = {r["impl"]: r.get("version", "?") for r in records}
    print(f"{started}, {cpu_model()}, {os.cpu_count()} cores, {threads} threads"
          f"{', QUICK sizes (not a measurement)' if quick else ''}; "
          f"nanograph {versions.get('nanograph', '?')}, NumPy {versions.get('numpy', '?')}, "
          f"PyTorch {versions.get('torch', '?')}; load average {load_before[0]:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after\n")
    problems = []
    if ours_status:
        problems.append(f"{os.path.basename(program)} exited with status {ours_status}")
    if peers_status:
        problems.append(f"{peers_script} exited with status {peers_status}")
    return records, problems


def finish(tool, records, problems, size_of):
    """Adds a problem for every workload whose sides ran different sizes (size_of(record)),
    prints the problems and returns the exit status."""
    sizes = {}
    for r in records:
        sizes.setdefault(r["workload"], set()).add(size_of(r))
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
    args = parser.parse_args()

    options = ["--threads", str(args.threads)] + (["--quick"] if args.quick else [])
    options += ["--only", args.only] if args.only else []
    records, problems = run_side_by_side(find_program(args.program), "peers.py", options, args.threads,
                                         args.quick, args.json)
    workloads = list(dict.fromkeys(r["workload"] for r in records))
    print(table(records, workloads))
    print()
    print(plan_figures(records))
    return finish("run_all.py", records, problems, lambda r: (r["shape"], r["calls_per_rep"]))


if __name__ == "__main__":
    sys.exit(main())
