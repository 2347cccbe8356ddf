#!/usr/bin/env bash
# Installs a built nanograph into a fresh prefix, then builds tests/install/client.c against the
# INSTALLED tree twice, with pkg-config and with CMake's find_package, and runs both.
#
# usage: run_install_test.sh <build-dir> <work-dir> <c-compiler> <cmake> [client C flags]
set -euo pipefail
build_dir=$1 work_dir=$2 cc=$3 cmake=$4 client_cflags=${5:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
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
# shellcheck disable=SC2046,SC2086  # pkg-config's output and the flags are word lists
"$cc" -std=c99 -Wall -Wextra -Werror $client_cflags "$here/client.c" -o "$work_dir/client-pkgconfig" \
    $(pkg-config --cflags --libs nanograph)
LD_LIBRARY_PATH=$libdir "$work_dir/client-pkgconfig"

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

step "installed tree works with pkg-config and CMake"
