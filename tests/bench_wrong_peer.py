"""How the benchmark scripts treat a wrong result: a peer's is reported and does not fail the run,
a crash, a size mismatch or nanograph's does. Runs the scripts' own functions on made-up children and records, so
no library is timed.

    python3 tests/bench_wrong_peer.py
"""
import contextlib
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import peers  # noqa: E402 - the script under test
import run_all  # noqa: E402


def fake_children(stdout, returncode):
    """subprocess.run as peers.run_all calls it, every child printing `stdout` and exiting with
    `returncode`."""
    def run(command, **_):
        return subprocess.CompletedProcess(command, returncode, stdout=stdout)
    return run


def run_peers(stdout, returncode):
    """peers.run_all over one library and workload: (failures, what it wrote to stderr)."""
    real = subprocess.run
    subprocess.run = fake_children(stdout, returncode)
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            failures = peers.run_all(["numpy"], ["l2_diff"], [1, 2], quick=True)
    finally:
        subprocess.run = real
    return failures, err.getvalue()


def child_failed(records, returncode):
    """peers.child_failed for a softmax child: (whether it failed, what it wrote to stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        failed = peers.child_failed("run_paired.py", "softmax", returncode, records)
    return failed, err.getvalue()


def finish(records, problems):
    """run_all.finish on the records: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run_all.finish("run_all.py", records, problems, lambda r: r["shape"])
    return status, out.getvalue(), err.getvalue()


def main():
    wrong_line = '{"impl": "numpy", "workload": "l2_diff", "check": "WRONG"}\n'
    failures, err = run_peers(wrong_line, 0)
    assert failures == 0, failures
    assert err.count("numpy l2_diff (1 threads): numpy's result is outside the tolerance") == 1, err
    assert err.count("numpy l2_diff (2 threads): numpy's result is outside the tolerance") == 1, err

    failures, err = run_peers('{"impl": "numpy", "check": "ok"}\n', 3)
    assert failures == 2, failures
    assert "failed with status 3" in err, err

    failures, err = run_peers('{"impl": "numpy", "check": "ok"}\n', 0)
    assert (failures, err) == (0, ""), (failures, err)

    # One child for every library, as run_paired.py runs them: only nanograph's wrong result fails.
    peer_wrong = [{"impl": "nanograph", "check": "ok"}, {"impl": "torch", "check": "WRONG"}]
    assert not child_failed(peer_wrong, 0)[0]
    failed, err = child_failed(peer_wrong + [{"impl": "nanograph", "check": "WRONG"}], 0)
    assert failed and "softmax: nanograph computed a wrong result" in err, err
    assert "torch's result is outside the tolerance" in err, err
    failed, err = child_failed([], -11)
    assert failed and "softmax: failed with status -11" in err, err

    records = [
        {"impl": "nanograph", "workload": "l2_diff", "shape": "8", "threads": 1, "check": "ok"},
        {"impl": "onnxruntime", "workload": "l2_diff", "shape": "8", "threads": 1, "check": "WRONG"},
        {"impl": "onnxruntime", "workload": "l2_diff", "shape": "8", "threads": 2, "check": "WRONG"},
        {"impl": "numpy", "workload": "l2_diff", "shape": "8", "threads": 1, "check": "ok"},
    ]
    status, out, err = finish(records, [])
    assert status == 0, (status, err)
    assert "marked WRONG: onnxruntime l2_diff at 1 and 2 thread(s)." in out, out
    assert "numpy" not in out, out

    status, out, err = finish(records[:1], ["bench_transformer exited with status 1"])
    assert status == 1 and "bench_transformer exited with status 1" in err, (status, err)
    assert out == "", out

    mismatched = records[:1] + [dict(records[3], shape="16")]
    status, _, err = finish(mismatched, [])
    assert status == 1 and "ran different sizes" in err, (status, err)
    print("bench_wrong_peer: ok")


if __name__ == "__main__":
    main()
