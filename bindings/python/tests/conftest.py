"""Runs the suite against the source tree: the package from bindings/python and, unless
NANOGRAPH_LIBRARY says otherwise, the library of the release build."""
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))
if "NANOGRAPH_LIBRARY" not in os.environ:
    for candidate in (ROOT / "build" / "release" / "libnanograph.so",):
        if candidate.exists():
            os.environ["NANOGRAPH_LIBRARY"] = str(candidate)
