"""Transformers and computations: compiling graphs and running them on NumPy arrays."""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._errors import ClosedError, check, check_ptr
from ._graph import Graph, Op
from ._lib import lib
from ._tensor import Tensor, as_tensor, borrow_numpy


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
        self._param_dtypes = param_dtypes
        self._single = single

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
        n_in, n_out = len(inputs), lib.computation_num_results(h)
        handles: List[int] = []
        keep: List[Any] = []
        try:
            for i, v in enumerate(inputs):
                if isinstance(v, Tensor):
                    lib.tensor_retain(v.handle)
                    handles.append(v.handle)
                    continue
                dt = self._param_dtypes[i] if i < len(self._param_dtypes) else None
                if hasattr(v, "__dlpack__") and not isinstance(v, np.ndarray):
                    t = as_tensor(v)
                    keep.append(t)
                    lib.tensor_retain(t.handle)
                    handles.append(t.handle)
                    continue
                arr = np.asarray(v, None if dt is None else dt.numpy)
                keep.append(arr)
                handles.append(borrow_numpy(arr))
            ins = (ctypes.c_void_p * max(n_in, 1))(*handles)
            outs = (ctypes.c_void_p * max(n_out, 1))()
            given = list(outputs) if outputs is not None else [None] * n_out
            for i, o in enumerate(given[:n_out]):
                outs[i] = o.handle if o is not None else None
            check(lib.computation_run(h, ins, n_in, outs, len(given)))
            return [given[i] if given[i] is not None else Tensor._adopt(outs[i]) for i in range(n_out)]
        finally:
            for t in handles:
                lib.tensor_release(t)

    def __call__(self, *inputs: Any) -> Any:
        """Runs once on arrays; returns NumPy arrays that share the result tensors' memory."""
        arrays = tuple(t.numpy() for t in self.run(inputs))
        return arrays[0] if self._single else arrays
