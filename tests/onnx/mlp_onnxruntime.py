#!/usr/bin/env python3
"""The MLP that train_mlp trains, exported with --export-onnx: it passes ONNX's checker, and ONNX
Runtime gives the same predictions as nanograph.

    mlp_onnxruntime.py TRAIN_MLP LIBNANOGRAPH DIGITS_CSV_GZ WORK_DIR

train_mlp trains on the digits data (2 epochs) and writes WORK_DIR/mlp.onnx. The test set (every
5th line of the CSV, features / 16, as train_mlp reads it) padded to the model's batch of 1000 runs
through ONNX Runtime and through nanograph (the exported model imported again): the logits agree
(rtol 1e-4, atol 1e-5), the predicted classes are the same, and ONNX Runtime's accuracy is the
one train_mlp printed. ONNX Runtime comes from PyPI into a virtual environment in WORK_DIR; when it
cannot be installed the test prints SKIP and exits 77.
"""
import ctypes
import gzip
import os
import re
import subprocess
import sys

import numpy as np
import onnx

SKIP = 77


def onnxruntime_python(work):
    venv = os.path.join(work, "onnxruntime-venv")
    python = os.path.join(venv, "bin", "python")
    probe = [python, "-c", "import onnxruntime"]
    if os.path.exists(python) and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("SKIP: no virtual environment for onnxruntime (apt-get install python3-venv):\n"
              + r.stdout[-2000:] + r.stderr[-2000:])
        sys.exit(SKIP)
    r = subprocess.run([python, "-m", "pip", "install", "-q", "--timeout", "30", "--retries", "1",
                        "onnxruntime"], capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0 or subprocess.run(probe, capture_output=True).returncode != 0:
        print("SKIP: onnxruntime could not be installed from PyPI:\n" + r.stderr[-2000:])
        sys.exit(SKIP)
    return python


def digits_test_set(path):
    rows, labels = [], []
    with gzip.open(path, "rt") as f:
        for i, line in enumerate(f):
            if i % 5 == 0:
                values = [float(v) for v in line.strip().split(",")]
                rows.append([v / 16.0 for v in values[:-1]])
                labels.append(int(values[-1]))
    return np.array(rows, np.float32), np.array(labels)


def nanograph_logits(library, model_path, x):
    lib = ctypes.CDLL(library)
    p = ctypes.c_void_p
    lib.ng_onnx_import_file.restype = p
    lib.ng_onnx_import_file.argtypes = [ctypes.c_char_p, p, p, ctypes.c_int32]
    lib.ng_graph_find.restype = p
    lib.ng_graph_find.argtypes = [p, ctypes.c_char_p]
    lib.ng_transformer_create.restype = p
    lib.ng_computation_create.restype = p
    lib.ng_computation_create.argtypes = [p, p, ctypes.c_int32, p, ctypes.c_int32]
    lib.ng_computation_run.argtypes = [p, p, ctypes.c_int32, p, ctypes.c_int32]
    lib.ng_tensor_from_data.restype = p
    lib.ng_tensor_from_data.argtypes = [ctypes.c_int32, p, ctypes.c_int32, p]
    lib.ng_tensor_read.argtypes = [p, p, ctypes.c_size_t]
    lib.ng_last_error.restype = ctypes.c_char_p
    for name in ("ng_tensor_release", "ng_computation_destroy", "ng_transformer_destroy",
                 "ng_graph_destroy"):
        getattr(lib, name).argtypes = [p]
    g = lib.ng_onnx_import_file(model_path.encode(), None, None, 0)
    assert g, lib.ng_last_error()
    xs, logits = lib.ng_graph_find(g, b"x"), lib.ng_graph_find(g, b"logits")
    assert xs and logits
    t = lib.ng_transformer_create(None)
    c = lib.ng_computation_create(t, (p * 1)(logits), 1, (p * 1)(xs), 1)
    assert c, lib.ng_last_error()
    shape = (ctypes.c_int64 * 2)(*x.shape)
    tx = lib.ng_tensor_from_data(5, shape, 2, x.ctypes.data)
    out = (p * 1)()
    assert lib.ng_computation_run(c, (p * 1)(tx), 1, out, 1) == 0, lib.ng_last_error()
    y = np.zeros((x.shape[0], 10), np.float32)
    assert lib.ng_tensor_read(out[0], y.ctypes.data, y.nbytes) == 0
    for h in (out[0], tx):
        lib.ng_tensor_release(h)
    lib.ng_computation_destroy(c)
    lib.ng_transformer_destroy(t)
    lib.ng_graph_destroy(g)
    return y


def main():
    train_mlp, library, digits, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    model_path = os.path.join(work, "mlp.onnx")
    run = subprocess.run([train_mlp, "--digits", "--epochs", "2", "--threads", "1",
                          "--export-onnx", model_path], capture_output=True, text=True)
    print(run.stdout)
    if run.returncode != 0:
        sys.exit("train_mlp failed:\n" + run.stderr)
    printed = float(re.findall(r"test accuracy ([0-9.]+)", run.stdout)[-1])

    model = onnx.load(model_path)
    onnx.checker.check_model(model, full_check=True)
    print(f"checker: valid ({len(model.graph.node)} nodes, opset {model.opset_import[0].version})")

    x, labels = digits_test_set(digits)
    batch = np.zeros((1000, x.shape[1]), np.float32)
    batch[: len(x)] = x
    ours = nanograph_logits(library, model_path, batch)

    python = onnxruntime_python(work)
    ort_out = os.path.join(work, "ort_logits.npy")
    np.save(os.path.join(work, "batch.npy"), batch)
    script = ("import numpy as np, onnxruntime as ort, sys; "
              "s = ort.InferenceSession(sys.argv[1], providers=['CPUExecutionProvider']); "
              "np.save(sys.argv[3], s.run(['logits'], {'x': np.load(sys.argv[2])})[0]); "
              "print('onnxruntime', ort.__version__)")
    subprocess.run([python, "-c", script, model_path, os.path.join(work, "batch.npy"), ort_out],
                   check=True)
    theirs = np.load(ort_out)

    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
    same = np.array_equal(ours[: len(x)].argmax(1), theirs[: len(x)].argmax(1))
    accuracy = float((theirs[: len(x)].argmax(1) == labels).mean())
    print(f"max |logit difference| {np.abs(ours - theirs).max():.3g}; same predictions: {same}; "
          f"onnxruntime accuracy {accuracy:.4f}, train_mlp printed {printed:.4f}")
    assert same, "the predicted classes differ"
    assert f"{accuracy:.4f}" == f"{printed:.4f}", "the accuracies differ"


if __name__ == "__main__":
    main()
