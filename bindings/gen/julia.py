"""The Julia binding's op builders: src/ops_generated.jl, a function per builder (methods of
Base's functions where Julia has one: `+`, `exp`, `max`, ...). Errors throw NanographError
(newop); handles and idioms (lifting numbers to ops, slice specs) are written by hand in
Nanograph.jl. Julia is not run in CI: this file is checked to be current, not executed."""
from .common import BANNER, check_table, doc_text, ordered, wrap

BASE = {"negative": "Base.:-", "absolute": "Base.abs", "reciprocal": "Base.inv",
        "add": "Base.:+", "subtract": "Base.:-", "multiply": "Base.:*", "divide": "Base.:/",
        "power": "Base.:^", "maximum": "Base.max", "minimum": "Base.min",
        "equal": "Base.:(==)", "not_equal": "Base.:(!=)", "less": "Base.:<",
        "less_equal": "Base.:<=", "greater": "Base.:>", "greater_equal": "Base.:>="}
for f in ("sign", "exp", "log", "sqrt", "sin", "cos", "tanh"):
    BASE[f] = "Base." + f
TABLE = {name: {"name": julia} for name, julia in BASE.items()}
for f in ("sum", "max", "min", "mean", "prod", "variance", "squared_l2", "l2_norm", "l1_norm",
          "broadcast", "axes_with_order", "cast_axes", "reshape", "argmax", "argmin", "fill",
          "dot"):
    TABLE[f] = {"name": f + "_op"}  # Base's name with other meanings: the binding's own
TABLE.update({
    "initializer_uniform": {"name": "uniform", "defaults": {"seed": "0"}},
    "initializer_normal": {"name": "normal", "defaults": {"seed": "0"}},
    "initializer_glorot_uniform": {"name": "glorot_uniform", "rename": {"fan_in_axes": "fan_in"},
                                   "defaults": {"seed": "0"}},
    "initializer_he_normal": {"name": "he_normal", "rename": {"fan_in_axes": "fan_in"},
                              "defaults": {"seed": "0"}},
    "uniform": {"name": "random_uniform"},
    "normal": {"name": "random_normal"},
    "stack": {"defaults": {"position": "0"}},
    "flatten": {"defaults": {"name": '""'}},
    "one_hot": {"defaults": {"dt": "Float32"}},
    "scalar_of": {"name": "scalar"},
})
RENAME = {"initial_value": "initial", "error": "err"}
TYPES = {"op": "Op", "ops": "Vector{Op}", "axis": "Axis", "axes": "Vector{Axis}",
         "int64s": "AbstractVector{<:Integer}", "slices": "Vector", "double": "Real",
         "int32": "Integer", "uint32": "Integer", "uint64": "Integer", "str": "AbstractString"}


def pname(entry, p):
    return entry.get("rename", {}).get(p.name, RENAME.get(p.name, p.name))


def render_function(b, entry):
    name = entry.get("name", b.name)
    params = ordered(b, entry)
    defaults = dict(entry.get("defaults", {}))
    if params and params[-1].kind == "axes" and params[0].kind in ("op", "ops"):
        defaults.setdefault(params[-1].name, "Axis[]")
    for p in params:
        if p.optional and p.kind == "op":
            defaults.setdefault(p.name, "nothing")
    first = params[0] if params else None
    creation = not any(p.kind in ("op", "ops") and not p.optional for p in b.params)
    sig, where = (["g::Graph"] if creation else []), ""
    for p in params:
        n = pname(entry, p)
        if p.kind == "dtype":
            t = "::Type{E}"
            where = " where {E}"
            text = t + ("=" + defaults[p.name] if p.name in defaults else "")
        else:
            t = "Union{Op,Nothing}" if (p.optional and p.kind == "op") else TYPES[p.kind]
            text = "%s::%s" % (n, t) + ("=" + defaults[p.name] if p.name in defaults else "")
        sig.append(text)
    if creation:
        graph = "g"
    elif first.kind == "ops":
        graph = "%s[1].graph" % pname(entry, first)
    else:
        graph = "%s.graph" % pname(entry, next(p for p in params if p.kind == "op"))
    conv, counts = {}, {}
    for p in b.params:
        n = pname(entry, p)
        if p.kind == "op":
            conv[p.name] = ("%s === nothing ? C_NULL : handle(%s)" % (n, n)) if p.optional \
                else "handle(%s)" % n
        elif p.kind == "ops":
            conv[p.name] = "Ptr{Cvoid}[handle(o) for o in %s]" % n
            counts[p.count] = "Int32(length(%s))" % n
        elif p.kind == "axis":
            conv[p.name] = "axis_handle(%s)" % n
        elif p.kind == "axes":
            conv[p.name] = "axes_array(%s)" % n
            counts[p.count] = "Int32(length(%s))" % n
        elif p.kind == "slices":
            conv[p.name] = "slice_specs(%s)" % n
            counts[p.count] = "Int32(length(%s))" % n
        elif p.kind == "int64s":
            conv[p.name] = "Vector{Int64}(%s)" % n
            counts.setdefault(p.count, "Int32(length(%s))" % n)
        elif p.kind == "dtype":
            conv[p.name] = "dtype(E)"
        elif p.kind == "double":
            conv[p.name] = "Float64(%s)" % n
        elif p.kind == "int32":
            conv[p.name] = "Int32(%s)" % n
        elif p.kind == "uint32":
            conv[p.name] = "UInt32(%s)" % n
        elif p.kind == "uint64":
            conv[p.name] = "UInt64(%s)" % n
        elif p.kind == "str":
            conv[p.name] = n
    args = ["handle(%s)" % graph]
    for what, x in b.c_args:
        args.append(conv[x.name] if what == "param" else counts[x[0].count])
    out = ['"""']
    out += wrap(doc_text(b.brief).replace("$", "\\$"), 96)
    out += ["", "Wraps `%s`." % b.cname, '"""']
    out.append("function %s(%s)%s" % (name, ", ".join(sig), where))
    for group in b.list_groups():
        names = [pname(entry, p) for p in group]
        out.append("    same_lengths(\"%s\", %s)" % (name, ", ".join(names)))
    out.append("    newop(%s, CAPI.%s(%s))" % (graph, b.name, ", ".join(args)))
    out.append("end")
    return out


def render(builders):
    check_table("Julia", TABLE, builders)
    out = ["# %s" % l for l in wrap(BANNER, 96)]
    for b in builders:
        out.append("")
        out.extend(render_function(b, TABLE.get(b.name, {})))
    return {"julia/src/ops_generated.jl": "\n".join(out) + "\n"}
