"""The Python binding's op builders: nanograph/_ops.py (functions of ops, the graph taken from
the operands) and nanograph/_graph_builders.py (methods of Graph for the builders without an
operand). Errors raise the library's exception (check_ptr); the idioms (scalars promoted to
operands, an Axis or a list for axes, NumPy-style keys for slices) are the hand-written helpers
of _graph.py."""
from .common import BANNER, camel, check_table, doc_text, ordered, wrap

# Per builder: the Python name and aliases, parameter order, defaults, renames and conversions
# (an expression over the wrapper's own parameters).
TABLE = {
    "scalar": {"name": "_scalar"},
    "scalar_of": {"name": "_scalar_of"},
    "placeholder": {"defaults": {"axes": "()", "initial_value": "None"},
                    "convert": {"initial_value": "self._initial(initial_value, axes, dtype)"}},
    "variable": {"defaults": {"axes": "()", "initial_value": "None"},
                 "convert": {"initial_value": "self._initial(initial_value, axes, dtype)"}},
    "persistent_tensor": {"defaults": {"axes": "()", "initial_value": "None"},
                          "convert": {"initial_value": "self._initial(initial_value, axes, dtype)"}},
    "assignable_tensor": {"defaults": {"initial_value": "None"},
                          "convert": {"initial_value": "self._initial(initial_value, axes, dtype)"}},
    "initializer_uniform": {"name": "uniform", "order": ["axes", "low", "high", "seed", "dt"],
                            "defaults": {"seed": "0", "dt": "float32"}},
    "initializer_normal": {"name": "normal", "order": ["axes", "mean", "stddev", "seed", "dt"],
                           "defaults": {"mean": "0.0", "stddev": "1.0", "seed": "0",
                                        "dt": "float32"}},
    "initializer_glorot_uniform": {"name": "glorot_uniform",
                                   "order": ["axes", "fan_in_axes", "seed", "dt"],
                                   "rename": {"fan_in_axes": "fan_in"},
                                   "defaults": {"seed": "0", "dt": "float32"}},
    "initializer_he_normal": {"name": "he_normal", "order": ["axes", "fan_in_axes", "seed", "dt"],
                              "rename": {"fan_in_axes": "fan_in"},
                              "defaults": {"seed": "0", "dt": "float32"}},
    "uniform": {"name": "random_uniform", "order": ["axes", "low", "high", "dt"],
                "defaults": {"axes": "()", "low": "0.0", "high": "1.0", "dt": "float32"}},
    "normal": {"name": "random_normal", "order": ["axes", "mean", "stddev", "dt"],
               "defaults": {"axes": "()", "mean": "0.0", "stddev": "1.0", "dt": "float32"}},
    "absolute": {"aliases": ["abs_"]},
    "variance": {"aliases": ["var"]},
    "axes_with_order": {"aliases": ["transpose"]},
    "select": {"aliases": ["where"]},
    "expand_dims": {"defaults": {"position": "0"}},
    "stack": {"defaults": {"position": "0"}},
    "one_hot": {"defaults": {"dt": "float32"}},
    "flatten": {"defaults": {"name": "None"}},
    "concat": {"rename": {"axis_name": "axis"}},
    "slice": {"skip": "NumPy basic indexing: Op.__getitem__ (x[1:3, ::2])"},
    "assign_slice": {"rename": {"specs": "key"}},
}
RENAME = {"dt": "dtype"}  # every builder
HINTS = {"op": "Operand", "ops": "Sequence[Op]", "axis": "Axis", "axes": "AxesArg",
         "int64s": "Sequence[int]", "slices": "Any", "dtype": "DTypeLike", "double": "float",
         "int32": "int", "uint32": "int", "uint64": "int", "str": "Union[str, Axis]"}


def pname(entry, p):
    return entry.get("rename", {}).get(p.name, RENAME.get(p.name, p.name))


def is_method(b):
    """Builders without a required operand are methods of Graph."""
    return not any(p.kind in ("op", "ops") and not p.optional for p in b.params)


def signature(b, entry, method):
    params = ordered(b, entry)
    defaults = entry.get("defaults", {})
    # Axes last among an op's parameters, whose count documents what 0 means ("0 reduces every
    # axis"), may be left out.
    last = params[-1] if params else None
    if not method and last and last.kind == "axes" and "; 0 " in last.count_doc \
            and last.name not in defaults:
        defaults = dict(defaults, **{last.name: "None"})
    parts = ["self"] if method else []
    for p in params:
        hint = HINTS[p.kind]
        if p.optional:
            hint = "Optional[%s]" % (hint if p.kind == "str" else "Any")
        text = "%s: %s" % (pname(entry, p), hint)
        if p.name in defaults:
            text += " = " + defaults[p.name]
        parts.append(text)
    return parts


def body(b, entry, method):
    lines = []
    conv = {}
    ops = [p for p in b.params if p.kind == "op" and not p.optional]
    g = "self" if method else "g"
    if ops:
        names = ", ".join(pname(entry, p) for p in ops)
        lines.append("g, (%s%s) = _operands(%s)" % (names, "," if len(ops) == 1 else "", names))
    lists = [p for p in b.params if p.kind == "ops"]
    for p in lists:
        n = pname(entry, p)
        graph = "g" if not ops and p is lists[0] else "_"
        lines.append("%s, %s_arr, %s_n = _op_list(%s)" % (graph, n, n, n))
        conv[p.name] = "%s_arr" % n
    counted = {}
    for p in b.params:
        n = pname(entry, p)
        if p.name in entry.get("convert", {}):
            conv[p.name] = entry["convert"][p.name]
        elif p.kind == "op":
            conv[p.name] = "%s.handle" % n if not p.optional else \
                "None if %s is None else _operands(%s)[1][0].handle" % (n, n)
        elif p.kind == "axis":
            conv[p.name] = "_axis_handle(%s)" % n
        elif p.kind == "axes":
            if method:
                lines.append("%s_arr, %s_n = self._axes_arg(%s)" % (n, n, n))
            else:
                lines.append("%s_arr, %s_n = _axes_arg(g, %s)" % (n, n, n))
            conv[p.name] = "%s_arr" % n
            counted[p.count] = "%s_n" % n
        elif p.kind == "slices":
            owner = pname(entry, ops[0])
            lines.append("%s_arr = %s._specs(%s)" % (n, owner, n))
            conv[p.name] = "%s_arr" % n
            counted[p.count] = "len(%s_arr)" % n
        elif p.kind == "dtype":
            conv[p.name] = "as_dtype(%s).code" % n
        elif p.kind == "double":
            conv[p.name] = "float(%s)" % n
        elif p.kind in ("int32", "uint32", "uint64"):
            conv[p.name] = "int(%s)" % n
        elif p.kind == "str":
            conv[p.name] = "_c_str(%s)" % n
    for group in b.list_groups():
        if group[0].kind != "int64s":
            continue
        names = [pname(entry, p) for p in group]
        lines.append("(%s), %s_n = _int64_lists(%r, %s)" % (
            ", ".join(n + "_arr" for n in names), names[0], b.name, ", ".join(names)))
        for p, n in zip(group, names):
            conv[p.name] = n + "_arr"
        counted[group[0].count] = names[0] + "_n"
    for p in b.params:
        if p.kind == "ops":
            counted[p.count] = "%s_n" % pname(entry, p)
    args = ["%s.handle" % g]
    for what, x in b.c_args:
        args.append(conv[x.name] if what == "param" else counted[x[0].count])
    call = "lib.%s(%s)" % (b.name, ", ".join(args))
    if method:
        lines.append("return self._new_op(%s)" % call)
    else:
        lines.append("return Op(check_ptr(%s), g)" % call)
    return lines


def render_function(b, entry, method):
    name = entry.get("name", b.name)
    indent = "    " if method else ""
    out = []
    head = "%sdef %s(%s) -> Op:" % (indent, name, ", ".join(signature(b, entry, method)))
    out.append(head)
    doc = wrap(doc_text(b.brief), 94 - len(indent))
    inner = indent + "    "
    if len(doc) == 1:
        out.append('%s"""%s"""' % (inner, doc[0]))
    else:
        out.append('%s"""%s' % (inner, doc[0]))
        out.extend(inner + l for l in doc[1:])
        out.append(inner + '"""')
    out.extend(inner + l for l in body(b, entry, method))
    return out


HEAD = '''"""{what}

{banner}
"""
# fmt: off
# flake8: noqa
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ._lib import lib
from ._tensor import DTypeLike, as_dtype, float32
'''


def render(builders):
    check_table("Python", TABLE, builders)
    funcs, methods, names = [], [], []
    for b in builders:
        entry = TABLE.get(b.name, {})
        if "skip" in entry:
            continue
        if is_method(b):
            methods.append(render_function(b, entry, True))
        else:
            funcs.append(render_function(b, entry, False))
            names.append(entry.get("name", b.name))
            for alias in entry.get("aliases", ()):
                funcs.append(["%s = %s" % (alias, entry.get("name", b.name))])
                names.append(alias)
    banner = "\n".join(wrap(BANNER, 96))
    ops = HEAD.format(what="The op builders that take operands, as functions: the graph is the operands'.",
                      banner=banner)
    ops += "\nfrom ._errors import check_ptr\n"
    ops += "from ._graph import (AxesArg, Axis, Op, Operand, _axes_arg, _axis_handle, _c_str, " \
           "_int64_lists,\n                     _op_list, _operands)\n"
    ops += "\n__all__ = [\n%s\n]\n" % "\n".join(
        "    " + line for line in wrap(" ".join("%r," % n for n in names), 96))
    for f in funcs:
        ops += "\n\n" + "\n".join(f) + "\n"
    graph = HEAD.format(what="The op builders without an operand, as methods of Graph.",
                        banner=banner)
    graph += "\nif TYPE_CHECKING:\n    from ._graph import AxesArg, Axis, Op\n"
    graph += "\n\nclass GraphBuilders:\n    \"\"\"The methods of Graph that build ops.\"\"\"\n"
    for m in methods:
        graph += "\n" + "\n".join(m) + "\n"
    return {"python/nanograph/_ops.py": ops, "python/nanograph/_graph_builders.py": graph}
