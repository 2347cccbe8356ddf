"""The binding against the C headers of the source tree, read at test time: the generated
declarations still match them, and every function of the library (every entry of its function
table, when it has one) is used by the binding or listed in the README as deliberately left out."""
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent / "nanograph"
INCLUDE = HERE.parents[2] / "include" / "nanograph"
sys.path.insert(0, str(HERE.parent))

if not INCLUDE.is_dir():
    pytest.skip("the C headers are not next to this binding (an installed copy)", allow_module_level=True)

import generate  # noqa: E402  (bindings/python/generate.py)
from nanograph import _capi  # noqa: E402


@pytest.fixture(scope="module")
def headers():
    return generate.Headers(INCLUDE)


def test_generated_file_is_up_to_date():
    """Regenerating _capi.py from the headers gives the committed file."""
    r = subprocess.run([sys.executable, str(HERE.parent / "generate.py"), "--check", str(INCLUDE)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_declarations_match_the_headers(headers):
    """Every declaration the binding has is the header's (functions added later are checked by
    the next test)."""
    fresh = {}
    exec(compile(generate.render(headers), "<fresh>", "exec"), fresh)
    for name, (restype, argtypes) in _capi.FUNCTIONS.items():
        assert name in fresh["FUNCTIONS"], "ng_%s was removed from the headers" % name
        r2, a2 = fresh["FUNCTIONS"][name]
        assert getattr(restype, "__name__", restype) == getattr(r2, "__name__", r2), name
        assert [getattr(a, "__name__", a) for a in argtypes] == [getattr(a, "__name__", a) for a in a2], name
    if _capi.API_TABLE is not None:
        fields = [f for f, _ in headers.table]
        mine = [f for f, _ in _capi.API_TABLE]
        assert fields[: len(mine)] == mine, "the function table's order changed (it is append-only)"


def _readme_left_out():
    text = (HERE.parent / "README.md").read_text()
    section = text.split("## Left out", 1)[1]
    section = re.split(r"\n## ", section, 1)[0]
    return set(re.findall(r"^\|\s*`(?:ng_)?(\w+)`\s*\|", section, re.M))


def test_every_function_is_reachable_or_left_out(headers):
    names = [f for f, _ in headers.table] if headers.table is not None else list(headers.functions)
    source = "".join(p.read_text() for p in PACKAGE.glob("*.py") if p.name != "_capi.py")
    used = set(re.findall(r"\blib\.(\w+)", source)) | set(re.findall(r'getattr\(lib, "(\w+)"', source))
    left_out = _readme_left_out()
    missing = sorted(n for n in names if n not in used and n not in left_out)
    assert not missing, "not reachable from the binding nor listed under 'Left out' in README.md: %s" % missing
    both = sorted(used & left_out)
    assert not both, "used by the binding but listed as left out: %s" % both
    unknown = sorted(left_out - set(names))
    assert not unknown, "listed as left out but not in the headers: %s" % unknown
