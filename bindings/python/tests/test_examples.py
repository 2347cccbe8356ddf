"""The two examples run and learn."""
import os
import pathlib
import re
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def _run(*args):
    env = dict(os.environ, PYTHONPATH=str(EXAMPLES.parent))
    r = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_linear_regression_recovers_the_weights():
    out = _run(EXAMPLES / "linear_regression.py")
    w = [float(v) for v in re.search(r"^w = \[([^\]]*)\]", out, re.M).group(1).split()]
    assert all(abs(a - b) < 0.01 for a, b in zip(w, [2.0, -3.0, 0.5]))


def test_mlp_learns_the_digits():
    out = _run(EXAMPLES / "mlp_digits.py", "--epochs", "5")
    accuracy = float(re.findall(r"test accuracy ([0-9.]+)", out)[-1])
    assert accuracy > 0.9, out
