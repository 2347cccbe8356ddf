"""Where the binding looks for libnanograph when NANOGRAPH_LIBRARY is not set: the library
bundled next to the package first, then one under the Python environment's prefix, then the
system loader by soname. The version macros the search uses come from the headers."""
import pathlib
import sys

import nanograph as ng
from nanograph import _capi, _lib


def test_major_version_is_the_loaded_library_s():
    assert _capi.NG_VERSION_MAJOR == int(ng.version().split(".")[0])
    minor, patch = (int(v) for v in ng.version().split(".")[1:])
    assert (_capi.NG_VERSION_MINOR, _capi.NG_VERSION_PATCH) == (minor, patch)


def _library(folder: pathlib.Path) -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "libnanograph.so.0"
    path.write_bytes(b"")  # only looked for, never loaded
    return path


def test_bundled_library_first_then_the_environment_s_prefix(tmp_path, monkeypatch):
    bundled = _library(tmp_path / "site-packages" / "nanograph")
    in_prefix = _library(tmp_path / "venv" / "lib")
    monkeypatch.delenv("NANOGRAPH_LIBRARY", raising=False)
    monkeypatch.setattr(_lib, "__file__", str(bundled.parent / "_lib.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    found = _lib._candidates()
    assert found[:2] == [str(bundled), str(in_prefix)]
    assert found[-1] == "libnanograph.so.0"  # the system loader: LD_LIBRARY_PATH, ldconfig


def test_without_a_bundled_library_the_prefix_then_the_loader(tmp_path, monkeypatch):
    in_prefix = _library(tmp_path / "venv" / "lib")
    (tmp_path / "source" / "nanograph").mkdir(parents=True)
    monkeypatch.delenv("NANOGRAPH_LIBRARY", raising=False)
    monkeypatch.setattr(_lib, "__file__", str(tmp_path / "source" / "nanograph" / "_lib.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    found = _lib._candidates()
    assert found[0] == str(in_prefix)
    assert found[-1] == "libnanograph.so.0"


def test_nanograph_library_is_the_only_candidate(tmp_path, monkeypatch):
    _library(tmp_path / "site-packages" / "nanograph")
    monkeypatch.setenv("NANOGRAPH_LIBRARY", "/elsewhere/libnanograph.so")
    monkeypatch.setattr(_lib, "__file__", str(tmp_path / "site-packages" / "nanograph" / "_lib.py"))
    assert _lib._candidates() == ["/elsewhere/libnanograph.so"]
