#!/usr/bin/python3
"""Runs the training benchmark (issue 5) of nanograph (a built bench_train) and its peers PyTorch
and NumPy (bench/peers_train.py) in one run, with the same thread count, and prints two Markdown
tables: milliseconds per SGD step of the 784-512-256-10 MLP with the peers' time divided by
nanograph's (> 1: nanograph is faster) and each one's peak memory above its inputs; and the
seconds of one Adam epoch of the main job (784-256-128-10 on Fashion-MNIST), nanograph against
PyTorch.

    /usr/bin/python3 bench/run_train.py BUILD_DIR_OR_PROGRAM [--threads N] [--quick]
                                        [--data-dir DIR] [--json FILE]

Builds nothing: BUILD_DIR_OR_PROGRAM is a build directory (bench/bench_train inside it) or the
program itself. Exits non-zero when a run failed or the two sides ran different sizes.
"""
import argparse
import os
import sys

from run_all import finish, run_side_by_side


def find_program(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench", "bench_train")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"run_train.py: no bench_train program at {path}; build the 'bench_train' target first")
    return path


def ratio(peer, ours, key):
    return f"{peer[key] / ours[key]:.2f}" if peer and ours and ours[key] > 0 else "-"


def cell(record, key, fmt):
    return fmt.format(record[key]) if record else "-"


def step_table(by_key):
    ours, pt, np_ = (by_key.get((impl, "sgd_step")) for impl in ("nanograph", "torch", "numpy"))
    shape = (ours or pt or np_ or {}).get("shape", "?")
    return "\n".join([
        f"SGD training step, {shape} (median of {cell(ours, 'steps', '{}')} steps):\n",
        "| impl | ms/step | peer/ng | peak MiB | loss first -> last |",
        "| --- | ---: | ---: | ---: | --- |",
    ] + [f"| {name} | {cell(r, 'ms', '{:.3f}')} | {'1.00' if name == 'nanograph' and r else ratio(r, ours, 'ms')} "
         f"| {cell(r, 'peak_mib', '{:.1f}')} "
         f"| {(format(r['first_loss'], '.3f') + ' -> ' + format(r['last_loss'], '.3f')) if r else '-'} |"
         for name, r in (("nanograph", ours), ("PyTorch (autograd)", pt), ("NumPy (backward by hand)", np_))])


def epoch_table(by_key):
    ours, pt = (by_key.get((impl, "adam_epoch")) for impl in ("nanograph", "torch"))
    shape = (ours or pt or {}).get("shape", "?")
    return "\n".join([
        f"One Adam epoch of the main job, {shape}, {cell(ours or pt, 'examples', '{}')} examples:\n",
        "| impl | s/epoch | torch/ng | examples/s | setup ms | peak MiB | mean loss |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ] + [f"| {name} | {cell(r, 'seconds', '{:.3f}')} "
         f"| {'1.00' if name == 'nanograph' and r else ratio(r, ours, 'seconds')} "
         f"| {cell(r, 'examples_per_s', '{:.0f}')} | {cell(r, 'compile_ms', '{:.1f}')} "
         f"| {cell(r, 'peak_mib', '{:.1f}')} | {cell(r, 'mean_loss', '{:.4f}')} |"
         for name, r in (("nanograph", ours), ("PyTorch", pt))])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", help="a build directory, or the bench_train program")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2,
                        help="threads of every library (default: the number of cores)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    parser.add_argument("--data-dir", help="where the Fashion-MNIST *-ubyte.gz files are")
    parser.add_argument("--json", metavar="FILE", help="also write every JSON line to FILE")
    args = parser.parse_args()

    options = ["--threads", str(args.threads)] + (["--quick"] if args.quick else [])
    options += ["--data-dir", args.data_dir] if args.data_dir else []
    records, problems = run_side_by_side(find_program(args.program), "peers_train.py", options, args.threads,
                                         args.quick, args.json)
    by_key = {(r["impl"], r["workload"]): r for r in records}
    print(step_table(by_key))
    print()
    print(epoch_table(by_key))
    return finish("run_train.py", records, problems, lambda r: r["shape"])


if __name__ == "__main__":
    sys.exit(main())
