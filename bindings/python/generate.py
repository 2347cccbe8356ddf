#!/usr/bin/env python3
"""Generates nanograph/_capi.py, the ctypes declarations of the C API, from the C headers.

    python3 bindings/python/generate.py [--check] [INCLUDE_DIR]

Every public declaration (`NG_API ret ng_name(args);`), every struct typedef, every enum constant
and numeric `#define NG_*`, and the field order of the function table `ng_api_t` (when the headers
have one) become Python data: the binding never spells a C signature by hand, so a missing or
wrong `restype` cannot happen. With --check the file is compared with the committed one (exit 1
when they differ): the test suite runs that check.
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
OUTPUT = HERE / "nanograph" / "_capi.py"
DEFAULT_INCLUDE = HERE.parent.parent / "include" / "nanograph"

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
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


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
        files = sorted(pathlib.Path(include).glob("*.h"))
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

    def _parse(self):
        for name, value in re.findall(r"#define\s+(NG_\w+)\s+(-?\d+)[uU]?\s*$", self.text, re.M):
            self.constants.append((name, int(value)))
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


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    include = pathlib.Path(args[0]) if args else DEFAULT_INCLUDE
    text = render(Headers(include))
    if check:
        if OUTPUT.read_text() != text:
            print("%s is out of date: run %s" % (OUTPUT, __file__), file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
