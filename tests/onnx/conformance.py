#!/usr/bin/env python3
"""ONNX's backend node tests (Debian's libonnx-testdata) through nanograph's ONNX importer.

    conformance.py LIBNANOGRAPH [--data DIR] [--write-doc docs/onnx.md] [--verbose]

For every test: inputs that ONNX passes as tensors but nanograph needs at import (a shape, axes,
pads, a depth, ...) become initializers; the model is imported with ng_onnx_import_bytes, its
inputs are fed by name (ng_graph_find), its outputs read and compared with the expected ones
(rtol 1e-3, atol 1e-7, as ONNX's backend tests). A test of an operator the importer lacks must fail
with NG_ERR_UNSUPPORTED naming the operator; a test needing an element type nanograph lacks
(float16, string, ...) must fail with NG_ERR_DTYPE. Exit status 1 when a test of a supported
operator fails or an unsupported one fails any other way. --write-doc replaces the generated part
of the page (between the markers) with the tables.
"""
import argparse
import collections
import ctypes
import glob
import os
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

NG = {1: np.bool_, 2: np.int32, 3: np.int64, 4: np.uint8, 5: np.float32, 6: np.float64}
NP_TO_NG = {np.dtype(v): k for k, v in NG.items()}
NG_ERR_DTYPE, NG_ERR_UNSUPPORTED = 3, 6
STATUS = {0: "NG_OK", 1: "INVALID_ARGUMENT", 2: "AXES", 3: "DTYPE", 4: "OUT_OF_MEMORY",
          5: "NOT_FOUND", 6: "UNSUPPORTED", 7: "STATE", 8: "IO", 9: "FORMAT", 10: "INTERNAL"}

# Inputs nanograph needs at import, by operator: they become initializers.
STATIC_INPUTS = {
    "Reshape": [1], "Expand": [1], "Tile": [1], "Squeeze": [1], "Unsqueeze": [1],
    "Slice": [1, 2, 3, 4], "Pad": [1, 3], "OneHot": [1], "Split": [1], "ConstantOfShape": [0],
    "Range": [0, 1, 2], "Dropout": [1, 2], "ReduceSum": [1], "ReduceMax": [1], "ReduceMin": [1],
    "ReduceMean": [1], "ReduceProd": [1], "ReduceL1": [1], "ReduceL2": [1], "ReduceLogSum": [1],
    "ReduceLogSumExp": [1], "ReduceSumSquare": [1],
}

# Tests that cannot pass by design, with the reason.
KNOWN = {name: "training-mode dropout draws a random mask, which the test fixes"
         for name in ("test_training_dropout", "test_training_dropout_default",
                      "test_training_dropout_default_mask", "test_training_dropout_mask")}

BEGIN, END = "<!-- conformance:begin -->", "<!-- conformance:end -->"


def load_library(path):
    lib = ctypes.CDLL(path)
    p, i32, i64, sz = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_size_t
    sigs = {
        "ng_onnx_import_bytes": (p, [p, sz, p, p, i32, ctypes.c_uint32]),
        "ng_last_error": (ctypes.c_char_p, []),
        "ng_last_status": (i32, []),
        "ng_graph_destroy": (None, [p]),
        "ng_graph_find": (p, [p, ctypes.c_char_p]),
        "ng_op_dtype": (i32, [p]),
        "ng_op_rank": (i32, [p]),
        "ng_op_axis": (p, [p, i32]),
        "ng_axis_length": (i64, [p]),
        "ng_transformer_create": (p, [ctypes.c_char_p]),
        "ng_transformer_destroy": (None, [p]),
        "ng_computation_create": (p, [p, p, i32, p, i32]),
        "ng_computation_destroy": (None, [p]),
        "ng_computation_run": (i32, [p, p, i32, p, i32]),
        "ng_tensor_from_data": (p, [i32, p, i32, p]),
        "ng_tensor_release": (None, [p]),
        "ng_tensor_rank": (i32, [p]),
        "ng_tensor_dim": (i64, [p, i32]),
        "ng_tensor_dtype": (i32, [p]),
        "ng_tensor_read": (i32, [p, p, sz]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


class Failure(Exception):
    def __init__(self, kind, message, status=None):
        super().__init__(message)
        self.kind, self.status = kind, status


def error(lib, what):
    status = lib.ng_last_status()
    return Failure("error", f"{what}: {STATUS.get(status, status)}: "
                   f"{lib.ng_last_error().decode(errors='replace')}", status)


def prepare(test_dir):
    """The model with static inputs moved to initializers, its feeds and expected outputs."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    data = sorted(glob.glob(os.path.join(test_dir, "test_data_set_0")))[0]
    inputs = [numpy_helper.to_array(onnx.load_tensor(f))
              for f in sorted(glob.glob(os.path.join(data, "input_*.pb")),
                              key=lambda s: int(s.rsplit("_", 1)[1].split(".")[0]))]
    expected = [numpy_helper.to_array(onnx.load_tensor(f))
                for f in sorted(glob.glob(os.path.join(data, "output_*.pb")),
                                key=lambda s: int(s.rsplit("_", 1)[1].split(".")[0]))]
    g = model.graph
    initializer_names = {t.name for t in g.initializer}
    graph_inputs = [v for v in g.input if v.name not in initializer_names]
    feeds = dict(zip([v.name for v in graph_inputs], inputs))
    # Values needed at import: the static inputs, and (as nanograph folds nodes whose inputs are
    # known) everything they are computed from, except through Shape, which needs no values.
    needed = set()
    for node in g.node:
        for i in STATIC_INPUTS.get(node.op_type, []):
            if i < len(node.input) and node.input[i]:
                needed.add(node.input[i])
    changed = True
    while changed:
        changed = False
        for node in g.node:
            if node.op_type != "Shape" and any(o in needed for o in node.output):
                for i in node.input:
                    if i and i not in needed:
                        needed.add(i)
                        changed = True
    static = {name for name in needed if name in feeds}
    for name in static:
        g.initializer.append(numpy_helper.from_array(feeds.pop(name), name))
        keep = [v for v in g.input if v.name != name]
        del g.input[:]
        g.input.extend(keep)
    outputs = [v.name for v in g.output]
    return model, feeds, dict(zip(outputs, expected))


def only_tensors(test_dir):
    """Whether every input and output of the model is a tensor (not a sequence or optional)."""
    g = onnx.load(os.path.join(test_dir, "model.onnx")).graph
    return all(v.type.HasField("tensor_type") for v in list(g.input) + list(g.output))


def run_test(lib, test_dir):
    if not only_tensors(test_dir):
        raise Failure("sequence", "an input or output is a sequence or an optional")
    model, feeds, expected = prepare(test_dir)
    data = model.SerializeToString()
    g = lib.ng_onnx_import_bytes(data, len(data), None, None, 0, 0)
    if not g:
        raise error(lib, "import")
    t = comp = None
    tensors = []
    try:
        params = []
        for name, value in feeds.items():
            op = lib.ng_graph_find(g, name.encode())
            if not op:
                raise Failure("error", f"input {name} not found")
            params.append(op)
            value = np.require(value, requirements="C")  # keeps rank 0
            if value.dtype not in NP_TO_NG:
                raise Failure("dtype", f"input dtype {value.dtype}", NG_ERR_DTYPE)
            shape = (ctypes.c_int64 * max(1, value.ndim))(*value.shape)
            tensors.append(lib.ng_tensor_from_data(NP_TO_NG[value.dtype], shape, value.ndim,
                                                   value.ctypes.data))
            if not tensors[-1]:
                raise error(lib, "input tensor")
        results = []
        for name in expected:
            op = lib.ng_graph_find(g, name.encode())
            if not op:
                raise Failure("error", f"output {name} not found")
            results.append(op)
        t = lib.ng_transformer_create(None)
        rs = (ctypes.c_void_p * len(results))(*results)
        ps = (ctypes.c_void_p * max(1, len(params)))(*params)
        comp = lib.ng_computation_create(t, rs, len(results), ps, len(params))
        if not comp:
            raise error(lib, "compile")
        ins = (ctypes.c_void_p * max(1, len(tensors)))(*tensors)
        outs = (ctypes.c_void_p * len(results))()
        if lib.ng_computation_run(comp, ins, len(tensors), outs, len(results)) != 0:
            raise error(lib, "run")
        try:
            for (name, want), out in zip(expected.items(), outs):
                dt = NG[lib.ng_tensor_dtype(out)]
                shape = tuple(lib.ng_tensor_dim(out, i) for i in range(lib.ng_tensor_rank(out)))
                got = np.zeros(shape, dtype=dt)
                lib.ng_tensor_read(out, got.ctypes.data, got.nbytes)
                if got.shape != want.shape:
                    raise Failure("wrong", f"{name}: shape {got.shape}, expected {want.shape}")
                if got.dtype != want.dtype:
                    raise Failure("wrong", f"{name}: dtype {got.dtype}, expected {want.dtype}")
                try:
                    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-7)
                except AssertionError as e:
                    raise Failure("wrong", f"{name}: " + str(e).strip().splitlines()[2]) from None
        finally:
            for out in outs:
                if out:
                    lib.ng_tensor_release(out)
    finally:
        for x in tensors:
            if x:
                lib.ng_tensor_release(x)
        if comp:
            lib.ng_computation_destroy(comp)
        if t:
            lib.ng_transformer_destroy(t)
        lib.ng_graph_destroy(g)


def operators_of(test_dir):
    model = onnx.load(os.path.join(test_dir, "model.onnx"), load_external_data=False)
    return sorted({n.op_type for n in model.graph.node})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("--data", default="/usr/share/libonnx-testdata/data/node")
    ap.add_argument("--write-doc")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", help="run the tests whose name contains this")
    args = ap.parse_args()
    lib = load_library(args.library)
    started = time.time()
    rows = []  # (test, operators, outcome, message)
    for test_dir in sorted(glob.glob(os.path.join(args.data, "test_*"))):
        name = os.path.basename(test_dir)
        if args.only and args.only not in name:
            continue
        ops = operators_of(test_dir)
        try:
            run_test(lib, test_dir)
            outcome, message = "pass", ""
        except Failure as f:
            message = str(f)
            if f.status == NG_ERR_UNSUPPORTED and "operator " in message:
                outcome = "unsupported operator"
            elif f.status == NG_ERR_DTYPE or f.kind == "dtype":
                outcome = "dtype"
            elif f.kind == "sequence":
                outcome = "sequence"
            elif name in KNOWN:
                outcome, message = "known", KNOWN[name] + f" ({message})"
            else:
                outcome = "FAIL"
        except Exception as e:  # a test whose data the runner cannot read
            outcome, message = "FAIL", f"runner: {type(e).__name__}: {e}"
        rows.append((name, ops, outcome, message))
        if args.verbose or outcome == "FAIL":
            print(f"{outcome:22} {name}: {message}")
    counts = collections.Counter(r[2] for r in rows)
    print(f"{len(rows)} tests in {time.time() - started:.0f} s: " +
          ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    # An unsupported-operator failure must name an operator of the test.
    bad = [r for r in rows if r[2] == "FAIL"]
    for r in rows:
        if r[2] == "unsupported operator" and not any(f"operator {op} " in r[3] for op in r[1]):
            bad.append(r)
            print(f"unsupported without naming an operator of the test: {r[0]}: {r[3]}")
    if args.write_doc:
        write_doc(args.write_doc, rows)
    return 1 if bad else 0


def write_doc(path, rows):
    by_op = collections.defaultdict(list)
    for name, ops, outcome, message in rows:
        key = ops[0] if len(ops) == 1 else " ".join(ops) if len(ops) <= 3 else "(several)"
        by_op[key].append((name, outcome, message))
    supported = sorted({op for name, ops, outcome, _ in rows if outcome == "pass"
                        for op in ops if not any(r[2] == "unsupported operator" and
                                                 f"operator {op} " in r[3] for r in rows)})
    lines = [BEGIN, "",
             f"Supported operators ({len(supported)}): " + ", ".join(f"`{o}`" for o in supported)
             + ".", "",
             "| operators of the test model | tests | pass | fail | element type nanograph lacks |"
             " sequence or optional | cannot pass | unsupported operator |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for key in sorted(by_op):
        c = collections.Counter(o for _, o, _ in by_op[key])
        lines.append(f"| {key} | {len(by_op[key])} | {c['pass']} | {c['FAIL']} | {c['dtype']} |"
                     f" {c['sequence']} | {c['known']} | {c['unsupported operator']} |")
    fails = [(n, m) for k in sorted(by_op) for n, o, m in by_op[k] if o == "FAIL"]
    lines += ["", f"Failing tests of supported operators ({len(fails)}):", ""]
    lines += [f"- `{n}`: {m.replace('|', '/')[:200]}" for n, m in fails] or ["- none"]
    known = [(n, m) for k in sorted(by_op) for n, o, m in by_op[k] if o == "known"]
    lines += ["", f"Tests that cannot pass ({len(known)}):", ""]
    lines += [f"- `{n}`: {m.replace('|', '/')[:200]}" for n, m in known] or ["- none"]
    lines += ["", END]
    text = open(path).read() if os.path.exists(path) else BEGIN + "\n" + END + "\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(path, "w") as f:
        f.write(head + "\n".join(lines) + tail)


if __name__ == "__main__":
    sys.exit(main())
