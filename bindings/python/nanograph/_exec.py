"""Transformers and computations: compiling graphs and running them on NumPy arrays."""
from __future__ import annotations

import ctypes
import os
import weakref
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._errors import ClosedError, check, check_ptr, raise_last
from ._graph import Graph, Op
from ._lib import lib
from ._tensor import DType, Tensor, as_tensor, borrow_numpy, dtype_from_code, view_array


class Transformer:
    """Holds persistent values (variables, state) and compiles computations.

    Close it with close() or a `with` block, or leave it to the garbage collector; computations
    made on it keep working after it is closed.
    """

    def __init__(self, backend: Optional[str] = None, num_threads: Optional[int] = None) -> None:
        self._h = check_ptr(lib.transformer_create(None if backend is None else backend.encode()))
        self._finalizer = weakref.finalize(self, lib.transformer_destroy, self._h)
        if num_threads is not None:
            self.num_threads = num_threads

    @property
    def handle(self) -> int:
        if not self._h:
            raise ClosedError("nanograph: the transformer is closed")
        return self._h

    def close(self) -> None:
        self._h = None
        self._finalizer()

    def __enter__(self) -> "Transformer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def num_threads(self) -> int:
        """Threads the kernels use, the caller's included (set 0 for one per core)."""
        return int(lib.transformer_num_threads(self.handle))

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        check(lib.transformer_set_num_threads(self.handle, int(n)))

    def seed(self, seed: int) -> None:
        """Seeds the generator that random_uniform/random_normal ops draw from and restarts its
        count of draws: the runs that follow draw the same values as after any other seed(seed).
        A new transformer has seed 0."""
        check(lib.transformer_set_seed(self.handle, int(seed) & 0xFFFFFFFFFFFFFFFF))

    def set_allocator(self, allocate: Any = None, deallocate: Any = None, ctx: Optional[int] = None) -> None:
        """Gives this transformer its own allocator for the large blocks it and its computations
        make from now on (persistent values, arenas of computations created after the call, run
        outputs): C functions as for ng.set_allocator, which see. set_allocator() goes back to
        the process-wide allocator. Blocks made before stay with the allocator that made them;
        the binding keeps the functions referenced for the rest of the process."""
        from ._alloc import allocator

        if allocate is None and deallocate is None:
            check(lib.transformer_set_allocator(self.handle, None))
            return
        check(lib.transformer_set_allocator(self.handle, ctypes.byref(allocator(allocate, deallocate, ctx))))

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Saves every persistent value this transformer knows (variables, optimizer state) and
        its random generator's state to a checkpoint file, replacing it atomically."""
        check(lib.transformer_save(self.handle, os.fsencode(path)))

    def load(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Replaces the persistent values and the random generator's state with a checkpoint's
        (all or nothing). Create the computations whose values it holds first: the transformer
        finds each value by its op's name, dtype and axes."""
        check(lib.transformer_load(self.handle, os.fsencode(path)))

    def export_onnx(self, results: Union[Op, Sequence[Op]], params: Union[Op, Sequence[Op]] = (),
                    path: Optional[str] = None) -> Optional[bytes]:
        """As ng.export_onnx, with the values this transformer holds for variables and persistent
        tensors (a trained network): bytes, or written to `path`."""
        from ._onnx import export_onnx

        return export_onnx(results, params, path, transformer=self)

    def computation(self, results: Union[Op, Sequence[Op]], params: Union[Op, Sequence[Op]] = ()) -> "Computation":
        """Compiles a computation: calling it with one array per parameter returns the results'
        values (one array, or a tuple when `results` is a list)."""
        single = isinstance(results, Op)
        res = [results] if single else list(results)  # type: ignore[list-item]
        par = [params] if isinstance(params, Op) else list(params)  # type: ignore[list-item]
        r = (ctypes.c_void_p * len(res))(*[o.handle for o in res])
        p = (ctypes.c_void_p * len(par))(*[o.handle for o in par])
        h = check_ptr(lib.computation_create(self.handle, r, len(res), p, len(par)))
        graphs = list({id(o.graph): o.graph for o in res + par}.values())
        return Computation(h, self, graphs, [o.dtype for o in par], single)

    def get_value(self, op: Op) -> np.ndarray:
        """A copy of a persistent tensor's value."""
        out = ctypes.c_void_p()
        check(lib.transformer_get_value(self.handle, op.handle, ctypes.byref(out)))
        return Tensor._adopt(out.value).numpy()

    def set_value(self, op: Op, value: Any) -> None:
        """Sets a persistent tensor's value (copied; converted to its dtype)."""
        arr = np.asarray(value, op.dtype.numpy)
        t = borrow_numpy(arr)
        try:
            check(lib.transformer_set_value(self.handle, op.handle, t))
        finally:
            lib.tensor_release(t)


class Signature(NamedTuple):
    """A parameter or result of a computation: its name, dtype and axes (name, length) in the
    order of an array's dimensions."""

    name: str
    dtype: DType
    axes: Tuple[Tuple[str, int], ...]

    @property
    def shape(self) -> Tuple[int, ...]:
        """The dimensions an array for it has."""
        return tuple(length for _, length in self.axes)


def _describe(c: int, i: int, name, dtype, rank, axis_name, axis_length) -> Signature:
    n = name(c, i)
    if n is None:
        raise_last()
    code = dtype(c, i)
    if code == 0:
        raise_last()
    r = rank(c, i)
    if r < 0:
        raise_last()
    axes = []
    for k in range(r):
        an, al = axis_name(c, i, k), axis_length(c, i, k)
        if an is None or al < 0:
            raise_last()
        axes.append((an.decode("utf-8", "replace"), int(al)))
    return Signature(n.decode("utf-8", "replace"), dtype_from_code(code), tuple(axes))


def _destroy_computation(handle: int, graphs: List[Graph]) -> None:
    lib.computation_destroy(handle)
    for g in graphs:
        g._release_user()


class Computation:
    """A compiled computation. Call it with NumPy arrays (or Tensors, or DLPack producers)."""

    def __init__(self, handle: int, transformer: Transformer, graphs: List[Graph],
                 param_dtypes: List[Any], single: bool) -> None:
        self._h = handle
        for g in graphs:
            g._users += 1
        self._finalizer = weakref.finalize(self, _destroy_computation, handle, graphs)
        self.transformer = transformer  # for the user's convenience; the C side needs no parent
        self._single = single
        # What every run needs, asked once: a run from Python costs microseconds, so each call
        # to the library and each ctypes type made per run shows.
        self._num_params = len(param_dtypes)
        self._num_results = int(lib.computation_num_results(handle))
        self._param_numpy = [d.numpy for d in param_dtypes]
        self._param_codes = [d.code for d in param_dtypes]
        self._inputs_type = ctypes.c_void_p * max(self._num_params, 1)
        self._outputs_type = ctypes.c_void_p * max(self._num_results, 1)
        self._result_layouts: Optional[List[Tuple[DType, Tuple[int, ...], None]]] = None

    @property
    def handle(self) -> int:
        if not self._h:
            raise ClosedError("nanograph: the computation is closed")
        return self._h

    def close(self) -> None:
        self._h = None
        self._finalizer()

    def __enter__(self) -> "Computation":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def num_params(self) -> int:
        return int(lib.computation_num_params(self.handle))

    @property
    def num_results(self) -> int:
        return int(lib.computation_num_results(self.handle))

    def param(self, i: int) -> Signature:
        """Parameter i: what its input must be (name, dtype, axes in the order of its dims)."""
        return _describe(self.handle, int(i), lib.computation_param_name, lib.computation_param_dtype,
                         lib.computation_param_rank, lib.computation_param_axis_name,
                         lib.computation_param_axis_length)

    def result(self, i: int) -> Signature:
        """Result i: what a run returns there (name, dtype, axes)."""
        return _describe(self.handle, int(i), lib.computation_result_name, lib.computation_result_dtype,
                         lib.computation_result_rank, lib.computation_result_axis_name,
                         lib.computation_result_axis_length)

    @property
    def params(self) -> List[Signature]:
        """Every parameter's Signature, in order."""
        return [self.param(i) for i in range(self.num_params)]

    @property
    def results(self) -> List[Signature]:
        """Every result's Signature, in order."""
        return [self.result(i) for i in range(self.num_results)]

    def stats(self) -> Dict[str, int]:
        """Figures of the compiled plan (arena bytes, kernels, nodes...)."""
        from . import _capi

        s = _capi.ng_computation_stats_t()
        for name, _ in getattr(s, "_fields_", []):
            if name == "struct_size":
                s.struct_size = ctypes.sizeof(s)
        check(lib.computation_stats(self.handle, ctypes.byref(s)))
        return {name: getattr(s, name) for name, _ in s._fields_ if name != "struct_size"}

    def run(self, inputs: Sequence[Any] = (), outputs: Optional[Sequence[Optional[Tensor]]] = None) -> List[Tensor]:
        """Runs once. inputs: one value per parameter (arrays are lent without copying).
        outputs: None, or one Tensor per result to write in place (None slots get new tensors).
        Returns the result tensors."""
        h = self.handle
        n_in, n_out = len(inputs), self._num_results
        given = list(outputs) if outputs is not None else None
        n_given = n_out if given is None else len(given)
        ins = (self._inputs_type if n_in <= self._num_params else ctypes.c_void_p * n_in)()
        outs = (self._outputs_type if n_given <= n_out else ctypes.c_void_p * n_given)()
        handles: List[int] = []
        keep: List[Any] = []  # conversions made here, alive until the run ends
        try:
            for i, v in enumerate(inputs):
                known = i < self._num_params
                dt = self._param_numpy[i] if known else None
                if type(v) is np.ndarray and (dt is None or v.dtype == dt):
                    t = borrow_numpy(v, self._param_codes[i] if known else 0)
                elif isinstance(v, Tensor):
                    t = v.handle
                    lib.tensor_retain(t)
                elif hasattr(v, "__dlpack__") and not isinstance(v, np.ndarray):
                    tensor = as_tensor(v)
                    keep.append(tensor)
                    t = tensor.handle
                    lib.tensor_retain(t)
                else:
                    arr = np.asarray(v, dt)
                    keep.append(arr)
                    t = borrow_numpy(arr)
                handles.append(t)
                ins[i] = t
            if given is not None:
                for i, o in enumerate(given):
                    outs[i] = None if o is None else o.handle
            check(lib.computation_run(h, ins, n_in, outs, n_given))
            if given is None:
                return [Tensor._adopt(outs[i]) for i in range(n_out)]
            return [given[i] if given[i] is not None else Tensor._adopt(outs[i]) for i in range(n_out)]
        finally:
            for t in handles:
                lib.tensor_release(t)

    def __call__(self, *inputs: Any) -> Any:
        """Runs once on arrays; returns NumPy arrays that share the result tensors' memory."""
        layouts = self._result_layouts
        if layouts is None:
            # A new result tensor is row-major with the result's dims, so its view needs no calls.
            layouts = self._result_layouts = [_row_major(r) for r in self.results]
        arrays = tuple([view_array(t._h, *layout) for t, layout in zip(self.run(inputs), layouts)])
        return arrays[0] if self._single else arrays


def _row_major(result: Signature) -> Tuple[DType, Tuple[int, ...], None]:
    """The dtype and dims of a new tensor for `result`; no strides: NumPy's for row-major."""
    return result.dtype, result.shape, None
