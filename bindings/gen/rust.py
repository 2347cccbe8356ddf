"""The Rust binding's op builders: nanograph/src/ops_generated.rs, a method of Graph per builder
returning Result<Op>. Operands and axes are checked to belong to the graph before the call; the
helpers (check_own, handles, axes, slice_specs, ...) are the hand-written ones of the crate. The
code is written as rustfmt formats it (run-tests checks with rustfmt --check)."""
from .common import BANNER, check_table, doc_text, ordered, wrap

TABLE = {
    "initializer_uniform": {"name": "uniform"},
    "initializer_normal": {"name": "normal"},
    "initializer_glorot_uniform": {"name": "glorot_uniform", "rename": {"fan_in_axes": "fan_in"}},
    "initializer_he_normal": {"name": "he_normal", "rename": {"fan_in_axes": "fan_in"}},
    "uniform": {"name": "random_uniform"},
    "normal": {"name": "random_normal"},
}
RENAME = {"dt": "dtype", "initial_value": "initial"}
TYPES = {"op": "Op<'g>", "ops": "&[Op<'g>]", "axis": "Axis<'g>", "axes": "&[Axis<'g>]",
         "int64s": "&[i64]", "slices": "&[Slice]", "dtype": "DType", "double": "f64",
         "int32": "i32", "uint32": "u32", "uint64": "u64", "str": "&str"}
WIDTH = 100
CALL_ARGS_WIDTH = 60  # rustfmt's fn_call_width: longer argument lists go one per line


def pname(entry, p):
    return entry.get("rename", {}).get(p.name, RENAME.get(p.name, p.name))


def call_lines(head, args, tail, indent):
    """`head(args)tail` as rustfmt lays it out: one line, or one argument per line."""
    one = "%s%s(%s)%s" % (indent, head, ", ".join(args), tail)
    if len(one) <= WIDTH and len(", ".join(args)) <= CALL_ARGS_WIDTH:
        return [one]
    inner = indent + "    "
    return ["%s%s(" % (indent, head)] + [inner + a + "," for a in args] + [indent + ")" + tail]


def render_method(b, entry):
    name = entry.get("name", b.name)
    params = ordered(b, entry)
    out = []
    for line in wrap(doc_text(b.brief), WIDTH - 8):
        out.append("    /// " + line)
    out.append("    ///")
    out.append("    /// Wraps `%s`." % b.cname)
    sig = ["&'g self"] + ["%s: %s" % (pname(entry, p),
                                      "Option<Op<'g>>" if p.optional and p.kind == "op"
                                      else TYPES[p.kind]) for p in params]
    one = "    pub fn %s<'g>(%s) -> Result<Op<'g>> {" % (name, ", ".join(sig))
    if len(one) <= WIDTH:
        out.append(one)
    else:
        out.append("    pub fn %s<'g>(" % name)
        out.extend("        %s," % s for s in sig)
        out.append("    ) -> Result<Op<'g>> {")
    conv, counts = {}, {}
    for p in b.params:
        n = pname(entry, p)
        if p.kind == "op":
            if p.optional:
                out.append("        let %s = self.check_optional(%s)?;" % (n, n))
            else:
                out.append("        let %s = self.check_own(&%s)?;" % (n, n))
            conv[p.name] = n
        elif p.kind == "ops":
            out.append("        let %s = self.handles(%s)?;" % (n, n))
            conv[p.name] = "%s.as_ptr()" % n
            counts[p.count] = "%s.len() as i32" % n
        elif p.kind == "axis":
            out.append("        let %s = self.axis_handle(%s)?;" % (n, n))
            conv[p.name] = n
        elif p.kind == "axes":
            out.append("        let %s = self.axes(%s)?;" % (n, n))
            conv[p.name] = "%s.as_ptr()" % n
            counts[p.count] = "%s.len() as i32" % n
        elif p.kind == "slices":
            out.append("        let %s = slice_specs(%s);" % (n, n))
            conv[p.name] = "%s.as_ptr()" % n
            counts[p.count] = "%s.len() as i32" % n
        elif p.kind == "int64s":
            conv[p.name] = "%s.as_ptr()" % n
            counts.setdefault(p.count, "%s.len() as i32" % n)
        elif p.kind == "dtype":
            conv[p.name] = "%s as i32" % n
        elif p.kind == "str":
            out.append("        let %s = cstring(%s)?;" % (n, n))
            conv[p.name] = "%s.as_ptr()" % n
        else:
            conv[p.name] = n
    for group in b.list_groups():
        lens = ", ".join("%s.len()" % pname(entry, p) for p in group)
        out.extend(call_lines("same_lengths", ['"%s"' % name, "&[%s]" % lens], "?;", "        "))
    args = ["self.raw()"]
    for what, x in b.c_args:
        args.append(conv[x.name] if what == "param" else counts[x[0].count])
    call = "sys::%s" % b.cname
    one = "        self.op(unsafe { %s(%s) })" % (call, ", ".join(args))
    if len(one) <= WIDTH and len(", ".join(args)) <= CALL_ARGS_WIDTH:
        out.append(one)
    else:
        out.append("        self.op(unsafe {")
        out.extend(call_lines(call, args, "", "            "))
        out.append("        })")
    out.append("    }")
    return out


def render(builders):
    check_table("Rust", TABLE, builders)
    out = ["// %s" % l for l in wrap(BANNER, 96)]
    out += ["",
            "use crate::graph::{Axis, Graph, Op, Slice};",
            "use crate::ops::{same_lengths, slice_specs};",
            "use crate::{cstring, sys, DType, Result};",
            "",
            "impl Graph {"]
    methods = [render_method(b, TABLE.get(b.name, {})) for b in builders]
    for i, m in enumerate(methods):
        if i:
            out.append("")
        out.extend(m)
    out.append("}")
    return {"rust/nanograph/src/ops_generated.rs": "\n".join(out) + "\n"}
