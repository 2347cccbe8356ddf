"""Builds libnanograph with CMake and bundles it in the package, so that `pip install
bindings/python` gives a working `import nanograph` with nothing else to build or set.

The C sources are the repository this folder belongs to (two levels up), or the folder named by
NANOGRAPH_SOURCE_DIR. The library is built alone (no tests, examples, benchmarks or docs), in
Release, under setuptools' build folder, and copied into the package as libnanograph.so.<major>,
the first place the binding looks (nanograph/_lib.py). It needs what the library's own build
needs: a C++17 compiler, CMake and the Debian packages of `.ci/packages/core.txt`.
"""
import os
import pathlib
import re
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent


def source_dir() -> pathlib.Path:
    src = pathlib.Path(os.environ.get("NANOGRAPH_SOURCE_DIR") or HERE.parent.parent).resolve()
    cmakelists = src / "CMakeLists.txt"
    if not cmakelists.is_file() or "project(nanograph " not in cmakelists.read_text():
        raise SystemExit(
            "nanograph: the C library's sources are not at %s: install from bindings/python inside "
            "a clone of the repository, or set NANOGRAPH_SOURCE_DIR to one" % src
        )
    return src


class BuildWithLibrary(build_py):
    """build_py, then CMake builds libnanograph and the result goes into the package."""

    def run(self) -> None:
        super().run()
        build = pathlib.Path(self.get_finalized_command("build").build_temp).resolve()
        build = build / "libnanograph"
        configure = ["cmake", "-S", str(source_dir()), "-B", str(build),
                     "-DCMAKE_BUILD_TYPE=Release", "-DNG_BUILD_TESTS=OFF",
                     "-DNG_BUILD_EXAMPLES=OFF", "-DNG_BUILD_BENCH=OFF", "-DNG_BUILD_DOCS=OFF"]
        if shutil.which("ninja") and not (build / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        self.spawn(configure)
        self.spawn(["cmake", "--build", str(build), "--target", "nanograph"])
        # The link named by the soname (libnanograph.so.<major>), copied as one file of that name.
        (soname,) = [p for p in build.glob("libnanograph.so.*")
                     if re.fullmatch(r"libnanograph\.so\.\d+", p.name)]
        package = pathlib.Path(self.build_lib) / "nanograph"
        for stale in package.glob("libnanograph.so*"):
            stale.unlink()
        shutil.copyfile(soname.resolve(), package / soname.name)


class BinaryDistribution(Distribution):
    """The wheel holds a compiled library: tagged for one platform, installed in platlib."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
