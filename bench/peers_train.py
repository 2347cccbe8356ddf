#!/usr/bin/python3
"""The training workloads of bench_train, run by PyTorch (autograd) and NumPy (a hand-written
backward pass), with Debian's packages via /usr/bin/python3.

- sgd_step (torch, numpy): one step of a 784-512-256-10 ReLU MLP, softmax cross-entropy, plain
  SGD (lr 0.01), batch 128, random inputs and labels: median ms of a step after warm-up.
- adam_epoch (torch): one epoch of the main job, 784-256-128-10, Adam (lr 0.002), shuffled
  batches of 128 over the Fashion-MNIST training set, the last partial batch skipped.

Measured as bench_train measures nanograph: each (library, workload) pair runs in a fresh child
process, takes a memory baseline after its inputs (the data set), and prints one JSON line. Sizes
and shape labels must match bench/bench_train.c: bench/run_train.py joins the lines on them.

    /usr/bin/python3 bench/peers_train.py [--threads N] [--quick] [--only NAME] [--data-dir DIR]
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time

from peers import PeakTracker, child_environment

PAIRS = (("sgd_step", "torch"), ("sgd_step", "numpy"), ("adam_epoch", "torch"))
FASHION_DIR = "/usr/share/datasets/fashion-mnist"
SGD_LEARNING_RATE = 0.01
ADAM_LEARNING_RATE = 0.002


def sizes(quick):
    """As sizes_for() in bench/bench_train.c."""
    if quick:
        return dict(step_units=(784, 32, 16, 10), epoch_units=(784, 32, 16, 10), batch=16, warmup_steps=1,
                    timed_steps=3, epoch_examples_cap=512)
    return dict(step_units=(784, 512, 256, 10), epoch_units=(784, 256, 128, 10), batch=128, warmup_steps=5,
                timed_steps=50, epoch_examples_cap=0)


def shape_label(units, batch):
    return "-".join(str(u) for u in units) + f" b{batch}"


def random_batch(units, batch):
    import numpy as np

    rng = np.random.default_rng(1)
    x = rng.random((batch, units[0]), dtype=np.float32) * 2 - 1
    labels = rng.integers(0, units[3], size=batch)
    return x, labels


def load_fashion_train(data_dir):
    """The training images scaled to [0, 1] (float32, one row per example) and their labels."""
    import numpy as np

    with gzip.open(os.path.join(data_dir, "train-images-idx3-ubyte.gz"), "rb") as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16)
    with gzip.open(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"), "rb") as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)
    return images.reshape(len(labels), -1).astype(np.float32) / 255.0, labels.astype(np.int64)


# ---- PyTorch ----------------------------------------------------------------------------------------

def torch_mlp(units):
    """The network of bench_train: He-normal hidden layers, a Glorot output layer, zero biases."""
    import torch

    layers = []
    for i in range(3):
        linear = torch.nn.Linear(units[i], units[i + 1])
        if i < 2:
            torch.nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")
        else:
            torch.nn.init.xavier_uniform_(linear.weight)
        torch.nn.init.zeros_(linear.bias)
        layers += [linear, torch.nn.ReLU()] if i < 2 else [linear]
    return torch.nn.Sequential(*layers)


def torch_stepper(model, optimizer):
    import torch

    loss_fn = torch.nn.CrossEntropyLoss()

    def step(x, labels):
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), labels)
        loss.backward()
        optimizer.step()
        return loss.item()

    return step


def torch_sgd_step(s):
    import torch

    torch.manual_seed(1)
    x, labels = (torch.from_numpy(a) for a in random_batch(s["step_units"], s["batch"]))
    peak = PeakTracker()
    model = torch_mlp(s["step_units"])
    return peak, torch_stepper(model, torch.optim.SGD(model.parameters(), lr=SGD_LEARNING_RATE)), (x, labels)


def torch_adam_epoch(s, data_dir):
    import torch

    torch.manual_seed(1)
    images, labels = load_fashion_train(data_dir)
    if s["epoch_examples_cap"]:
        images, labels = images[:s["epoch_examples_cap"]], labels[:s["epoch_examples_cap"]]
    images, labels = torch.from_numpy(images), torch.from_numpy(labels)
    units = (images.shape[1],) + s["epoch_units"][1:3] + (int(labels.max()) + 1,)
    peak = PeakTracker()
    compile_start = time.perf_counter_ns()
    model = torch_mlp(units)
    step = torch_stepper(model, torch.optim.Adam(model.parameters(), lr=ADAM_LEARNING_RATE))
    setup_ms = (time.perf_counter_ns() - compile_start) / 1e6
    batch = s["batch"]
    steps = len(labels) // batch
    start = time.perf_counter_ns()
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(1))
    losses = []
    for k in range(steps):
        chosen = order[k * batch:(k + 1) * batch]
        losses.append(step(images[chosen], labels[chosen]))
    seconds = (time.perf_counter_ns() - start) / 1e9
    examples = steps * batch
    return dict(shape=shape_label(units, batch), examples=examples, seconds=round(seconds, 4),
                examples_per_s=round(examples / seconds, 1), compile_ms=round(setup_ms, 2),
                peak_mib=round(peak.delta_mib(), 2), peak_method=peak.method,
                mean_loss=round(statistics.fmean(losses), 5), version=torch.__version__)


# ---- NumPy, backward by hand ------------------------------------------------------------------------

def numpy_sgd_step(s):
    import numpy as np

    units = s["step_units"]
    x, labels = random_batch(units, s["batch"])
    peak = PeakTracker()
    rng = np.random.default_rng(2)
    weights, biases = [], []
    for i in range(3):
        fan_in, fan_out = units[i], units[i + 1]
        if i < 2:
            w = rng.standard_normal((fan_in, fan_out), dtype=np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        else:
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            w = rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32)
        weights.append(w)
        biases.append(np.zeros(fan_out, dtype=np.float32))
    rows = np.arange(len(labels))
    lr = np.float32(SGD_LEARNING_RATE)

    def step(x, labels):
        # forward, keeping what the backward pass needs
        activations, pre = [x], []
        for i in range(3):
            z = activations[-1] @ weights[i] + biases[i]
            pre.append(z)
            if i < 2:
                activations.append(np.maximum(z, 0))
        logits = pre[-1]
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = float(np.mean(np.log(total[:, 0]) - shifted[rows, labels]))
        # backward: d loss / d logits = (softmax - onehot) / batch
        grad = exp / total
        grad[rows, labels] -= 1
        grad /= np.float32(len(labels))
        for i in reversed(range(3)):
            grad_w = activations[i].T @ grad
            grad_b = grad.sum(axis=0)
            if i > 0:
                grad = grad @ weights[i].T
                grad *= pre[i - 1] > 0
            weights[i] -= lr * grad_w
            biases[i] -= lr * grad_b
        return loss

    return peak, step, (x, labels)


# ---- driver ----------------------------------------------------------------------------------------

def library_version(library, threads):
    if library == "torch":
        import torch

        torch.set_num_threads(threads)
        return torch.__version__
    import numpy

    return numpy.__version__


def time_steps(s, peak, step, batch):
    first_loss = loss = None
    for i in range(s["warmup_steps"]):
        loss = step(*batch)
        first_loss = loss if i == 0 else first_loss
    times_ms = []
    for _ in range(s["timed_steps"]):
        start = time.perf_counter_ns()
        loss = step(*batch)
        times_ms.append((time.perf_counter_ns() - start) / 1e6)
    return dict(shape=shape_label(s["step_units"], s["batch"]), steps=len(times_ms),
                ms=round(statistics.median(times_ms), 4), ms_min=round(min(times_ms), 4),
                peak_mib=round(peak.delta_mib(), 2), peak_method=peak.method,
                first_loss=round(first_loss, 5), last_loss=round(loss, 5))


def run_child(library, workload, threads, quick, data_dir):
    version = library_version(library, threads)
    s = sizes(quick)
    if workload == "adam_epoch":
        record = torch_adam_epoch(s, data_dir)
    else:
        record = time_steps(s, *(torch_sgd_step(s) if library == "torch" else numpy_sgd_step(s)))
        record["version"] = version
    print(json.dumps({"impl": library, "workload": workload, "threads": threads, **record}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads of every library (default 2)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    parser.add_argument("--only", choices=sorted({w for w, _ in PAIRS}), help="run one workload")
    parser.add_argument("--data-dir", default=FASHION_DIR, help="where the Fashion-MNIST *-ubyte.gz files are")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "WORKLOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads wants a count of 1 or more")
    if args.child:
        workload_library = (args.child[1], args.child[0])
        if workload_library not in PAIRS:
            parser.error(f"unknown child {args.child}")
        run_child(*args.child, args.threads, args.quick, args.data_dir)
        return 0
    failures = 0
    for workload, library in PAIRS:
        if args.only and workload != args.only:
            continue
        command = [sys.executable, os.path.abspath(__file__), "--child", library, workload, "--threads",
                   str(args.threads), "--data-dir", args.data_dir] + (["--quick"] if args.quick else [])
        done = subprocess.run(command, env=child_environment(args.threads), stdout=subprocess.PIPE, text=True)
        sys.stdout.write(done.stdout)
        sys.stdout.flush()
        if done.returncode != 0:
            print(f"peers_train.py: {library} {workload} failed with status {done.returncode}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
