"""The Go binding's op builders: ops_generated.go, a method of *Graph per builder returning
(*Op, error). An op's handle is checked first (a closed graph or a nil op is an error before
the call); the helpers (opsArray, axesArray, sliceSpecs, ...) are the hand-written ones of the
package. A single list among an op's operands comes last, variadic (g.Sum(x, N, C))."""
from .common import BANNER, camel, check_table, doc_text, ordered, wrap

TABLE = {
    "initializer_uniform": {"name": "Uniform"},
    "initializer_normal": {"name": "Normal"},
    "initializer_glorot_uniform": {"name": "GlorotUniform", "rename": {"fan_in_axes": "fanIn"}},
    "initializer_he_normal": {"name": "HeNormal", "rename": {"fan_in_axes": "fanIn"}},
    "uniform": {"name": "RandomUniform"},
    "normal": {"name": "RandomNormal"},
    "assign_slice": {"variadic": False},
    "vjp": {"rename": {"error": "errorOp"}},
}
RENAME = {"initial_value": "initial"}
TYPES = {"op": "*Op", "ops": "*Op", "axis": "*Axis", "axes": "*Axis", "int64s": "int64",
         "slices": "SliceSpec", "dtype": "DType", "double": "float64", "int32": "int",
         "uint32": "uint32", "uint64": "uint64", "str": "string"}


def pname(entry, p):
    name = entry.get("rename", {}).get(p.name, RENAME.get(p.name, p.name))
    return name[:1] + camel(name)[1:]


def signature(b, entry):
    params = ordered(b, entry)
    lists = [p for p in params if p.is_list]
    variadic = None
    if len(lists) == 1 and params[0].kind in ("op", "ops") and entry.get("variadic", True):
        variadic = lists[0]
        params = [p for p in params if p is not variadic] + [variadic]
    parts = []
    for p in params:
        t = TYPES[p.kind]
        if p is variadic:
            t = "..." + t
        elif p.is_list:
            t = "[]" + t
        parts.append((pname(entry, p), t))
    # Consecutive parameters of one type share it (gofmt keeps what it is given; this is Go's
    # usual spelling).
    text, i = [], 0
    while i < len(parts):
        j = i
        while j + 1 < len(parts) and parts[j + 1][1] == parts[i][1] and not parts[i][1].startswith("..."):
            j += 1
        text.append(", ".join(n for n, _ in parts[i:j + 1]) + " " + parts[i][1])
        i = j + 1
    return ", ".join(text)


ERR = ["\tif err != nil {", "\t\treturn nil, err", "\t}"]


def body(b, entry, gofunc):
    lines, conv, counts = [], {}, {}
    for p in b.params:
        n = pname(entry, p)
        if p.kind == "op":
            fn = "optionalHandle(%s)" % n if p.optional else "%s.handle()" % n
            lines.append("\t%sH, err := %s" % (n, fn))
            lines.extend(ERR)
            conv[p.name] = n + "H"
        elif p.kind == "ops":
            lines.append("\t%sH, err := opsArray(%s)" % (n, n))
            lines.extend(ERR)
            conv[p.name] = "opsPtr(%sH)" % n
            counts[p.count] = "C.int32_t(len(%sH))" % n
        elif p.kind == "axis":
            lines.append("\t%sH, err := %s.handle()" % (n, n))
            lines.extend(ERR)
            conv[p.name] = n + "H"
        elif p.kind == "axes":
            lines.append("\t%sH, err := axesArray(%s)" % (n, n))
            lines.extend(ERR)
            conv[p.name] = "axesPtr(%sH)" % n
            counts[p.count] = "C.int32_t(len(%sH))" % n
        elif p.kind == "slices":
            lines.append("\t%sC := sliceSpecs(%s)" % (n, n))
            conv[p.name] = "&%sC[0]" % n
            counts[p.count] = "C.int32_t(len(%s))" % n
        elif p.kind == "int64s":
            conv[p.name] = "int64s(%s)" % n
            counts.setdefault(p.count, "C.int32_t(len(%s))" % n)
        elif p.kind == "dtype":
            conv[p.name] = "C.ng_dtype_t(%s)" % n
        elif p.kind == "double":
            conv[p.name] = "C.double(%s)" % n
        elif p.kind == "int32":
            conv[p.name] = "C.int32_t(%s)" % n
        elif p.kind == "uint32":
            conv[p.name] = "C.uint32_t(%s)" % n
        elif p.kind == "uint64":
            conv[p.name] = "C.uint64_t(%s)" % n
        elif p.kind == "str":
            lines.append("\t%sC := cstr(%s)" % (n, n))
            lines.append("\tdefer free(%sC)" % n)
            conv[p.name] = n + "C"
    for group in b.list_groups():
        names = [pname(entry, p) for p in group]
        lines.append("\tif err := sameLengths(%s, %s); err != nil {" % (
            '"%s"' % gofunc, ", ".join(names)))
        lines.append("\t\treturn nil, err")
        lines.append("\t}")
    args = ["gh"]
    for what, x in b.c_args:
        args.append(conv[x.name] if what == "param" else counts[x[0].count])
    call = "C.%s(%s)" % (b.cname, ", ".join(args))
    one = "\treturn g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return %s })" % call
    if len(one.expandtabs(4)) <= 100:
        lines.append(one)
    else:
        lines.append("\treturn g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {")
        lines.append("\t\treturn " + call)
        lines.append("\t})")
    return lines


def render(builders):
    check_table("Go", TABLE, builders)
    out = ["// Code generated by bindings/generate.py from the C headers. DO NOT EDIT.",
           "// " + BANNER[len("Generated by bindings/generate.py from the C headers; "):]
           .replace("do not edit: r", "R"),
           "",
           "package nanograph",
           "",
           "/*",
           "#include <stdlib.h>",
           "#include <nanograph/nanograph.h>",
           "*/",
           'import "C"',
           ""]
    for b in builders:
        entry = TABLE.get(b.name, {})
        name = entry.get("name", camel(b.name))
        doc = wrap("%s wraps %s. %s" % (name, b.cname, doc_text(b.brief)), 96)
        out.extend("// " + l for l in doc)
        out.append("func (g *Graph) %s(%s) (*Op, error) {" % (name, signature(b, entry)))
        out.extend(body(b, entry, name))
        out.append("}")
        out.append("")
    return {"go/ops_generated.go": "\n".join(out).rstrip("\n") + "\n"}
