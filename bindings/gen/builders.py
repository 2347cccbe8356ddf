"""Reads the op builders from the C headers: every `NG_API ng_op_t *ng_xxx(ng_graph_t *g, ...);`
with its Doxygen comment, classified into parameters of the kinds the generator knows.

A builder whose parameters fit no known kind fails the generator, naming the function, unless it
is listed in EXCLUDED with the reason its wrappers are written by hand.
"""
import pathlib
import re

# Builders whose wrappers every binding writes by hand, and why.
EXCLUDED = {
    "ng_constant": "dense data in the binding's own array type (NumPy array, Go or Rust slice, "
    "Julia array) whose element type gives the dtype",
    "ng_sgd": "an options struct filled from the library's defaults (ng_sgd_options_init): each "
    "binding has an options type of its own",
    "ng_adam": "an options struct filled from the library's defaults (ng_adam_options_init): each "
    "binding has an options type of its own",
}

# Names of the int32_t parameters that count the list parameters before them.
COUNT_NAME = re.compile(r"^(n|rank|\w+_rank|num_\w+)$")


class GenError(Exception):
    """A header the generator cannot turn into wrappers (the message names the function)."""


class Param:
    """One parameter of a wrapper.

    kind: op, ops, axis, axes, int64s, slices, dtype, double, int32, uint32, uint64, str.
    A list kind (ops, axes, int64s, slices) stands for a pointer and its count; `group` numbers
    the lists sharing one count (pad's before and after). optional: NULL is allowed (an op or a
    string whose documentation starts "NULL or").
    """

    def __init__(self, kind, name, doc, optional=False):
        self.kind, self.name, self.doc, self.optional = kind, name, doc, optional
        self.count = None  # for lists: the C name of the count
        self.count_doc = ""  # and its documentation ("Number of axes; 0 reduces every axis.")
        self.group = None

    @property
    def is_list(self):
        return self.kind in ("ops", "axes", "int64s", "slices")

    def __repr__(self):
        return "Param(%s %s%s)" % (self.kind, self.name, "?" if self.optional else "")


class Builder:
    """An op builder: C name, name without the prefix, brief, parameters (the graph left out),
    and the C arguments in order as ("param", Param) or ("count", list Params)."""

    def __init__(self, cname, brief, params, c_args, header):
        self.cname, self.brief, self.params, self.c_args = cname, brief, params, c_args
        self.name = cname[3:]
        self.header = header

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise GenError("%s: no parameter %r" % (self.cname, name))

    def list_groups(self):
        """The lists sharing a count with another list, as lists of Params."""
        groups = {}
        for p in self.params:
            if p.is_list:
                groups.setdefault(p.count, []).append(p)
        return [g for g in groups.values() if len(g) > 1]


# A builder: the doc comment right before it, its name, its parameters after the graph.
BUILDER = re.compile(
    r"/\*\*((?:(?!\*/).)*?)\*/\s*NG_API\s+ng_op_t\s*\*\s*(ng_\w+)\s*\(\s*ng_graph_t\s*\*\s*\w+\s*"
    r"(,[^;]*?)?\)\s*;",
    re.S,
)
# Any builder, documented or not (those BUILDER misses fail the generator).
ANY_BUILDER = re.compile(r"NG_API\s+ng_op_t\s*\*\s*(ng_\w+)\s*\(\s*ng_graph_t\s*\*\s*\w+\s*[,)]")

# C parameter type (spaces normalised) -> kind.
SCALAR_KINDS = {
    "ng_op_t *": "op",
    "const ng_axis_t *": "axis",
    "ng_dtype_t": "dtype",
    "double": "double",
    "int32_t": "int32",
    "uint32_t": "uint32",
    "uint64_t": "uint64",
    "const char *": "str",
}
LIST_KINDS = {
    "ng_op_t *const *": "ops",
    "const ng_axis_t *const *": "axes",
    "const int64_t *": "int64s",
    "const ng_slice_t *": "slices",
}


def parse_doc(comment):
    """The brief (one paragraph, lines joined) and {param: text} of a Doxygen comment."""
    lines = [re.sub(r"^\s*\*?\s?", "", l).rstrip() for l in comment.strip("*").splitlines()]
    brief, params, cur = [], {}, None
    for line in lines:
        m = re.match(r"@(\w+)\s*(.*)", line)
        if m:
            tag, rest = m.groups()
            if tag == "brief":
                cur = brief
                cur.append(rest)
            elif tag == "param":
                name, _, text = rest.partition(" ")
                params[name] = cur = [text]
            else:
                cur = None
        elif not line.strip():
            cur = None
        elif cur is not None:
            cur.append(line.strip())
    return " ".join(brief).strip(), {k: " ".join(v).strip() for k, v in params.items()}


def normalise(ctype):
    ctype = re.sub(r"\s+", " ", ctype.strip())
    ctype = re.sub(r"\s*\*\s*", " *", ctype)  # "T * x" and "T*x" -> "T *x"
    return ctype.replace("* const", "*const").replace("*const*", "*const *")


def parse_params(cname, text, docs):
    params, c_args, pending = [], [], []
    decls = [d.strip() for d in text.split(",") if d.strip()] if text else []
    for decl in decls:
        m = re.match(r"(.*?)(\w+)$", decl, re.S)
        if not m:
            raise GenError("%s: cannot read the parameter %r" % (cname, decl))
        ctype, name = normalise(m.group(1)), m.group(2)
        doc = docs.get(name, "")
        if ctype == "int32_t" and COUNT_NAME.match(name) and pending:
            for p in pending:
                p.count, p.count_doc = name, doc
            c_args.append(("count", list(pending)))
            pending = []
            continue
        if ctype in LIST_KINDS:
            p = Param(LIST_KINDS[ctype], name, doc)
            pending.append(p)
        elif ctype in SCALAR_KINDS:
            kind = SCALAR_KINDS[ctype]
            optional = kind in ("op", "str") and doc.startswith("NULL or")
            p = Param(kind, name, doc, optional)
        else:
            raise GenError(
                "%s: the parameter `%s %s` fits no pattern the generator knows (add the builder "
                "to EXCLUDED in bindings/gen/builders.py with a reason, or teach the generator "
                "the pattern)" % (cname, m.group(1).strip(), name))
        params.append(p)
        c_args.append(("param", p))
    if pending:
        raise GenError("%s: the list parameter %s has no int32_t count after it"
                       % (cname, pending[0].name))
    return params, c_args


def read_builders(include):
    """The op builders of every header of `include`, in header order, EXCLUDED left out."""
    include = pathlib.Path(include)
    files = sorted(include.glob("*.h"))
    if not include.is_dir() or not files:
        raise GenError("no C headers in %s" % include)
    builders, seen = [], set()
    for f in files:
        text = f.read_text()
        declared = set(ANY_BUILDER.findall(text))
        for comment, cname, args in BUILDER.findall(text):
            seen.add(cname)
            if cname in EXCLUDED:
                continue
            brief, docs = parse_doc(comment)
            if not brief:
                raise GenError("%s: no @brief in its Doxygen comment" % cname)
            params, c_args = parse_params(cname, (args or "").lstrip(","), docs)
            builders.append(Builder(cname, brief, params, c_args, f.name))
        undocumented = declared - seen
        if undocumented:
            raise GenError("%s: builders without a Doxygen comment the generator can read: %s"
                           % (f.name, ", ".join(sorted(undocumented))))
    stale = sorted(set(EXCLUDED) - seen)
    if stale:
        raise GenError("EXCLUDED names builders the headers do not declare: %s" % ", ".join(stale))
    return builders
