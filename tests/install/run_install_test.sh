#!/usr/bin/env bash
# Installs a built nanograph into a fresh prefix, then builds tests/install/client.c against the
# INSTALLED tree twice, with pkg-config and with CMake's find_package, and runs both. Then does
# the same (pkg-config) with the C programs shown in README.md and docs/index.md, so the
# documentation's programs keep compiling and running. With a Python interpreter (one that has
# NumPy), imports the Python binding with NANOGRAPH_LIBRARY unset: once finding the installed
# library through LD_LIBRARY_PATH, once installed under a virtual environment's own prefix.
#
# usage: run_install_test.sh <build-dir> <work-dir> <c-compiler> <cmake> [client C flags] [python]
set -euo pipefail
build_dir=$1 work_dir=$2 cc=$3 cmake=$4 client_cflags=${5:-} python=${6:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
prefix=$work_dir/prefix

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

command -v pkg-config >/dev/null || fail "pkg-config is missing: apt-get install pkg-config"

rm -rf "$work_dir"
mkdir -p "$work_dir"

step "install into $prefix"
"$cmake" --install "$build_dir" --prefix "$prefix"
pc_file=$(find "$prefix" -name nanograph.pc -path '*/pkgconfig/*')
[ -n "$pc_file" ] || fail "no nanograph.pc installed under $prefix"
pc_dir=$(dirname "$pc_file")
libdir=$(dirname "$pc_dir")
[ -e "$libdir/libnanograph.so.0" ] || fail "no libnanograph.so.0 next to the pkgconfig directory ($libdir)"

step "client built with pkg-config"
export PKG_CONFIG_PATH=$pc_dir
installed_prefix=$(cd "$(pkg-config --variable=prefix nanograph)" && pwd)
[ "$installed_prefix" = "$(cd "$prefix" && pwd)" ] ||
    fail "nanograph.pc resolves its prefix to $installed_prefix, not $prefix"
# build_and_run <program> <source.c>: compiles with pkg-config's flags, runs against the prefix.
build_and_run() {
    # shellcheck disable=SC2046,SC2086  # pkg-config's output and the flags are word lists
    "$cc" -std=c99 -Wall -Wextra -Werror $client_cflags "$2" -o "$work_dir/$1" $(pkg-config --cflags --libs nanograph)
    LD_LIBRARY_PATH=$libdir "$work_dir/$1"
}
build_and_run client-pkgconfig "$here/client.c"

step "client built with find_package(nanograph)"
"$cmake" -S "$here" -B "$work_dir/cmake-client" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$client_cflags" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF >/dev/null
found_dir=$(sed -n 's/^nanograph_DIR:PATH=//p' "$work_dir/cmake-client/CMakeCache.txt")
case "$found_dir" in
"$prefix"/*) ;;
*) fail "find_package(nanograph) found $found_dir, not the package installed in $prefix" ;;
esac
"$cmake" --build "$work_dir/cmake-client"
LD_LIBRARY_PATH=$libdir "$work_dir/cmake-client/client"

for doc in README.md docs/index.md; do
    step "the first C program of $doc"
    program=$work_dir/$(basename "$doc" .md)-program.c
    awk '/^```c$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' "$source_dir/$doc" >"$program"
    [ -s "$program" ] || fail "no \`\`\`c block in $doc"
    build_and_run "$(basename "$program" .c)" "$program"
done

if [ -n "$python" ]; then
    # import_binding <python> [env assignments...]: imports the source tree's binding, with
    # NANOGRAPH_LIBRARY unset, runs a computation and prints the library file the process mapped.
    import_binding() {
        local interpreter=$1
        shift
        (cd "$work_dir" && env -u NANOGRAPH_LIBRARY PYTHONPATH="$source_dir/bindings/python" "$@" \
            "$interpreter" -c 'import numpy as np, nanograph as ng
g = ng.Graph(); N = g.axis("N", 3)
x = g.placeholder(ng.float32, [N])
f = ng.Transformer().computation(ng.sum(x * x), [x])
assert float(f(np.array([1, 2, 3], np.float32))) == 14.0
print(next(line.split()[-1] for line in open("/proc/self/maps") if "libnanograph" in line))')
    }
    step "Python: import nanograph, the library found through LD_LIBRARY_PATH"
    loaded=$(import_binding "$python" LD_LIBRARY_PATH="$libdir")
    echo "loaded $loaded"
    [ "$loaded" -ef "$libdir/libnanograph.so.0" ] ||
        fail "the binding loaded $loaded, not $libdir/libnanograph.so.0"

    step "Python: import nanograph, the library installed under the environment's prefix"
    venv=$work_dir/venv
    "$python" -m venv --without-pip --system-site-packages "$venv"
    "$cmake" --install "$build_dir" --prefix "$venv" >/dev/null
    loaded=$(import_binding "$venv/bin/python")
    echo "loaded $loaded"
    [ "$loaded" -ef "$venv/lib/libnanograph.so.0" ] ||
        fail "the binding loaded $loaded, not $venv/lib/libnanograph.so.0"
else
    step "Python: skipped (no interpreter with NumPy given)"
fi

step "installed tree works with pkg-config and CMake"
