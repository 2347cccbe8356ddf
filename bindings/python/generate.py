#!/usr/bin/env python3
"""Generates nanograph/_capi.py, the ctypes declarations of the C API, from the C headers.

    python3 bindings/python/generate.py [--check] [--include DIR] [--output FILE]

(python3 bindings/generate.py runs it, with the generator of the per-op wrappers.)

Every public declaration (`NG_API ret ng_name(args);`), every struct typedef, every enum constant
and numeric `#define NG_*`, and the field order of the function table `ng_api_t` (when the headers
have one) become Python data: the binding never spells a C signature by hand, so a missing or
wrong `restype` cannot happen. With --check the file is compared with the committed one (exit 1
when they differ): the test suite runs that check.

Macros are read after joining continuation lines (a formatter may split `#define NAME value`
over two), and the generator fails when one the binding relies on (REQUIRED_MACROS) is missing
or has a value it cannot read, rather than writing a module without it.
"""
import argparse
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
OUTPUT = HERE / "nanograph" / "_capi.py"
DEFAULT_INCLUDE = HERE.parent.parent / "include" / "nanograph"

# Macros the bindings read (the library's version, the function table's version).
REQUIRED_MACROS = ("NG_VERSION_MAJOR", "NG_VERSION_MINOR", "NG_VERSION_PATCH", "NG_API_VERSION")
# Macros that are not values the bindings read: the export attribute.
NOT_VALUES = ("NG_API",)


class GenerateError(Exception):
    """Headers the generator cannot read (the message says what and where)."""

SCALARS = {
    "void": "None",
    "char": "c_char",
    "int": "c_int",
    "float": "c_float",
    "double": "c_double",
    "int8_t": "c_int8",
    "uint8_t": "c_uint8",
    "int16_t": "c_int16",
    "uint16_t": "c_uint16",
    "int32_t": "c_int32",
    "uint32_t": "c_uint32",
    "int64_t": "c_int64",
    "uint64_t": "c_uint64",
    "size_t": "c_size_t",
}


def strip_comments(text):
    """The text without comments, continuation lines joined (a comment may sit between a
    #define's backslash and its value, as clang-format leaves it)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"\\[ \t]*\n", " ", text)


def split_top(text, sep=","):
    """Splits at `sep` outside parentheses and braces."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


class Headers:
    def __init__(self, include):
        include = pathlib.Path(include)
        if not include.is_dir():
            raise GenerateError("%s: no such folder" % include)
        files = sorted(include.glob("*.h"))
        if not files:
            raise GenerateError("%s: no C headers (*.h) in it" % include)
        self.text = "\n".join(strip_comments(f.read_text()) for f in files)
        self.aliases = {new: old for old, new in re.findall(r"typedef\s+(\w+)\s+(\w+)\s*;", self.text)}
        self.structs = {}  # name_t -> [(field, ctype expr)]
        self.opaque = set(re.findall(r"typedef\s+struct\s+\w+\s+(\w+)\s*;", self.text))
        self.constants = []
        self.functions = {}  # name without ng_ -> (restype, [argtypes])
        self.table = None  # [(field, ctype expr)] of ng_api_t, or None
        self._parse()

    def ctype(self, decl):
        """The ctypes expression of a declaration's type (a parameter or return, name removed)."""
        decl = decl.strip()
        fp = re.match(r"(.*?)\(\s*\*\s*\w*\s*\)\s*\((.*)\)$", decl, re.S)
        if fp:  # a function pointer
            ret = self.ctype(fp.group(1))
            args = [self.ctype(self.drop_name(a)) for a in split_top(fp.group(2)) if a != "void"]
            return "CFUNCTYPE(%s)" % ", ".join([ret] + args)
        stars = decl.count("*")
        words = [w for w in re.findall(r"\w+", decl) if w not in ("const", "struct", "enum")]
        base = words[0] if words else "void"
        while base in self.aliases and base not in self.structs:
            base = self.aliases[base]
        if stars == 0:
            if base in SCALARS:
                return SCALARS[base]
            if base in self.structs:
                return base
            raise ValueError("unknown type %r" % decl)
        if stars == 1 and base == "char":
            return "c_char_p"
        return "c_void_p"

    @staticmethod
    def drop_name(param):
        """A parameter's type without its name ("const int64_t *shape" -> "const int64_t *")."""
        param = param.strip()
        if re.search(r"\(\s*\*", param):
            return param
        m = re.match(r"(.*?[\s*])(\w+)\s*(\[\s*\w*\s*\])?$", param, re.S)
        if m and m.group(2) not in SCALARS and m.group(2) not in ("const",):
            typ = m.group(1)
            if re.findall(r"\w+", typ):
                return typ + ("*" if m.group(3) else "")
        return param

    def _fields(self, body):
        fields = []
        for decl in split_top(body, ";"):
            if not decl:
                continue
            fp = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl, re.S)
            if fp:
                fields.append((fp.group(2), self.ctype("%s(*)(%s)" % (fp.group(1), fp.group(3)))))
                continue
            arr = re.match(r"(.*?)(\w+)\s*\[\s*(\w+)\s*\]$", decl, re.S)
            if arr:
                fields.append((arr.group(2), "%s * %s" % (self.ctype(arr.group(1)), arr.group(3))))
                continue
            m = re.match(r"(.*?[\s*])(\w+)$", decl, re.S)
            fields.append((m.group(2), self.ctype(m.group(1))))
        return fields

    def _macros(self):
        """Numeric #define NG_* values; string ones (NG_VERSION_STRING) are left to the library's
        functions. A value of another form fails: the binding would silently lack it."""
        seen = set()
        for name, params, value in re.findall(
                r"^[ \t]*#[ \t]*define[ \t]+(NG_\w+)(\([^)]*\))?(.*)$", self.text, re.M):
            value = value.strip()
            if name in NOT_VALUES or name in seen:
                continue
            seen.add(name)
            if params:
                raise GenerateError("#define %s%s: a function-like macro the generator cannot read "
                                    "(list it in NOT_VALUES when the bindings do not need it)"
                                    % (name, params))
            if re.fullmatch(r'"[^"]*"', value):
                continue
            m = re.fullmatch(r"(-?\d+)[uUlL]*", value)
            if not m:
                raise GenerateError("#define %s %r: not a number or string the generator can read "
                                    "(list it in NOT_VALUES when the bindings do not need it)"
                                    % (name, value))
            self.constants.append((name, int(m.group(1))))
        missing = [n for n in REQUIRED_MACROS if n not in seen]
        if missing:
            raise GenerateError("macros missing from the headers: %s" % ", ".join(missing))

    def _parse(self):
        self._macros()
        for body in re.findall(r"enum\s*\w*\s*\{(.*?)\}", self.text, re.S):
            value = -1
            env = dict(self.constants)
            for item in split_top(body):
                if not item:
                    continue
                if "=" in item:
                    key, expr = (s.strip() for s in item.split("=", 1))
                    expr = re.sub(r"(\d+)[uUlL]+", r"\1", expr)
                    value = int(eval(expr, {}, env))  # integer expressions of the header only
                else:
                    key, value = item.strip(), value + 1
                env[key] = value
                self.constants.append((key, value))
        # Structs in order, so a struct used by value is defined before use.
        for body, name in re.findall(r"typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", self.text, re.S):
            if name == "ng_api_t":
                self.table_body = body
                continue
            self.structs[name] = None
            self.structs[name] = self._fields(body)
        for ret, name, args in re.findall(
            r"NG_API\s+([^;(]*?)\b(ng_\w+)\s*\(([^;]*?)\)\s*;", self.text, re.S
        ):
            params = [a for a in split_top(args) if a and a != "void"]
            self.functions[name[3:]] = (
                self.ctype(ret),
                [self.ctype(self.drop_name(p)) for p in params],
            )
        if hasattr(self, "table_body"):
            self.table = self._fields(self.table_body)


def render(h):
    out = [
        '"""ctypes declarations of the nanograph C API. Generated by bindings/python/generate.py',
        'from the C headers: do not edit; run the script after changing a header."""',
        "# fmt: off",
        "from ctypes import (CFUNCTYPE, Structure, c_char, c_char_p, c_double, c_float, c_int,",
        "                    c_int8, c_int16, c_int32, c_int64, c_size_t, c_uint8, c_uint16,",
        "                    c_uint32, c_uint64, c_void_p)",
        "",
        "# Constants: numeric #defines and enum values.",
    ]
    for name, value in h.constants:
        out.append("%s = %d" % (name, value))
    out.append("")
    for name, fields in h.structs.items():
        out.append("")
        out.append("class %s(Structure):" % name)
        out.append("    _fields_ = [")
        for field, ctype in fields:
            out.append("        (%r, %s)," % (field, ctype))
        out.append("    ]")
        out.append("")
    out.append("")
    out.append("# Every public function, without its ng_ prefix: (restype, argtypes).")
    out.append("FUNCTIONS = {")
    for name in sorted(h.functions):
        ret, args = h.functions[name]
        out.append("    %r: (%s, (%s)),"
                   % (name, ret, "".join(a + ", " for a in args).rstrip(" ")))
    out.append("}")
    out.append("")
    out.append("# The function table ng_api_t, field by field in order (None: the headers have none).")
    if h.table is None:
        out.append("API_TABLE = None")
    else:
        out.append("API_TABLE = [")
        for field, ctype in h.table:
            out.append("    (%r, %s)," % (field, ctype))
        out.append("]")
    return "\n".join(out) + "\n"


def arguments(argv, description, output):
    """The arguments shared with bindings/julia/generate.py."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when the output file differs from a fresh one")
    ap.add_argument("--include", type=pathlib.Path, default=DEFAULT_INCLUDE,
                    help="the folder of the C headers (default: %(default)s)")
    ap.add_argument("--output", type=pathlib.Path, default=output,
                    help="the file written or checked (default: %(default)s)")
    ap.add_argument("include_dir", nargs="?", type=pathlib.Path,
                    help="the folder of the C headers (as --include)")
    args = ap.parse_args(argv)
    if args.include_dir is not None:
        args.include = args.include_dir
    if not args.include.is_dir():
        ap.error("%s: no such folder" % args.include)
    return args


def run(argv, description, output, render_fn):
    """Parses the arguments, renders and writes (or checks) the output; the exit status."""
    args = arguments(argv, description, output)
    try:
        text = render_fn(Headers(args.include))
    except (GenerateError, ValueError) as e:
        print("%s: %s" % (sys.argv[0], e), file=sys.stderr)
        return 2
    if args.check:
        if not args.output.exists() or args.output.read_text() != text:
            print("%s is out of date: run %s" % (args.output, sys.argv[0]), file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    return 0


def main(argv):
    return run(argv, __doc__.split("\n\n")[0], OUTPUT, render)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
