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
from ._graph import (CONSTANT, INPUT, PERSISTENT, TRAINABLE, Axis, Graph, Op, adam, placeholders, sgd,
                     variables)
from ._ops import *  # noqa: F401,F403  (the generated op builders: abs_, add, ..., where)
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
