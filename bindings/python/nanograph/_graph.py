"""Graphs, named axes and ops, with Python operators."""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _capi
from ._errors import ClosedError, check, check_ptr, raise_last
from ._lib import lib
from ._tensor import DType, DTypeLike, as_dtype, dtype_from_code, float32

#: Flags of assignable tensors (Op.flags is their union).
CONSTANT = _capi.NG_FLAG_CONSTANT
PERSISTENT = _capi.NG_FLAG_PERSISTENT
TRAINABLE = _capi.NG_FLAG_TRAINABLE
INPUT = _capi.NG_FLAG_INPUT


def _s(b: Optional[bytes]) -> str:
    return "" if b is None else b.decode("utf-8", "replace")


class Graph:
    """A graph: owns its ops and axes. Free it with close() or a `with` block; otherwise it is
    freed when neither it nor any of its ops or axes is referenced any more."""

    def __init__(self) -> None:
        self._own(check_ptr(lib.graph_create()))

    def _own(self, handle: int) -> None:
        self._h = handle
        self._finalizer = weakref.finalize(self, lib.graph_destroy, handle)
        self._users = 0  # live computations compiled from this graph (see close())

    @classmethod
    def _adopt(cls, handle: int) -> "Graph":
        """Takes ownership of a C graph (an imported model's)."""
        g = cls.__new__(cls)
        g._own(handle)
        return g

    @property
    def handle(self) -> int:
        if not self._h:
            raise ClosedError("nanograph: the graph is closed")
        return self._h

    def close(self) -> None:
        """Destroys the graph now: its ops and axes can no longer be used (computations compiled
        from it go on working).

        While computations compiled from the graph are alive, the C graph is destroyed after the
        last of them: the binding never relies on the library tolerating the other order."""
        self._h = None
        if self._users == 0:
            self._finalizer()

    def _release_user(self) -> None:
        self._users -= 1
        if self._h is None and self._users == 0:
            self._finalizer()

    def __enter__(self) -> "Graph":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- axes and the four kinds of tensors ----------------------------------------------

    def axis(self, name: str, length: int) -> "Axis":
        """The axis of this graph with that name and length (the same for equal arguments)."""
        return Axis(check_ptr(lib.axis(self.handle, name.encode(), int(length))), self)

    def _axes(self, axes: Iterable["Axis"]):
        axes = list(axes)
        for a in axes:
            if not isinstance(a, Axis):
                raise TypeError("nanograph: expected an Axis, got %r" % (a,))
        return (ctypes.c_void_p * len(axes))(*[a.handle for a in axes]), len(axes)

    def constant(self, value: Any, axes: Sequence["Axis"] = (), dtype: Optional[DTypeLike] = None) -> "Op":
        """A constant holding `value` (a NumPy array or anything np.asarray takes), whose
        dimensions are the lengths of `axes` in order. The dtype defaults to the array's (float32
        for Python floats)."""
        arr = np.asarray(value)
        if dtype is None:
            dtype = float32 if arr.dtype == np.float64 and not isinstance(value, np.ndarray) else arr.dtype
        dt = as_dtype(dtype)
        arr = np.ascontiguousarray(arr, dt.numpy)
        shape = tuple(a.length for a in axes)
        if arr.shape != shape:
            arr = np.ascontiguousarray(np.broadcast_to(arr, shape))
        ax, n = self._axes(axes)
        return Op(check_ptr(lib.constant(self.handle, dt.code, ax, n, arr.ctypes.data)), self)

    def scalar(self, value: float, dtype: DTypeLike = float32) -> "Op":
        """A constant of rank 0."""
        dt = as_dtype(dtype)
        if dt == float32:
            return Op(check_ptr(lib.scalar(self.handle, float(value))), self)
        return Op(check_ptr(lib.scalar_of(self.handle, dt.code, float(value))), self)

    def _assignable(self, fn, dtype: DTypeLike, axes: Sequence["Axis"], initial_value: Any, *extra):
        ax, n = self._axes(axes)
        init = None
        if initial_value is not None:
            init = initial_value if isinstance(initial_value, Op) else self.constant(initial_value, axes, dtype)
            init = init.handle
        return Op(check_ptr(fn(self.handle, as_dtype(dtype).code, ax, n, *extra, init)), self)

    def placeholder(self, dtype: DTypeLike, axes: Sequence["Axis"] = (), initial_value: Any = None) -> "Op":
        """A value passed in at run time (or kept by the transformer between runs)."""
        return self._assignable(lib.placeholder, dtype, axes, initial_value)

    def variable(self, dtype: DTypeLike, axes: Sequence["Axis"] = (), initial_value: Any = None) -> "Op":
        """A trainable parameter; `initial_value` an op (an initializer) or a value (zeros if None)."""
        return self._assignable(lib.variable, dtype, axes, initial_value)

    def persistent_tensor(self, dtype: DTypeLike, axes: Sequence["Axis"] = (), initial_value: Any = None) -> "Op":
        """State the transformer keeps between runs (a learning rate, a velocity)."""
        return self._assignable(lib.persistent_tensor, dtype, axes, initial_value)

    def assignable_tensor(self, dtype: DTypeLike, axes: Sequence["Axis"], flags: int, initial_value: Any = None) -> "Op":
        """An assignable tensor with any valid union of CONSTANT, PERSISTENT, TRAINABLE, INPUT."""
        return self._assignable(lib.assignable_tensor, dtype, axes, initial_value, int(flags))

    # ---- initializers ----------------------------------------------------------------------

    def uniform(self, axes: Sequence["Axis"], low: float, high: float, seed: int = 0, dtype: DTypeLike = float32) -> "Op":
        ax, n = self._axes(axes)
        return Op(check_ptr(lib.initializer_uniform(self.handle, as_dtype(dtype).code, ax, n, low, high, seed)), self)

    def normal(self, axes: Sequence["Axis"], mean: float = 0.0, stddev: float = 1.0, seed: int = 0, dtype: DTypeLike = float32) -> "Op":
        ax, n = self._axes(axes)
        return Op(check_ptr(lib.initializer_normal(self.handle, as_dtype(dtype).code, ax, n, mean, stddev, seed)), self)

    def glorot_uniform(self, axes: Sequence["Axis"], fan_in: Sequence["Axis"], seed: int = 0, dtype: DTypeLike = float32) -> "Op":
        ax, n = self._axes(axes)
        fi, nf = self._axes(fan_in)
        return Op(check_ptr(lib.initializer_glorot_uniform(self.handle, as_dtype(dtype).code, ax, n, fi, nf, seed)), self)

    def he_normal(self, axes: Sequence["Axis"], fan_in: Sequence["Axis"], seed: int = 0, dtype: DTypeLike = float32) -> "Op":
        ax, n = self._axes(axes)
        fi, nf = self._axes(fan_in)
        return Op(check_ptr(lib.initializer_he_normal(self.handle, as_dtype(dtype).code, ax, n, fi, nf, seed)), self)

    # ---- random values, new at every run ----------------------------------------------------

    def random_uniform(self, axes: Sequence["Axis"] = (), low: float = 0.0, high: float = 1.0, dtype: DTypeLike = float32) -> "Op":
        """Values drawn uniformly from [low, high), new at every run, from the transformer's
        generator (Transformer.seed). Unlike the initializer `uniform`, not drawn once."""
        ax, n = self._axes(axes)
        return Op(check_ptr(lib.uniform(self.handle, as_dtype(dtype).code, ax, n, float(low), float(high))), self)

    def random_normal(self, axes: Sequence["Axis"] = (), mean: float = 0.0, stddev: float = 1.0, dtype: DTypeLike = float32) -> "Op":
        """Values drawn from N(mean, stddev**2), new at every run (see random_uniform)."""
        ax, n = self._axes(axes)
        return Op(check_ptr(lib.normal(self.handle, as_dtype(dtype).code, ax, n, float(mean), float(stddev))), self)

    # ---- queries ------------------------------------------------------------------------------

    @property
    def status(self) -> int:
        """The status of the first op builder that failed on this graph (0 when none did)."""
        return int(lib.graph_status(self.handle))

    @property
    def error(self) -> str:
        """The message of the graph's first construction error ("" when none)."""
        return _s(lib.graph_error(self.handle))

    @property
    def ops(self) -> List["Op"]:
        h = self.handle
        return [Op(check_ptr(lib.graph_op(h, i)), self) for i in range(lib.graph_num_ops(h))]

    def __len__(self) -> int:
        return int(lib.graph_num_ops(self.handle))

    def find(self, name: str) -> "Op":
        """The op with that name (NotFoundError when none)."""
        return Op(check_ptr(lib.graph_find(self.handle, name.encode())), self)

    def select(self, key: str, value: Optional[str] = None) -> List["Op"]:
        """The ops whose metadata has `key` (equal to `value` unless None), in creation order."""
        k, v = key.encode(), None if value is None else value.encode()
        n = lib.graph_select(self.handle, k, v, None, 0)
        if n < 0:
            raise_last()
        out = (ctypes.c_void_p * n)()
        lib.graph_select(self.handle, k, v, out, n)
        return [Op(p, self) for p in out]

    def _roots(self, roots: Sequence["Op"]):
        roots = list(roots)
        return (ctypes.c_void_p * len(roots))(*[r.handle for r in roots]), len(roots)

    def dot(self, roots: Sequence["Op"] = ()) -> str:
        """The Graphviz DOT text of the graph (or of what `roots` depend on)."""
        r, n = self._roots(roots)
        needed = ctypes.c_size_t()
        check(lib.graph_dot(self.handle, r, n, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        check(lib.graph_dot(self.handle, r, n, buf, needed.value, None))
        return _s(buf.value)

    def write_dot(self, path: str, roots: Sequence["Op"] = ()) -> None:
        r, n = self._roots(roots)
        check(lib.graph_write_dot(self.handle, r, n, str(path).encode()))


class Axis:
    """A named axis of a given length, belonging to a graph (kept alive by the axis)."""

    __slots__ = ("_h", "graph")

    def __init__(self, handle: int, graph: Graph) -> None:
        self._h, self.graph = handle, graph

    @property
    def handle(self) -> int:
        self.graph.handle  # raises once the graph is closed
        return self._h

    @property
    def name(self) -> str:
        return _s(lib.axis_name(self.handle))

    @property
    def length(self) -> int:
        return int(lib.axis_length(self.handle))

    def __len__(self) -> int:
        return self.length

    @property
    def components(self) -> List["Axis"]:
        """The axes a flattened axis was made of ([] for an axis that is not flattened)."""
        h = self.handle
        return [Axis(check_ptr(lib.axis_component(h, i)), self.graph) for i in range(lib.axis_num_components(h))]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Axis) and other._h == self._h

    def __hash__(self) -> int:
        return hash(self._h)

    def __repr__(self) -> str:
        return "Axis(%r, %d)" % (self.name, self.length) if self.graph._h else "Axis(<closed>)"


Operand = Union["Op", float, int, bool]


class Op:
    """An op of a graph: a value with a dtype and named axes. Python operators build new ops."""

    __slots__ = ("_h", "graph")
    __array_ufunc__ = None  # numpy_scalar * op builds an op rather than an object array

    def __init__(self, handle: int, graph: Graph) -> None:
        self._h, self.graph = handle, graph

    @property
    def handle(self) -> int:
        self.graph.handle
        return self._h

    # ---- attributes ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return _s(check_ptr(lib.op_name(self.handle)))

    @name.setter
    def name(self, value: str) -> None:
        check(lib.op_set_name(self.handle, value.encode()))

    @property
    def type(self) -> str:
        return _s(lib.op_type(self.handle))

    @property
    def dtype(self) -> DType:
        return dtype_from_code(lib.op_dtype(self.handle))

    @property
    def axes(self) -> List[Axis]:
        h = self.handle
        return [Axis(check_ptr(lib.op_axis(h, i)), self.graph) for i in range(lib.op_rank(h))]

    @property
    def ndim(self) -> int:
        return int(lib.op_rank(self.handle))

    @property
    def shape(self) -> Tuple[int, ...]:
        return tuple(a.length for a in self.axes)

    @property
    def flags(self) -> int:
        return int(lib.op_flags(self.handle))

    @property
    def args(self) -> List["Op"]:
        h = self.handle
        return [Op(check_ptr(lib.op_arg(h, i)), self.graph) for i in range(lib.op_num_args(h))]

    @property
    def control_deps(self) -> List["Op"]:
        h = self.handle
        return [Op(check_ptr(lib.op_control_dep(h, i)), self.graph) for i in range(lib.op_num_control_deps(h))]

    def add_control_dep(self, dep: "Op") -> None:
        """Makes `dep` run before this op whenever it runs."""
        check(lib.op_add_control_dep(self.handle, dep.handle))

    @property
    def initial_value(self) -> Optional["Op"]:
        p = lib.op_initial_value(self.handle)
        if not p and lib.last_status() != _capi.NG_OK:
            raise_last()
        return Op(p, self.graph) if p else None

    def set_metadata(self, key: str, value: str) -> None:
        check(lib.op_set_metadata(self.handle, key.encode(), value.encode()))

    def metadata(self, key: str) -> Optional[str]:
        v = lib.op_metadata(self.handle, key.encode())
        if v is None and lib.last_status() != _capi.NG_OK:
            raise_last()
        return None if v is None else _s(v)

    def __hash__(self) -> int:
        return hash(self._h)

    def __bool__(self) -> bool:
        raise TypeError("nanograph: an op has no truth value (it is computed when a computation runs)")

    def __repr__(self) -> str:
        if not self.graph._h:
            return "Op(<closed graph>)"
        axes = ", ".join("%s=%d" % (a.name, a.length) for a in self.axes)
        return "Op(%s: %s, %s[%s])" % (self.name, self.type, self.dtype.name, axes)

    def same(self, other: "Op") -> bool:
        """Whether two Op objects are the same op (== builds an elementwise comparison)."""
        return isinstance(other, Op) and self._h == other._h

    # ---- operators -------------------------------------------------------------------------

    def _other(self, x: Operand) -> "Op":
        if isinstance(x, Op):
            return x
        if isinstance(x, (bool, int, float, np.number, np.bool_)):
            return self.graph.scalar(float(x), self.dtype)
        return NotImplemented  # type: ignore[return-value]

    def _binary(self, fn, other: Operand, reverse: bool = False) -> "Op":
        o = self._other(other)
        if o is NotImplemented:
            return NotImplemented  # type: ignore[return-value]
        a, b = (o, self) if reverse else (self, o)
        return Op(check_ptr(fn(self.graph.handle, a.handle, b.handle)), self.graph)

    def __add__(self, o): return self._binary(lib.add, o)
    def __radd__(self, o): return self._binary(lib.add, o, True)
    def __sub__(self, o): return self._binary(lib.subtract, o)
    def __rsub__(self, o): return self._binary(lib.subtract, o, True)
    def __mul__(self, o): return self._binary(lib.multiply, o)
    def __rmul__(self, o): return self._binary(lib.multiply, o, True)
    def __truediv__(self, o): return self._binary(lib.divide, o)
    def __rtruediv__(self, o): return self._binary(lib.divide, o, True)
    def __pow__(self, o): return self._binary(lib.power, o)
    def __rpow__(self, o): return self._binary(lib.power, o, True)
    def __matmul__(self, o): return self._binary(lib.dot, o)
    def __rmatmul__(self, o): return self._binary(lib.dot, o, True)
    def __lt__(self, o): return self._binary(lib.less, o)
    def __le__(self, o): return self._binary(lib.less_equal, o)
    def __gt__(self, o): return self._binary(lib.greater, o)
    def __ge__(self, o): return self._binary(lib.greater_equal, o)
    def __eq__(self, o): return self._binary(lib.equal, o)  # type: ignore[override]
    def __ne__(self, o): return self._binary(lib.not_equal, o)  # type: ignore[override]
    def __neg__(self): return negative(self)
    def __pos__(self): return self
    def __abs__(self): return absolute(self)

    def _specs(self, key: Any):
        """ng_slice_t specs of NumPy basic indexing: ints drop an axis, slices keep it."""
        if not isinstance(key, tuple):
            key = (key,)
        axes = self.axes
        if Ellipsis in key:
            i = key.index(Ellipsis)
            key = key[:i] + (slice(None),) * (len(axes) - len(key) + 1) + key[i + 1:]
        key = key + (slice(None),) * (len(axes) - len(key))
        if len(key) != len(axes):
            raise IndexError("nanograph: %d indices for %d axes" % (len(key), len(axes)))
        specs = (_capi.ng_slice_t * len(axes))()
        for spec, k, a in zip(specs, key, axes):
            if isinstance(k, slice):
                start, stop, step = k.indices(a.length)
                spec.start, spec.stop, spec.step, spec.index_only = start, stop, step, 0
            else:
                i = int(k)
                spec.start, spec.stop, spec.step, spec.index_only = i + a.length if i < 0 else i, 0, 1, 1
        return specs

    def __getitem__(self, key: Any) -> "Op":
        """NumPy-style basic indexing: ints drop an axis, slices keep it (any step but 0)."""
        specs = self._specs(key)
        return Op(check_ptr(lib.slice(self.graph.handle, self.handle, specs, len(specs))), self.graph)

    # ---- NumPy-like methods ------------------------------------------------------------------

    def sum(self, axes=None): return sum(self, axes)
    def mean(self, axes=None): return mean(self, axes)
    def max(self, axes=None): return max(self, axes)
    def min(self, axes=None): return min(self, axes)
    def astype(self, dtype: DTypeLike): return cast(self, dtype)


# ---- functions ------------------------------------------------------------------------------


def _op(x: Any, like: Optional[Op] = None) -> Op:
    if isinstance(x, Op):
        return x
    if like is not None:
        return like._other(x)
    raise TypeError("nanograph: expected an Op, got %r" % (x,))


def _unary(fn):
    def f(x: Op) -> Op:
        x = _op(x)
        return Op(check_ptr(fn(x.graph.handle, x.handle)), x.graph)

    return f


negative = _unary(lib.negative)
absolute = abs_ = _unary(lib.absolute)
sign = _unary(lib.sign)
exp = _unary(lib.exp)
log = _unary(lib.log)
sqrt = _unary(lib.sqrt)
square = _unary(lib.square)
reciprocal = _unary(lib.reciprocal)
sigmoid = _unary(lib.sigmoid)
relu = _unary(lib.relu)
sin = _unary(lib.sin)
cos = _unary(lib.cos)
tanh = _unary(lib.tanh)
stop_gradient = _unary(lib.stop_gradient)
unflatten = _unary(lib.unflatten)


def _binary(fn):
    def f(a: Operand, b: Operand) -> Op:
        if isinstance(a, Op):
            return a._binary(fn, b)
        return _op(b)._binary(fn, a, reverse=True)

    return f


add = _binary(lib.add)
subtract = _binary(lib.subtract)
multiply = _binary(lib.multiply)
divide = _binary(lib.divide)
power = _binary(lib.power)
maximum = _binary(lib.maximum)
minimum = _binary(lib.minimum)
equal = _binary(lib.equal)
not_equal = _binary(lib.not_equal)
less = _binary(lib.less)
less_equal = _binary(lib.less_equal)
greater = _binary(lib.greater)
greater_equal = _binary(lib.greater_equal)
dot = _binary(lib.dot)


def cast(x: Op, dtype: DTypeLike) -> Op:
    """x converted to another dtype (the only conversion there is)."""
    return Op(check_ptr(lib.cast(x.graph.handle, x.handle, as_dtype(dtype).code)), x.graph)


def select(condition: Op, a: Operand, b: Operand) -> Op:
    """condition ? a : b elementwise (NumPy's where)."""
    like = a if isinstance(a, Op) else b
    a, b = _op(a, like), _op(b, like)  # type: ignore[arg-type]
    return Op(check_ptr(lib.select(condition.graph.handle, condition.handle, a.handle, b.handle)), condition.graph)


where = select

AxesArg = Union[None, Axis, Sequence[Axis]]


def _axes_arg(g: Graph, axes: AxesArg):
    if axes is None:
        axes = ()
    elif isinstance(axes, Axis):
        axes = (axes,)
    return g._axes(axes)


def _reduction(fn):
    def f(x: Op, axes: AxesArg = None) -> Op:
        ax, n = _axes_arg(x.graph, axes)
        return Op(check_ptr(fn(x.graph.handle, x.handle, ax, n)), x.graph)

    f.__doc__ = "Reduces x over `axes` (an Axis or a list; None: every axis)."
    return f


sum = _reduction(lib.sum)  # noqa: A001 - NumPy's names
max = _reduction(lib.max)  # noqa: A001
min = _reduction(lib.min)  # noqa: A001
mean = _reduction(lib.mean)
prod = _reduction(lib.prod)
variance = var = _reduction(lib.variance)
squared_l2 = _reduction(lib.squared_l2)
l2_norm = _reduction(lib.l2_norm)
l1_norm = _reduction(lib.l1_norm)
softmax = _reduction(lib.softmax)
log_softmax = _reduction(lib.log_softmax)


def argmax(x: Op, axis: Axis) -> Op:
    return Op(check_ptr(lib.argmax(x.graph.handle, x.handle, axis.handle)), x.graph)


def argmin(x: Op, axis: Axis) -> Op:
    return Op(check_ptr(lib.argmin(x.graph.handle, x.handle, axis.handle)), x.graph)


def cross_entropy_multi(y: Op, t: Op, axes: AxesArg = None) -> Op:
    """-sum(t * log(y)) over axes (finite for any logits when y is a softmax)."""
    ax, n = _axes_arg(y.graph, axes)
    return Op(check_ptr(lib.cross_entropy_multi(y.graph.handle, y.handle, t.handle, ax, n)), y.graph)


def cross_entropy_binary(y: Op, t: Op, axes: AxesArg = None) -> Op:
    """-(t log y + (1 - t) log(1 - y)), summed over axes (None: elementwise)."""
    ax, n = _axes_arg(y.graph, axes)
    return Op(check_ptr(lib.cross_entropy_binary(y.graph.handle, y.handle, t.handle, ax, n)), y.graph)


def _axes_op(fn):
    def f(x: Op, axes: Sequence[Axis]) -> Op:
        ax, n = _axes_arg(x.graph, axes)
        return Op(check_ptr(fn(x.graph.handle, x.handle, ax, n)), x.graph)

    return f


broadcast = _axes_op(lib.broadcast)
axes_with_order = transpose = _axes_op(lib.axes_with_order)
cast_axes = _axes_op(lib.cast_axes)
reshape = _axes_op(lib.reshape)  # row-major reinterpretation onto axes of the same element count


def expand_dims(x: Op, axis: Axis, position: int = 0) -> Op:
    return Op(check_ptr(lib.expand_dims(x.graph.handle, x.handle, axis.handle, position)), x.graph)


def pad(x: Op, before: Sequence[int], after: Sequence[int]) -> Op:
    """x padded with zeros: before[i] and after[i] elements around axis i."""
    n = len(before)
    b, a = (ctypes.c_int64 * n)(*before), (ctypes.c_int64 * len(after))(*after)
    if len(after) != n:
        raise ValueError("nanograph.pad: before and after differ in length")
    return Op(check_ptr(lib.pad(x.graph.handle, x.handle, b, a, n)), x.graph)


def flatten(x: Op, axes: Sequence[Axis], name: Optional[str] = None) -> Op:
    ax, n = _axes_arg(x.graph, axes)
    return Op(check_ptr(lib.flatten(x.graph.handle, x.handle, ax, n, None if name is None else name.encode())), x.graph)


def _ops(ops: Sequence[Op]):
    ops = list(ops)
    if not ops:
        raise ValueError("nanograph: at least one op is needed")
    return ops[0].graph, (ctypes.c_void_p * len(ops))(*[o.handle for o in ops]), len(ops)


def concat(ops: Sequence[Op], axis: Union[Axis, str]) -> Op:
    """Concatenates ops along the axis of that name."""
    g, arr, n = _ops(ops)
    name = axis.name if isinstance(axis, Axis) else axis
    return Op(check_ptr(lib.concat(g.handle, arr, n, name.encode())), g)


def stack(ops: Sequence[Op], axis: Axis, position: int = 0) -> Op:
    g, arr, n = _ops(ops)
    return Op(check_ptr(lib.stack(g.handle, arr, n, axis.handle, position)), g)


def one_hot(x: Op, axis: Axis, dtype: DTypeLike = float32) -> Op:
    return Op(check_ptr(lib.one_hot(x.graph.handle, x.handle, axis.handle, as_dtype(dtype).code)), x.graph)


def assign(lhs: Op, rhs: Operand) -> Op:
    """Writes rhs into lhs (a placeholder, persistent tensor or variable) when the op runs."""
    rhs = _op(rhs, lhs)
    return Op(check_ptr(lib.assign(lhs.graph.handle, lhs.handle, rhs.handle)), lhs.graph)


def sequential(ops: Sequence[Op]) -> Op:
    """Runs ops in order; the value is the last one's."""
    g, arr, n = _ops(ops)
    return Op(check_ptr(lib.sequential(g.handle, arr, n)), g)


def deriv(cost: Op, wrt: Op) -> Op:
    """d(cost)/d(wrt) for a scalar cost, with wrt's axes."""
    return Op(check_ptr(lib.deriv(cost.graph.handle, cost.handle, wrt.handle)), cost.graph)


def vjp(y: Op, error: Op, wrt: Op) -> Op:
    """The vector-Jacobian product: d(sum(error * y))/d(wrt)."""
    return Op(check_ptr(lib.vjp(y.graph.handle, y.handle, error.handle, wrt.handle)), y.graph)


def _listing(fn, op: Op) -> List[Op]:
    n = fn(op.handle, None, 0)
    if n < 0:
        raise_last()
    out = (ctypes.c_void_p * n)()
    fn(op.handle, out, n)
    return [Op(p, op.graph) for p in out]


def variables(op: Op) -> List[Op]:
    """The trainable variables op depends on, in the order they are first reached."""
    return _listing(lib.variables, op)


def placeholders(op: Op) -> List[Op]:
    """The placeholders op depends on, in the order they are first reached."""
    return _listing(lib.placeholders, op)


def _lr(cost: Op, learning_rate: Operand) -> Op:
    return learning_rate if isinstance(learning_rate, Op) else cost.graph.scalar(float(learning_rate), cost.dtype)


def sgd(cost: Op, learning_rate: Operand, momentum: float = 0.0, nesterov: bool = False, weight_decay: float = 0.0) -> Op:
    """One step of stochastic gradient descent over the trainable variables of cost, as an op
    whose value is the cost before the step. learning_rate: an op of rank 0 or a number."""
    opts = _capi.ng_sgd_options_t()
    check(lib.sgd_options_init(ctypes.byref(opts), ctypes.sizeof(opts)))
    opts.momentum, opts.nesterov, opts.weight_decay = momentum, int(nesterov), weight_decay
    lr = _lr(cost, learning_rate)
    return Op(check_ptr(lib.sgd(cost.graph.handle, cost.handle, lr.handle, ctypes.byref(opts))), cost.graph)


def adam(cost: Op, learning_rate: Operand, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8, weight_decay: float = 0.0) -> Op:
    """One step of Adam over the trainable variables of cost, as an op (value: the cost)."""
    opts = _capi.ng_adam_options_t()
    check(lib.adam_options_init(ctypes.byref(opts), ctypes.sizeof(opts)))
    opts.beta1, opts.beta2, opts.epsilon, opts.weight_decay = beta1, beta2, epsilon, weight_decay
    lr = _lr(cost, learning_rate)
    return Op(check_ptr(lib.adam(cost.graph.handle, cost.handle, lr.handle, ctypes.byref(opts))), cost.graph)


def _segment(fn):
    def f(x: Op, along: Axis, splits: Op, segments: Axis) -> Op:
        return Op(check_ptr(fn(x.graph.handle, x.handle, along.handle, splits.handle, segments.handle)), x.graph)

    f.__doc__ = ("Over each segment of the flat axis `along` (segment s: positions splits[s] to "
                 "splits[s+1]-1, splits int64); the result's first axis is `segments`.")
    return f


segment_sum = _segment(lib.segment_sum)
segment_mean = _segment(lib.segment_mean)
segment_max = _segment(lib.segment_max)
segment_min = _segment(lib.segment_min)
segment_softmax = _segment(lib.segment_softmax)
segment_log_softmax = _segment(lib.segment_log_softmax)


def segment_gather(y: Op, segments: Axis, splits: Op, along: Axis) -> Op:
    """Each segment's value repeated over its positions of the flat axis `along`."""
    return Op(check_ptr(lib.segment_gather(y.graph.handle, y.handle, segments.handle, splits.handle, along.handle)), y.graph)


def assign_slice(lhs: Op, key: Any, rhs: Operand) -> Op:
    """Writes rhs into lhs[key] (NumPy basic indexing) when the op runs."""
    specs = lhs._specs(key)
    rhs = _op(rhs, lhs)
    return Op(check_ptr(lib.assign_slice(lhs.graph.handle, lhs.handle, specs, len(specs), rhs.handle)), lhs.graph)


def fill(persistent: Op, value: float) -> Op:
    """Sets every element of an assignable tensor to value when the op runs."""
    return Op(check_ptr(lib.fill(persistent.graph.handle, persistent.handle, float(value))), persistent.graph)


def value_of(persistent: Op) -> Op:
    """The value of an assignable tensor at this op's position in the order of side effects."""
    return Op(check_ptr(lib.value_of(persistent.graph.handle, persistent.handle)), persistent.graph)
