#!/usr/bin/python3
"""Runs the training and inference benchmark of nanograph (a built bench_train), the machine's
limits (bench_limits beside it: the raw OpenBLAS time of each workload's GEMMs) and the peers
PyTorch, NumPy, JAX and ONNX Runtime (bench/peers_train.py, under this interpreter) in one run, and
prints Markdown tables: the SGD step of the 784-512-256-10 MLP, one Adam epoch of the main job
(784-256-128-10 on Fashion-MNIST) and the inference of the first network at batch 128 and 1; each
peer at its fastest thread count and at nanograph's, as its time divided by nanograph's (> 1:
nanograph is faster), with peak memory above the inputs and nanograph's time against the sum of
its raw GEMM times.

    python bench/run_train.py BUILD_DIR_OR_PROGRAM [--threads N] [--quick] [--data-dir DIR]
                              [--json FILE] [--rounds N]

Builds nothing: BUILD_DIR_OR_PROGRAM is a build directory (bench/bench_train inside it) or the
program itself. Exits non-zero when a run failed or the two sides ran different sizes.
"""
import argparse
import os
import sys
import tempfile

from peers_train import PAIRS
from run_all import add_rounds_option, finish, rounds_of, run_side_by_side

PEERS = ("torch", "jax", "numpy", "onnxruntime")
INFERENCE = ("mlp_infer_b128", "mlp_infer_b1")


def find_program(path):
    if os.path.isdir(path):
        path = os.path.join(path, "bench", "bench_train")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"run_train.py: no bench_train program at {path}; build the 'bench_train' target first")
    return path


def ratio(peer, ours, key):
    return f"{peer[key] / ours[key]:.2f}" if peer and ours and ours[key] > 0 else "-"


def cell(record, key, fmt):
    return fmt.format(record[key]) if record and key in record else "-"


def workload_table(records, workload, key, threads, title, quick):
    """One workload: nanograph, then each peer at its fastest thread count and at nanograph's."""
    ours = next((r for r in records if r["impl"] == "nanograph" and r["workload"] == workload), None)
    gemm = next((r for r in records if r["impl"] == "limits" and r.get("workload") ==
                 ("adam_epoch_step" if workload == "adam_epoch" else workload)), None)
    unit = "s/epoch" if key == "seconds" else "ms"
    any_record = ours or next((r for r in records if r["workload"] == workload), {})
    lines = [f"{title}, {any_record.get('shape', '?')}:\n"]
    if gemm and ours and key == "ms" and not quick:
        lines.append(f"Raw OpenBLAS time of its GEMMs in this run: {gemm['ms']:.3f} ms; nanograph takes "
                     f"{ours['ms'] / gemm['ms']:.2f} times that.\n")
    lines += [f"| impl | threads | {unit} | peer/ng | peak MiB | check or loss |",
              "| --- | ---: | ---: | ---: | ---: | --- |"]

    def describe(r):
        if "check" in r:
            return r["check"]
        if "first_loss" in r:
            return f"{r['first_loss']:.3f} -> {r['last_loss']:.3f}"
        return f"mean {r['mean_loss']:.4f}" if "mean_loss" in r else "-"

    if ours:
        lines.append(f"| nanograph | {ours['threads']} | {cell(ours, key, '{:.3f}')} | 1.00 "
                     f"| {cell(ours, 'peak_mib', '{:.1f}')} | {describe(ours)} |")
    for peer in PEERS:
        runs = sorted((r for r in records if r["impl"] == peer and r["workload"] == workload),
                      key=lambda r: r[key])
        if not runs:
            continue
        shown = [runs[0]] + [r for r in runs[1:] if r["threads"] == threads]
        if runs[0]["threads"] != threads:
            shown = [runs[0]] + [r for r in runs if r["threads"] == threads]
        for r in shown:
            label = "fastest" if r is runs[0] else "at nanograph's count"
            lines.append(f"| {peer} ({label}) | {r['threads']} | {cell(r, key, '{:.3f}')} "
                         f"| {ratio(r, ours, key)} | {cell(r, 'peak_mib', '{:.1f}')} | {describe(r)} |")
    return "\n".join(lines)


def check_nanograph_inference(records, onnx_dir):
    """Checks nanograph's logits (written by bench_train) as the peers' are checked; returns the
    problems found."""
    problems = []
    for r in records:
        if r["impl"] != "nanograph" or r["workload"] not in INFERENCE:
            continue
        try:
            import numpy as np
            from peers_train import exported, infer_check

            _, params, x = exported(onnx_dir, r["workload"])
            logits = np.fromfile(os.path.join(onnx_dir, r["workload"] + ".nanograph.f32"), dtype=np.float32)
            error = infer_check(params, x, logits)
            r["check"], r["check_error"] = ("ok" if error <= 1 else "WRONG"), error
            if error > 1:
                problems.append(f"nanograph {r['workload']} computed wrong logits ({error:.3g} tolerances off)")
        except ImportError:
            r["check"] = "unchecked (no onnx package)"
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", help="a build directory, or the bench_train program")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2,
                        help="threads of every library (default: the number of cores)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    parser.add_argument("--data-dir", help="where the Fashion-MNIST *-ubyte.gz files are")
    parser.add_argument("--json", metavar="FILE", help="also write every JSON line to FILE")
    add_rounds_option(parser)
    args = parser.parse_args()

    onnx_dir = tempfile.mkdtemp(prefix="ng_bench_onnx_")
    options = ["--threads", str(args.threads), "--onnx-dir", onnx_dir] + (["--quick"] if args.quick else [])
    options += ["--data-dir", args.data_dir] if args.data_dir else []
    records, problems = run_side_by_side(find_program(args.program), "peers_train.py", options, args.threads,
                                         args.quick, args.json, list(dict.fromkeys(w for w, _ in PAIRS)),
                                         rounds_of(args))
    problems += check_nanograph_inference(records, onnx_dir)
    for workload, key, title in (("sgd_step", "ms", "SGD training step (median ms)"),
                                 ("adam_epoch", "seconds", "One Adam epoch of the main job"),
                                 ("mlp_infer_b128", "ms", "Inference, batch 128 (median ms)"),
                                 ("mlp_infer_b1", "ms", "Inference, batch 1 (median ms)")):
        print(workload_table(records, workload, key, args.threads, title, args.quick))
        print()
    return finish("run_train.py", records, problems, lambda r: r["shape"])


if __name__ == "__main__":
    sys.exit(main())
