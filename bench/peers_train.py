#!/usr/bin/python3
"""The training and inference workloads of bench_train, run by PyTorch (autograd), NumPy (a
hand-written backward pass), JAX (jax.grad under jax.jit) and ONNX Runtime (inference of the model
bench_train exported), with Debian's NumPy and PyTorch and the PyPI packages of
bench/setup-peers.sh.

- sgd_step (torch, numpy, jax): one step of a 784-512-256-10 ReLU MLP, softmax cross-entropy,
  plain SGD (lr 0.01), batch 128, random inputs and labels: median ms of a step after warm-up.
- adam_epoch (torch, jax): one epoch of the main job, 784-256-128-10, Adam (lr 0.002), shuffled
  batches of 128 over the Fashion-MNIST training set, the last partial batch skipped.
- mlp_infer_b128, mlp_infer_b1 (onnxruntime, torch, jax, numpy): the logits of the sgd_step
  network for the input bench_train used, with the weights of the ONNX model it exported to
  --onnx-dir (ONNX Runtime runs that model file itself); each result is checked against a
  double-precision forward pass.

Measured as bench_train measures nanograph: each (library, workload, thread count) runs in a fresh
child process, takes a memory baseline after its inputs (the data set), and prints one JSON line.
Sizes and shape labels must match bench/bench_train.c: bench/run_train.py joins the lines on them.

    python bench/peers_train.py [--threads N] [--thread-counts 1,2] [--quick] [--only NAME]
                                [--data-dir DIR] [--onnx-dir DIR]
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time

from peers import (PeakTracker, available, child_environment, child_failed, json_lines,
                   limit_cpus, thread_count_list)

PAIRS = (("sgd_step", "torch"), ("sgd_step", "numpy"), ("sgd_step", "jax"), ("adam_epoch", "torch"),
         ("adam_epoch", "jax")) + tuple((w, lib) for w in ("mlp_infer_b128", "mlp_infer_b1")
                                         for lib in ("onnxruntime", "torch", "jax", "numpy"))
INFER_WARMUP, INFER_RUNS, INFER_RUNS_QUICK = 5, 200, 3
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


# ---- JAX: jax.grad under jax.jit --------------------------------------------------------------------

def jax_init(units, seed):
    """He-normal hidden layers, a Glorot-uniform output layer, zero biases (as the others)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    params = []
    for i in range(3):
        fan_in, fan_out = units[i], units[i + 1]
        if i < 2:
            w = rng.standard_normal((fan_in, fan_out), dtype=np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        else:
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            w = rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32)
        params += [w, np.zeros(fan_out, dtype=np.float32)]
    return params


def jax_forward(params, x):
    import jax.numpy as jnp

    h = x
    for i in range(3):
        h = h @ params[2 * i] + params[2 * i + 1]
        if i < 2:
            h = jnp.maximum(h, 0)
    return h


def jax_loss(params, x, labels):
    import jax

    logp = jax.nn.log_softmax(jax_forward(params, x), axis=1)
    return -(logp * labels).sum(axis=1).mean()


def jax_sgd_step(s):
    import jax
    import numpy as np

    x, labels = random_batch(s["step_units"], s["batch"])
    onehot = np.eye(s["step_units"][3], dtype=np.float32)[labels]
    x, onehot = jax.device_put(x), jax.device_put(onehot)
    peak = PeakTracker()
    params = [jax.device_put(p) for p in jax_init(s["step_units"], 2)]

    @jax.jit
    def update(params, x, onehot):
        loss, grads = jax.value_and_grad(jax_loss)(params, x, onehot)
        return [p - SGD_LEARNING_RATE * g for p, g in zip(params, grads)], loss

    state = {"params": params}

    def step(x, onehot):
        state["params"], loss = update(state["params"], x, onehot)
        return float(loss)

    return peak, step, (x, onehot)


def jax_adam_epoch(s, data_dir):
    import jax
    import jax.numpy as jnp
    import numpy as np

    images, labels = load_fashion_train(data_dir)
    if s["epoch_examples_cap"]:
        images, labels = images[:s["epoch_examples_cap"]], labels[:s["epoch_examples_cap"]]
    classes = int(labels.max()) + 1
    units = (images.shape[1],) + s["epoch_units"][1:3] + (classes,)
    eye = np.eye(classes, dtype=np.float32)
    peak = PeakTracker()
    compile_start = time.perf_counter_ns()
    params = [jax.device_put(p) for p in jax_init(units, 1)]
    moments = [jnp.zeros_like(p) for p in params]
    state = {"params": params, "m": moments, "v": list(moments), "t": jnp.float32(0)}
    b1, b2, eps = 0.9, 0.999, 1e-8

    @jax.jit
    def update(state, x, onehot):
        loss, grads = jax.value_and_grad(jax_loss)(state["params"], x, onehot)
        t = state["t"] + 1
        m = [b1 * m + (1 - b1) * g for m, g in zip(state["m"], grads)]
        v = [b2 * v + (1 - b2) * g * g for v, g in zip(state["v"], grads)]
        rate = ADAM_LEARNING_RATE * jnp.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        params = [p - rate * mi / (jnp.sqrt(vi) + eps) for p, mi, vi in zip(state["params"], m, v)]
        return {"params": params, "m": m, "v": v, "t": t}, loss

    setup_ms = (time.perf_counter_ns() - compile_start) / 1e6
    batch = s["batch"]
    steps = len(labels) // batch
    start = time.perf_counter_ns()
    order = np.random.default_rng(1).permutation(len(labels))
    losses = []
    for k in range(steps):
        chosen = order[k * batch:(k + 1) * batch]
        state, loss = update(state, images[chosen], eye[labels[chosen]])
        losses.append(float(loss))
    seconds = (time.perf_counter_ns() - start) / 1e9
    examples = steps * batch
    return dict(shape=shape_label(units, batch), examples=examples, seconds=round(seconds, 4),
                examples_per_s=round(examples / seconds, 1), compile_ms=round(setup_ms, 2),
                peak_mib=round(peak.delta_mib(), 2), peak_method=peak.method,
                mean_loss=round(statistics.fmean(losses), 5), version=jax.__version__,
                note="setup excludes jit compilation, which happens in the first step")


# ---- inference of the exported model -----------------------------------------------------------------

def exported(onnx_dir, workload):
    """The model path, its weights [W1, b1, W2, b2, W3, b3] and the input bench_train used."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    path = os.path.join(onnx_dir, workload + ".onnx")
    model = onnx.load(path)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    params = [weights[name] for name in ("Variable", "Variable_1", "Variable_2", "Variable_3",
                                         "Variable_4", "Variable_5")]
    x = np.fromfile(os.path.join(onnx_dir, workload + ".x.f32"), dtype=np.float32)
    return path, params, x.reshape(-1, params[0].shape[0])


def infer_check(params, x, logits):
    """Worst error of logits against a double-precision forward pass, in units of 1e-4 (1 + |ref|)."""
    import numpy as np

    h = x.astype(np.float64)
    for i in range(3):
        h = h @ params[2 * i].astype(np.float64) + params[2 * i + 1]
        if i < 2:
            h = np.maximum(h, 0)
    got = np.asarray(logits, dtype=np.float64).reshape(h.shape)
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.max(np.abs(got - h) / (1e-4 * (1 + np.abs(h)))))


def infer_runner(library, path, params, x, threads):
    """A function returning the logits of one run (a new result each time)."""
    if library == "onnxruntime":
        from peers import ort_session

        session = ort_session(open(path, "rb").read(), threads)
        name = session.get_inputs()[0].name
        return lambda: session.run(None, {name: x})[0]
    if library == "torch":
        import torch

        ts = [torch.from_numpy(p.copy()) for p in params]  # writable copies
        tx = torch.from_numpy(x)

        def run():
            with torch.inference_mode():
                h = torch.relu(torch.addmm(ts[1], tx, ts[0]))
                h = torch.relu(torch.addmm(ts[3], h, ts[2]))
                return torch.addmm(ts[5], h, ts[4])

        return run
    if library == "jax":
        import jax

        f = jax.jit(jax_forward)
        jparams, jx = [jax.device_put(p) for p in params], jax.device_put(x)
        return lambda: f(jparams, jx).block_until_ready()
    import numpy as np

    def run():
        h = np.maximum(x @ params[0] + params[1], 0)
        h = np.maximum(h @ params[2] + params[3], 0)
        return h @ params[4] + params[5]

    return run


def run_infer(library, workload, s, threads, onnx_dir):
    import numpy as np

    path, params, x = exported(onnx_dir, workload)
    peak = PeakTracker()
    run = infer_runner(library, path, params, x, threads)
    result = None
    for _ in range(INFER_WARMUP):
        result = None
        result = run()
    times_ms = []
    for _ in range(INFER_RUNS_QUICK if s["timed_steps"] < 10 else INFER_RUNS):
        start = time.perf_counter_ns()
        result = None
        result = run()
        times_ms.append((time.perf_counter_ns() - start) / 1e6)
    peak_mib = peak.delta_mib()  # before the check's double-precision copies
    error = infer_check(params, x, np.asarray(result))
    units = (params[0].shape[0], params[0].shape[1], params[2].shape[1], params[4].shape[1])
    return dict(shape=shape_label(units, x.shape[0]), steps=len(times_ms),
                ms=round(statistics.median(times_ms), 4), ms_min=round(min(times_ms), 4),
                peak_mib=round(peak_mib, 2), peak_method=peak.method,
                check="ok" if error <= 1 else "WRONG", check_error=error)


# ---- driver ----------------------------------------------------------------------------------------

def library_version(library, threads):
    if library == "torch":
        import torch

        torch.set_num_threads(threads)
        return torch.__version__
    if library == "jax":
        import jax

        jax.config.update("jax_platforms", "cpu")
        return jax.__version__
    if library == "onnxruntime":
        import onnxruntime

        return onnxruntime.__version__
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


def run_child(library, workload, threads, quick, data_dir, onnx_dir):
    version = library_version(library, threads)
    s = sizes(quick)
    if workload == "adam_epoch":
        record = (jax_adam_epoch if library == "jax" else torch_adam_epoch)(s, data_dir)
    elif workload.startswith("mlp_infer"):
        record = run_infer(library, workload, s, threads, onnx_dir)
        record["version"] = version
    else:
        stepper = {"torch": torch_sgd_step, "numpy": numpy_sgd_step, "jax": jax_sgd_step}[library]
        record = time_steps(s, *stepper(s))
        record["version"] = version
    print(json.dumps({"impl": library, "workload": workload, "threads": threads, **record}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads of every library (default 2)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    parser.add_argument("--thread-counts", help="comma-separated thread counts to run each library at "
                        "(default: every count from 1 to --threads)")
    parser.add_argument("--only", choices=sorted({w for w, _ in PAIRS}), help="run one workload")
    parser.add_argument("--data-dir", default=FASHION_DIR, help="where the Fashion-MNIST *-ubyte.gz files are")
    parser.add_argument("--onnx-dir", default="/tmp", help="where bench_train wrote the inference models")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "WORKLOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads wants a count of 1 or more")
    if args.child:
        workload_library = (args.child[1], args.child[0])
        if workload_library not in PAIRS:
            parser.error(f"unknown child {args.child}")
        limit_cpus(args.threads)
        run_child(*args.child, args.threads, args.quick, args.data_dir, args.onnx_dir)
        return 0
    try:
        # --quick is a smoke test: nanograph's thread count only, unless told otherwise
        thread_counts = ([args.threads] if args.quick and not args.thread_counts
                         else thread_count_list(args.thread_counts, args.threads))
    except ValueError:
        parser.error(f"--thread-counts wants counts of 1 or more, not '{args.thread_counts}'")
    failures = 0
    missing = set()
    for workload, library in PAIRS:
        if args.only and workload != args.only:
            continue
        # the inference peers read the exported model's weights with the onnx package
        absent = [name for name in [library] + (["onnx"] if workload.startswith("mlp_infer") else [])
                  if not available(name)]
        if absent:
            missing.update(absent)
            continue
        for threads in thread_counts:
            command = [sys.executable, os.path.abspath(__file__), "--child", library, workload, "--threads",
                       str(threads), "--data-dir", args.data_dir, "--onnx-dir", args.onnx_dir]
            command += ["--quick"] if args.quick else []
            done = subprocess.run(command, env=child_environment(threads), stdout=subprocess.PIPE, text=True)
            sys.stdout.write(done.stdout)
            sys.stdout.flush()
            failures += child_failed("peers_train.py", f"{library} {workload} ({threads} threads)",
                                     done.returncode, json_lines(done.stdout))
    for library in sorted(missing):
        print(f"peers_train.py: {library} is not installed for {sys.executable}: skipped "
              "(bash bench/setup-peers.sh)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
