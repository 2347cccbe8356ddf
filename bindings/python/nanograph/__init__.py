"""nanograph: tensor computation graphs over named axes, from Python.

    import numpy as np, nanograph as ng
    g = ng.Graph()
    N = g.axis("N", 4)
    x = g.placeholder(ng.float32, [N]); y = g.placeholder(ng.float32, [N])
    cost = ng.sum((x - y) ** 2)
    f = ng.Transformer().computation([cost, ng.deriv(cost, x)], [x, y])
    c, dx = f(np.array([1, 2, 3, 4], np.float32), np.zeros(4, np.float32))   # 30.0, [2 4 6 8]

A pure-Python binding over ctypes: it loads libnanograph (NANOGRAPH_LIBRARY, next to this
package, or the system loader) and calls it through the library's function table.
"""
from ._lib import API_VERSION, LibraryNotFoundError, lib
from ._errors import (AxesError, ClosedError, DTypeError, Error, FormatError, InternalError,
                      InvalidArgumentError, IOError, NotFoundError, OutOfMemoryError, StateError,
                      UnsupportedError)
from ._tensor import (DType, Tensor, as_dtype, as_tensor, bool_, deserialize, float32, float64,
                      from_dlpack, int32, int64, serialize, uint8)
from ._graph import (CONSTANT, INPUT, PERSISTENT, TRAINABLE, Axis, Graph, Op, abs_, absolute,
                     adam, add, argmax, argmin, assign, axes_with_order, broadcast, cast,
                     cast_axes, concat, cos, cross_entropy_binary, cross_entropy_multi, deriv,
                     divide, dot, equal, exp, expand_dims, flatten, greater, greater_equal, l1_norm,
                     l2_norm, less, less_equal, log, log_softmax, max, maximum, mean, min, minimum,
                     multiply, negative, not_equal, one_hot, pad, placeholders, power, prod,
                     reciprocal, relu, reshape, select, sequential, sgd, sigmoid, sign, sin, softmax, sqrt,
                     square, squared_l2, stack, stop_gradient, subtract, sum, tanh, transpose,
                     unflatten, var, variables, variance, vjp, where)
from ._graph import assign_slice, fill, value_of
from ._graph import (segment_gather, segment_log_softmax, segment_max, segment_mean, segment_min,
                     segment_softmax, segment_sum)
from ._exec import Computation, Signature, Transformer
from ._shape import Shape, ShapeIndices, broadcast_shapes
from ._jagged import Jagged
from ._onnx import export_onnx, import_onnx
from ._alloc import set_allocator


def version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return lib.version_string().decode()


def version_number() -> int:
    """The loaded library's version as MAJOR*10000 + MINOR*100 + PATCH."""
    return int(lib.version_number())


__version__ = "0.1.0"
