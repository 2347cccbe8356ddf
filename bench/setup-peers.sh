#!/bin/sh
# bash bench/setup-peers.sh [VENV_DIR]
# Creates the virtual environment of the benchmark's PyPI peers: ONNX Runtime (with the `onnx`
# package, to build the peers' models) and JAX on the CPU. It sees Debian's NumPy and PyTorch
# (--system-site-packages), so one interpreter runs every peer. Idempotent: an existing
# environment only gets what it lacks. Default VENV_DIR: build/bench-venv under the repository.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-"$here/../build/bench-venv"}
if [ ! -x "$venv/bin/python" ]; then
    /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
# pip must not replace Debian's NumPy: JAX and ONNX Runtime accept NumPy 1.24.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    onnxruntime onnx "jax[cpu]" "numpy==$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
"$venv/bin/python" -c 'import numpy, onnxruntime, onnx, jax, torch
print("bench peers:", "numpy", numpy.__version__, "torch", torch.__version__,
      "onnxruntime", onnxruntime.__version__, "jax", jax.__version__)'
echo "$(cd "$venv" && pwd)/bin/python"
