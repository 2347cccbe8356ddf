#!/bin/sh
# Regenerates src/bindings.rs from the C headers with bindgen (Debian package `bindgen`):
#   bindings/rust/nanograph-sys/generate.sh [OUTPUT]     (default: src/bindings.rs)
# Doc comments are left out so that the file changes only when a declaration does.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
include=${NANOGRAPH_INCLUDE_DIR:-$here/../../../include}
out=${1:-$here/src/bindings.rs}
bindgen "$include/nanograph/nanograph.h" \
    --allowlist-function 'ng_.*' --allowlist-type 'ng_.*' --allowlist-var 'NG_.*' \
    --no-doc-comments --no-layout-tests --size_t-is-usize \
    --output "$out" -- -I"$include"
