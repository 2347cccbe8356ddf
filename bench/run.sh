#!/bin/sh
# bash bench/run.sh BUILD_DIR [--threads N] [--quick] [--only NAME] [--json FILE]
# nanograph against NumPy and PyTorch in one run; see bench/run_all.py and docs/benchmarks.md.
# Debian's NumPy and PyTorch live in the system Python, hence /usr/bin/python3 explicitly.
exec /usr/bin/python3 "$(dirname "$0")/run_all.py" "$@"
