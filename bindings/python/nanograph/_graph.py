"""Graphs, named axes and ops, with Python operators."""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _capi
from ._errors import ClosedError, check, check_ptr, raise_last
from ._graph_builders import GraphBuilders
from ._lib import lib
from ._tensor import DType, DTypeLike, as_dtype, dtype_from_code, float32

#: Flags of assignable tensors (Op.flags is their union).
CONSTANT = _capi.NG_FLAG_CONSTANT
PERSISTENT = _capi.NG_FLAG_PERSISTENT
TRAINABLE = _capi.NG_FLAG_TRAINABLE
INPUT = _capi.NG_FLAG_INPUT


def _s(b: Optional[bytes]) -> str:
    return "" if b is None else b.decode("utf-8", "replace")


class Graph(GraphBuilders):
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
        return self._scalar(value) if dt == float32 else self._scalar_of(dt, value)

    # ---- what the generated builders (GraphBuilders) call ------------------------------------

    def _new_op(self, handle: Optional[int]) -> "Op":
        return Op(check_ptr(handle), self)

    def _axes_arg(self, axes: "AxesArg"):
        return _axes_arg(self, axes)

    def _initial(self, initial_value: Any, axes: "AxesArg", dtype: DTypeLike) -> Optional[int]:
        """The handle of an initial value: an op, or a value made a constant of axes and dtype."""
        if initial_value is None:
            return None
        if not isinstance(initial_value, Op):
            initial_value = self.constant(initial_value, _axes_list(axes), dtype)
        return initial_value.handle

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
    def __neg__(self): return _ops.negative(self)
    def __pos__(self): return self
    def __abs__(self): return _ops.absolute(self)

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

    def sum(self, axes=None): return _ops.sum(self, axes)
    def mean(self, axes=None): return _ops.mean(self, axes)
    def max(self, axes=None): return _ops.max(self, axes)
    def min(self, axes=None): return _ops.min(self, axes)
    def astype(self, dtype: DTypeLike): return _ops.cast(self, dtype)


# ---- what the generated builders (_ops.py) call ---------------------------------------------

AxesArg = Union[None, Axis, Sequence[Axis]]


def _operands(*xs: Any) -> Tuple[Graph, List[Op]]:
    """The graph of the first Op among xs, and xs as Ops: a Python or NumPy number becomes a
    constant of the dtype of the nearest other Op (the one after it when two are as near), so
    `ng.add(x, 1)` and `ng.select(c, 0.0, y)` work."""
    ops = [i for i, x in enumerate(xs) if isinstance(x, Op)]
    if not ops:
        raise TypeError("nanograph: expected an Op among %r" % (xs,))
    out = []
    for i, x in enumerate(xs):
        if not isinstance(x, Op):
            like = xs[min(ops, key=lambda j: (abs(j - i), -j))]
            x = like._other(x)
            if x is NotImplemented:
                raise TypeError("nanograph: expected an Op or a number, got %r" % (xs[i],))
        out.append(x)
    return xs[ops[0]].graph, out


def _op_list(ops: Sequence[Op]):
    """The graph of the first op, the ops' handles as a C array, and their count."""
    ops = list(ops)
    if not ops:
        raise ValueError("nanograph: at least one op is needed")
    for o in ops:
        if not isinstance(o, Op):
            raise TypeError("nanograph: expected an Op, got %r" % (o,))
    return ops[0].graph, (ctypes.c_void_p * len(ops))(*[o.handle for o in ops]), len(ops)


def _axes_list(axes: AxesArg) -> List[Axis]:
    if axes is None:
        return []
    if isinstance(axes, Axis):
        return [axes]
    return list(axes)


def _axes_arg(g: Graph, axes: AxesArg):
    """Axes given as None (none), an Axis or a sequence of them, as a C array and its count."""
    return g._axes(_axes_list(axes))


def _axis_handle(axis: Axis) -> int:
    if not isinstance(axis, Axis):
        raise TypeError("nanograph: expected an Axis, got %r" % (axis,))
    return axis.handle


def _c_str(s: Union[None, str, Axis]) -> Optional[bytes]:
    """A name as C text: an Axis stands for its name; None stays NULL."""
    if s is None:
        return None
    return (s.name if isinstance(s, Axis) else str(s)).encode()


def _int64_lists(fn: str, *lists: Sequence[int]):
    """Lists of one length as C int64 arrays, and that length."""
    n = len(lists[0])
    if any(len(x) != n for x in lists):
        raise ValueError("nanograph.%s: lists of lengths %s, not one length" % (fn, [len(x) for x in lists]))
    return tuple((ctypes.c_int64 * n)(*[int(v) for v in x]) for x in lists), n


# ---- written by hand: listings, training steps ---------------------------------------------


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


from . import _ops  # noqa: E402  (the generated builders use the helpers above)
