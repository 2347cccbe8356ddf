#!/bin/sh
# bash bench/run.sh BUILD_DIR [--threads N] [--quick] [--only NAME] [--json FILE] [--rounds N]
# The whole benchmark in one command: builds the bench programs in BUILD_DIR (a configured Release
# build directory), makes sure the peers' environment exists (bench/setup-peers.sh: ONNX Runtime
# and JAX from PyPI, Debian's NumPy and PyTorch visible), then runs in one go the machine's limits,
# the workloads of bench_transformer against every peer (bench/run_all.py) and, unless --only is
# given, the training and inference workloads (bench/run_train.py) and the graph-size workloads
# (bench/run_graph_size.py), and prints at the end the
# verdict on each goal (bench/goals.py). See docs/benchmarks.md.
# Without PyPI the peers' environment cannot be made: the run goes on with Debian's NumPy and
# PyTorch alone (/usr/bin/python3) and says so.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bash bench/run.sh BUILD_DIR [--threads N] [--quick] [--only NAME] [--json FILE] [--rounds N]}
shift
if [ -f "$build/CMakeCache.txt" ]; then
    cmake --build "$build" -j2 --target bench_transformer bench_train bench_limits \
        bench_graph_size >&2
fi
if python=$(sh "$here/setup-peers.sh" | tail -n 1) && [ -x "$python" ]; then
    :
else
    echo "run.sh: no peers' environment (bench/setup-peers.sh failed): NumPy and PyTorch only" >&2
    python=/usr/bin/python3
fi

# run_train.py takes the thread count and --quick; its JSON lines go to FILE.train.
train_args=""
only=""
quick=""
json=""
prev=""
for arg in "$@"; do
    case $prev in
    --threads) train_args="$train_args --threads $arg" ;;
    --json) json=$arg ;;
    --rounds) train_args="$train_args --rounds $arg" ;;
    esac
    case $arg in
    --quick)
        quick=1
        train_args="$train_args --quick"
        ;;
    --only) only=1 ;;
    esac
    prev=$arg
done
# The records go to a file in any case: bench/goals.py reads them for the verdicts at the end.
json_option=""
if [ -z "$json" ]; then
    records=$(mktemp -d)
    trap 'rm -rf "$records"' EXIT
    json=$records/run.jsonl
    json_option="--json $json"
fi
train_args="$train_args --json $json.train"
status=0
# shellcheck disable=SC2086 # the option and the temporary path are words without spaces
"$python" "$here/run_all.py" "$build" "$@" $json_option || status=$?
if [ -z "$only" ]; then
    echo
    # shellcheck disable=SC2086 # the options are words without spaces
    "$python" "$here/run_train.py" "$build" $train_args || status=$?
    echo
    # shellcheck disable=SC2086 # --quick or nothing
    "$python" "$here/run_graph_size.py" "$build" ${quick:+--quick} --json "$json.graph" ||
        status=$?
fi
# The verdicts against the goals; a missed goal is a finding of the run, not a failure of it.
if [ -z "$quick" ] && [ "$status" -eq 0 ]; then
    echo
    "$python" "$here/goals.py" "$json" || [ $? -eq 1 ]
fi
exit $status
