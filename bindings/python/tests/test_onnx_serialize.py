"""ONNX export and import, checked with the onnx package and NumPy; tensors as TensorProto bytes,
checked with a protobuf decoder written here from the wire format."""
import struct

import numpy as np
import pytest

import nanograph as ng

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def _linear():
    """y = sum over M of x * w, x a placeholder [N, M], w a variable [M] starting at (1, 2)."""
    g = ng.Graph()
    N, M = g.axis("N", 3), g.axis("M", 2)
    x = g.placeholder(ng.float32, [N, M])
    x.name = "x"
    w = g.variable(ng.float32, [M], initial_value=g.constant(np.array([1, 2], np.float32), [M]))
    w.name = "w"
    y = ng.sum(x * w, M)
    y.name = "y"
    return g, x, w, y


def _initializers(model):
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}


def test_export_bytes_is_a_model_onnx_reads(tmp_path):
    g, x, w, y = _linear()
    data = ng.export_onnx(y, [x])
    model = onnx.load_from_string(data)
    onnx.checker.check_model(model)
    assert [i.name for i in model.graph.input] == ["x"]
    assert [o.name for o in model.graph.output] == ["y"]
    dims = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    assert dims == [3, 2]
    np.testing.assert_array_equal(_initializers(model)["w"], [1, 2])
    path = tmp_path / "linear.onnx"
    assert ng.export_onnx(y, [x], path=path) is None
    assert onnx.load(str(path)).graph == model.graph


def test_trained_export_holds_the_transformer_values_and_imports_back(tmp_path):
    g, x, w, y = _linear()
    t = ng.Transformer()
    t.set_value(w, [3, 4])
    model = onnx.load_from_string(t.export_onnx(y, [x]))
    np.testing.assert_array_equal(_initializers(model)["w"], [3, 4])
    path = tmp_path / "trained.onnx"
    t.export_onnx(y, [x], path=str(path))
    np.testing.assert_array_equal(_initializers(onnx.load(str(path)))["w"], [3, 4])

    xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    for source in (path, str(path), path.read_bytes(), model):
        imported = ng.import_onnx(source)
        px, py = imported.find("x"), imported.find("y")
        assert [a.name for a in px.axes] == ["d0", "d1"] and px.shape == (3, 2)
        f = ng.Transformer().computation(py, px)
        np.testing.assert_allclose(f(xs), xs @ np.array([3, 4], np.float32))
        assert ng.variables(py) == []  # initializers are constants by default


def test_trainable_import_makes_variables_that_train(tmp_path):
    g, x, w, y = _linear()
    path = tmp_path / "linear.onnx"
    ng.export_onnx(y, [x], path=path)
    for source in (path, path.read_bytes()):
        imported = ng.import_onnx(source, trainable=True)
        px, py = imported.find("x"), imported.find("y")
        (var,) = ng.variables(py)
        t = ng.Transformer()
        xs = np.ones((3, 2), np.float32)
        np.testing.assert_array_equal(t.computation(py, px)(xs), [3, 3, 3])  # 1 * 1 + 1 * 2
        np.testing.assert_array_equal(t.get_value(var), [1, 2])
        step = t.computation(ng.sgd(ng.sum(py), 0.5), px)
        step(xs)
        # d(sum(x @ w))/dw = column sums of x = (3, 3); w - 0.5 * 3
        np.testing.assert_allclose(t.get_value(var), [1 - 1.5, 2 - 1.5])


def test_import_binds_symbolic_dimensions_and_matches_numpy():
    rng = np.random.default_rng(0)
    W = rng.standard_normal((3, 2)).astype(np.float32)
    B = rng.standard_normal(2).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("Add", ["xw", "B"], ["y"]),
         helper.make_node("Relu", ["y"], ["out"])],
        "affine",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["batch", 2])],
        [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    g = ng.import_onnx(model, dims={"batch": 4})
    x = g.find("x")
    assert x.shape == (4, 3)
    xs = rng.standard_normal((4, 3)).astype(np.float32)
    f = ng.Transformer().computation(g.find("out"), x)
    np.testing.assert_allclose(f(xs), np.maximum(xs @ W + B, 0), rtol=1e-5, atol=1e-6)
    with pytest.raises(ng.InvalidArgumentError, match="ng_onnx_import_bytes: .*batch"):
        ng.import_onnx(model)


def test_onnx_bad_inputs_raise_the_library_errors(tmp_path):
    g, x, w, y = _linear()
    with pytest.raises(ng.FormatError, match="ng_onnx_import_bytes: the bytes are not an ONNX ModelProto"):
        ng.import_onnx(b"garbage")
    with pytest.raises(ng.IOError, match="ng_onnx_import_file: cannot open .*missing.onnx"):
        ng.import_onnx(tmp_path / "missing.onnx")
    with pytest.raises(ng.IOError, match="ng_onnx_import_file_with: cannot open"):
        ng.import_onnx(tmp_path / "missing.onnx", trainable=True)
    with pytest.raises(ng.UnsupportedError, match="ng_onnx_export_bytes: op .* has no ONNX equivalent"):
        ng.export_onnx(ng.assign(w, w * 2), [])
    with pytest.raises(ng.InvalidArgumentError, match="ng_onnx_export_file"):
        ng.export_onnx(y, [], path=tmp_path / "m.onnx")  # x is needed but not a parameter
    with pytest.raises(ng.IOError, match="ng_onnx_export_trained_file"):
        ng.Transformer().export_onnx(y, [x], path=str(tmp_path / "no" / "such" / "dir.onnx"))
    with pytest.raises(TypeError, match="expected a path, bytes or an onnx.ModelProto"):
        ng.import_onnx(42)


# ---- TensorProto ------------------------------------------------------------------------------


def _varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _fields(buf):
    """(field number, value) pairs of a protobuf message: ints for varints, bytes otherwise."""
    i, out = 0, []
    while i < len(buf):
        key, i = _varint(buf, i)
        kind = key & 7
        if kind == 0:
            v, i = _varint(buf, i)
        elif kind == 2:
            n, i = _varint(buf, i)
            v, i = bytes(buf[i:i + n]), i + n
        else:
            raise AssertionError("unexpected wire type %d" % kind)
        out.append((key >> 3, v))
    return out


def _decode_tensor_proto(data):
    f = _fields(data)
    dtype = [v for k, v in f if k == 1][0]
    shape = [v for k, v in f if k == 2]
    dims = [[s for k, s in _fields(d) if k == 1][0] if _fields(d) else 0
            for k, d in (_fields(shape[0]) if shape else []) if k == 2]
    content = b"".join(v for k, v in f if k == 4)
    return dtype, dims, content


def test_serialize_writes_dtype_shape_and_row_major_content_of_a_view():
    arr = np.arange(6, dtype=np.float64).reshape(2, 3)
    view = ng.Tensor(arr).T  # strides (1, 3): the bytes must be the transpose in row-major order
    data = view.serialize()
    dtype, dims, content = _decode_tensor_proto(data)
    assert dtype == 2 and dims == [3, 2]  # DT_DOUBLE
    assert content == np.ascontiguousarray(arr.T).tobytes()
    np.testing.assert_array_equal(ng.deserialize(data), arr.T)
    for value, code in [(np.array([True, False]), 10), (np.arange(4, dtype=np.int32), 3),
                        (np.arange(3, dtype=np.int64), 9), (np.arange(5, dtype=np.uint8), 4),
                        (np.float32(2.5), 1)]:
        data = ng.serialize(value)
        assert _decode_tensor_proto(data)[0] == code
        back = ng.deserialize(data)
        assert back.dtype == np.asarray(value).dtype and back.shape == np.shape(value)
        np.testing.assert_array_equal(back, value)


def _tensor_proto(dtype, dims, *fields):
    shape = b"".join(b"\x12" + bytes([len(d)]) + d for d in (b"\x08" + bytes([n]) for n in dims))
    return b"\x08" + bytes([dtype]) + b"\x12" + bytes([len(shape)]) + shape + b"".join(fields)


def test_deserialize_reads_typed_values_as_tensorflow_does():
    # float_val (field 5, packed) with one value fills the whole shape
    one = _tensor_proto(1, [2, 2], b"\x2a\x04" + struct.pack("<f", 1.5))
    np.testing.assert_array_equal(ng.deserialize(one), np.full((2, 2), 1.5, np.float32))
    # fewer values than elements: the last one repeats
    few = _tensor_proto(1, [4], b"\x2a\x08" + struct.pack("<2f", 1.0, 2.0))
    np.testing.assert_array_equal(ng.deserialize(few), [1, 2, 2, 2])
    t = ng.Tensor.deserialize(bytearray(few))
    assert isinstance(t, ng.Tensor) and t.shape == (4,)


def test_deserialize_bad_bytes_raise_the_library_errors():
    with pytest.raises(ng.FormatError, match="ng_tensor_deserialize: the 2 bytes are not a TensorProto"):
        ng.deserialize(b"\xff\xff")
    content = _tensor_proto(1, [3], b"\x22\x04" + struct.pack("<f", 1.0))  # 4 bytes for 3 floats
    with pytest.raises(ng.FormatError, match="ng_tensor_deserialize"):
        ng.deserialize(content)
    with pytest.raises(ng.UnsupportedError, match="ng_tensor_deserialize"):
        ng.deserialize(_tensor_proto(7, [1]))  # DT_STRING


def test_a_pytorch_model_exported_to_onnx_computes_what_pytorch_computes():
    torch = pytest.importorskip("torch")
    import io

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3),
                                torch.nn.Softmax(dim=1))
    buf = io.BytesIO()
    torch.onnx.export(model, torch.zeros(5, 4), buf, input_names=["x"], output_names=["y"], opset_version=13)
    g = ng.import_onnx(buf.getvalue())
    f = ng.Transformer().computation(g.find("y"), g.find("x"))
    xs = np.random.default_rng(1).standard_normal((5, 4)).astype(np.float32)
    with torch.no_grad():
        want = model(torch.from_numpy(xs)).numpy()
    np.testing.assert_allclose(f(xs), want, rtol=1e-5, atol=1e-6)
