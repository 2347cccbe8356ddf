#!/usr/bin/python3
"""Writes the list of nanograph's functions that programs run, which the linker lays out first
and together in the library (cmake/hot-functions.txt).

    python3 bench/hot_functions.py BUILD_DIR [--out FILE]

The kernel maps a library's code into a process 64 KiB at a time, so functions that run
together on few 64 KiB stretches keep a process's memory down. This runs BUILD_DIR's
bench_transformer and bench_train (every workload, at the small sizes of --quick, which still
split work over the threads), each at one and two threads and each workload in its own process,
under valgrind's callgrind, and collects the functions of libnanograph.so that each process ran.

The list gives their symbol names: first those outside the kernels compiled per instruction set,
then those kernels for AVX-512, for AVX2 and for SSE2 (one of the three runs on a given CPU, so
each stays together); a kernel that ran for one instruction set is listed for all three. Within
each group, functions that more processes ran come first, then by name. Needs valgrind.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

# The instruction sets' xsimd architectures, in the order their groups are listed.
ARCHITECTURES = ("xsimd::avx512f", "xsimd::fma3<xsimd::avx2>", "xsimd::sse2")
HEADER = """\
# The library's functions that benchmark programs run, in the order the linker lays them out
# (--symbol-ordering-file). Made by bench/hot_functions.py; regenerate it when the code a compile
# and a run go through changes much. Names that no longer exist are ignored.
"""


def executed_functions(callgrind_file, library="libnanograph"):
    """The names of the functions of `library` that a callgrind output file counts. callgrind
    names an object or function in full once, as "ob=(3) /path", and by number afterwards."""
    names = {"ob": {}, "fn": {}}
    current_object, functions = "", set()
    pattern = re.compile(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$")
    with open(callgrind_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if not m:
                continue
            called, kind, number, name = m.groups()
            if name is not None:
                names[kind][number] = name
            if called:
                continue
            if kind == "ob":
                current_object = names["ob"].get(number, "")
            elif library in os.path.basename(current_object):
                functions.add(names["fn"].get(number, ""))
    functions.discard("")
    return functions


def library_symbols(library_path):
    """{mangled name: demangled name} of the library's functions."""
    def listing(*flags):
        out = subprocess.run(["nm", *flags, library_path], check=True, capture_output=True,
                             text=True).stdout
        return [line.split(" ", 2) for line in out.splitlines()]
    mangled, demangled = listing(), listing("-C")
    return {m[2]: d[2] for m, d in zip(mangled, demangled)
            if len(m) == 3 and len(d) == 3 and m[1] in "tTwW"}


def architecture_of(demangled):
    """The group of a function: 0 outside the per-instruction-set kernels, else 1 + the index of
    its architecture in ARCHITECTURES."""
    for i, arch in enumerate(ARCHITECTURES):
        if arch in demangled:
            return i + 1
    return 0


def without_architecture(demangled):
    """The name with its architecture left out, the same for a kernel's three copies (the
    demangler writes "<xsimd::fma3<xsimd::avx2> >" but "<xsimd::avx512f>")."""
    for arch in ARCHITECTURES:
        demangled = demangled.replace(arch, "ARCH")
    return re.sub(r"\s+>", ">", demangled)


def hot_order(runs, symbols):
    """Symbol names in link order. `runs` is a list of sets of the functions each process ran;
    `symbols` maps the library's mangled names to demangled ones."""
    processes = {}
    for functions in runs:
        for name in functions & symbols.keys():
            processes[name] = processes.get(name, 0) + 1
    by_shape = {}
    for name, demangled in symbols.items():
        by_shape.setdefault(without_architecture(demangled), []).append(name)
    count = {}
    for name, n in processes.items():
        for twin in by_shape[without_architecture(symbols[name])]:
            count[twin] = max(count.get(twin, 0), n)
    return sorted(count, key=lambda name: (architecture_of(symbols[name]), -count[name], name))


def profile(build_dir, workdir):
    """Runs the benchmark programs under callgrind; the sets of functions their processes ran."""
    bench = os.path.join(build_dir, "bench")
    runs = []
    for program in ("bench_transformer", "bench_train"):
        for threads in ("1", "2"):
            prefix = os.path.join(workdir, f"{program}.{threads}")
            command = ["valgrind", "--tool=callgrind", "--trace-children=yes", "--demangle=no",
                       f"--callgrind-out-file={prefix}.%p", os.path.join(bench, program),
                       "--threads", threads, "--quick"]
            print(" ".join(command), file=sys.stderr)
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, env=dict(os.environ, OPENBLAS_NUM_THREADS=threads))
            if done.returncode != 0:
                sys.exit(f"hot_functions: {program} failed:\n{done.stderr[-2000:]}")
            runs += [executed_functions(f) for f in glob.glob(prefix + ".*")]
    return [functions for functions in runs if functions]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "cmake",
                                                      "hot-functions.txt"))
    args = parser.parse_args()
    library = os.path.join(args.build_dir, "libnanograph.so")
    with tempfile.TemporaryDirectory() as workdir:
        runs = profile(args.build_dir, workdir)
    names = hot_order(runs, library_symbols(library))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(HEADER)
        f.writelines(name + "\n" for name in names)
    print(f"hot_functions: {len(names)} functions from {len(runs)} processes -> {args.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
