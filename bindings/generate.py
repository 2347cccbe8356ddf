#!/usr/bin/env python3
"""Generates the bindings' per-op wrappers from the C headers, and checks they are current.

    python3 bindings/generate.py            # rewrites every generated file
    python3 bindings/generate.py --check    # exit 1, listing the stale files, when one differs

It reads every `NG_API ng_op_t *ng_xxx(ng_graph_t *g, ...)` builder of include/nanograph/*.h
with its Doxygen comment (bindings/gen/builders.py) and writes a wrapper per builder for Python
(nanograph/_ops.py, nanograph/_graph_builders.py), Go (ops_generated.go), Rust
(nanograph/src/ops_generated.rs) and Julia (src/ops_generated.jl). It also runs the generators of
the raw declarations (bindings/python/generate.py: _capi.py; bindings/julia/generate.py:
capi.jl), so one command regenerates everything and --check covers everything. A builder whose
signature fits no pattern the generator knows fails it, naming the function, unless
bindings/gen/builders.py lists it in EXCLUDED with a reason.
"""
import argparse
import difflib
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen import builders, go, julia, python, rust  # noqa: E402

RAW = [("python/generate.py", "python/nanograph/_capi.py"), ("julia/generate.py", "julia/src/capi.jl")]


def generated(include):
    """{path under bindings/: text} of every per-op file."""
    found = builders.read_builders(include)
    files = {}
    for lang in (python, go, rust, julia):
        files.update(lang.render(found))
    return files


def raw_files(include, out_dir):
    """Runs the raw generators into out_dir; {path under bindings/: text}."""
    files = {}
    for script, target in RAW:
        out = pathlib.Path(out_dir) / target
        out.parent.mkdir(parents=True, exist_ok=True)
        r = subprocess.run([sys.executable, str(HERE / script), "--include", str(include),
                            "--output", str(out)], capture_output=True, text=True)
        if r.returncode != 0:
            raise builders.GenError("%s failed:\n%s" % (script, r.stderr.strip()))
        files[target] = out.read_text()
    return files


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 listing the generated files that are stale")
    ap.add_argument("--include", type=pathlib.Path, default=HERE.parent / "include" / "nanograph",
                    help="the folder of the C headers (default: include/nanograph)")
    ap.add_argument("--diff", action="store_true", help="with --check, print the differences")
    args = ap.parse_args(argv)
    if not args.include.is_dir():
        ap.error("--include %s: no such folder" % args.include)
    try:
        files = generated(args.include)
        with tempfile.TemporaryDirectory() as tmp:
            files.update(raw_files(args.include, tmp))
    except builders.GenError as e:
        print("bindings/generate.py: %s" % e, file=sys.stderr)
        return 2
    if args.check:
        stale = []
        for path, text in sorted(files.items()):
            target = HERE / path
            old = target.read_text() if target.exists() else ""
            if old != text:
                stale.append(path)
                if args.diff:
                    sys.stdout.writelines(difflib.unified_diff(
                        old.splitlines(True), text.splitlines(True), "a/" + path, "b/" + path))
        if stale:
            print("bindings/generate.py --check: stale generated files (run python3 "
                  "bindings/generate.py):", file=sys.stderr)
            for path in stale:
                print("  bindings/" + path, file=sys.stderr)
            return 1
        print("bindings/generate.py --check: %d generated files are current" % len(files))
        return 0
    for path, text in sorted(files.items()):
        target = HERE / path
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
            print("wrote bindings/" + path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
