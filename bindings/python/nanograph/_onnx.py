"""ONNX models: export computations (as bytes or files), import models into new graphs."""
from __future__ import annotations

import ctypes
import os
import tempfile
from typing import Any, Mapping, Optional, Sequence, Union

from . import _capi
from ._errors import check, check_ptr
from ._graph import Graph, Op
from ._lib import lib
from ._tensor import take_bytes

PathLike = Union[str, "os.PathLike[str]"]


def _ops(ops: Union[Op, Sequence[Op]]):
    ops = [ops] if isinstance(ops, Op) else list(ops)
    return (ctypes.c_void_p * max(len(ops), 1))(*[o.handle for o in ops]), len(ops), ops


def export_onnx(results: Union[Op, Sequence[Op]], params: Union[Op, Sequence[Op]] = (),
                path: Optional[PathLike] = None, transformer: Any = None) -> Optional[bytes]:
    """The computation of `results` from the placeholders `params` as an ONNX model (opset 13).

    Without `path` the model is returned as bytes (`onnx.load_from_string(b)` reads it); with
    one it is written to that file. Variables and persistent tensors export their initial values,
    or with `transformer` the values it holds (a trained network)."""
    r, nr, res = _ops(results)
    p, np_, _ = _ops(params)
    if not res:
        raise ValueError("nanograph.export_onnx: at least one result is needed")
    g = res[0].graph
    if transformer is not None:
        if path is not None:
            check(lib.onnx_export_trained_file(transformer.handle, g.handle, r, nr, p, np_,
                                               os.fsencode(path)))
            return None
        with tempfile.TemporaryDirectory() as d:  # the library writes trained models to files
            f = os.path.join(d, "model.onnx")
            check(lib.onnx_export_trained_file(transformer.handle, g.handle, r, nr, p, np_,
                                               os.fsencode(f)))
            with open(f, "rb") as fh:
                return fh.read()
    if path is not None:
        check(lib.onnx_export_file(g.handle, r, nr, p, np_, os.fsencode(path)))
        return None
    data, size = ctypes.c_void_p(), ctypes.c_size_t()
    check(lib.onnx_export_bytes(g.handle, r, nr, p, np_, ctypes.byref(data), ctypes.byref(size)))
    return take_bytes(data, size)


def import_onnx(model: Any, dims: Optional[Mapping[str, int]] = None, trainable: bool = False) -> Graph:
    """A new graph from an ONNX model: a file path, bytes, or an object with SerializeToString()
    (an onnx.ModelProto). The model's inputs become placeholders and its outputs ops, found by
    their names with graph.find(name); every op has positional axes "d0", "d1", ...

    dims binds the model's symbolic dimensions by name; trainable=True makes float initializers
    variables (trainable further) instead of constants."""
    dims = dict(dims or {})
    names = (ctypes.c_char_p * max(len(dims), 1))(*[k.encode() for k in dims])
    lengths = (ctypes.c_int64 * max(len(dims), 1))(*[int(v) for v in dims.values()])
    options = _capi.NG_ONNX_TRAINABLE if trainable else 0
    if hasattr(model, "SerializeToString"):
        model = model.SerializeToString()
    if isinstance(model, (bytes, bytearray, memoryview)):
        buf = bytes(model)
        h = lib.onnx_import_bytes(buf, len(buf), names, lengths, len(dims), options)
    elif isinstance(model, (str, os.PathLike)):
        path = os.fsencode(model)
        if options:
            h = lib.onnx_import_file_with(path, names, lengths, len(dims), options)
        else:
            h = lib.onnx_import_file(path, names, lengths, len(dims))
    else:
        raise TypeError("nanograph.import_onnx: expected a path, bytes or an onnx.ModelProto, got %r"
                        % type(model).__name__)
    return Graph._adopt(check_ptr(h))
