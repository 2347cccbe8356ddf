#!/usr/bin/env bash
# The fixed cost of one run of a tiny computation (a + b of four floats) from C and from each
# language binding, in microseconds per run, against the release build:
#   bench/bindings.sh            (build the release preset first: bench_call is one of its targets)
# Julia is not run: it is not packaged for Debian 12.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build/release
export NANOGRAPH_LIBRARY=$build/libnanograph.so LD_LIBRARY_PATH=$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "a + b of 4 float32, one run = inputs in, a new result out; $(nproc) cores, $(date -u +%F)"
"$build/bench/bench_call" 200000
PYTHONPATH=$root/bindings/python /usr/bin/python3 "$root/bench/bindings/call.py" 50000
(cd "$root/bindings/go" &&
    CGO_CFLAGS="-I$root/include" CGO_LDFLAGS="-L$build -Wl,-rpath,$build" GOFLAGS=-mod=mod GOPROXY=off \
        go test -run '^$' -bench TinyRun -benchtime 200000x . |
    awk '/^BenchmarkTinyRun/ { printf "Go      %8.2f us/run  (%s runs)\n", $3 / 1000, $2 }')
cargo=cargo
command -v cargo >/dev/null || cargo=/root/.cargo/bin/cargo
(cd "$root/bindings/rust" && NANOGRAPH_LIB_DIR=$build "$cargo" run --offline --quiet --release --example bench_call -- 200000)
