#!/bin/sh
# run_fatal_default.sh MPIEXEC BINARY
# Runs errors/fatal_default with 2 ranks and checks that MPI_ERRORS_ARE_FATAL aborted the job:
# non-zero exit, no hang (timeout), nothing after the failing call. For nodempi (detected from
# the LIBRARY: line the program prints) stderr must also carry the error message
#   nodempi: MPI_Send: invalid rank 7 (communicator size 2)
# MPIEXEC may contain options, e.g. "mpiexec.openmpi --oversubscribe".
if [ $# -ne 2 ]; then
    echo "usage: $0 MPIEXEC BINARY" >&2
    exit 2
fi
MPIEXEC=$1
BIN=$2
TIMEOUT=${MT_TIMEOUT:-60}
out=$(mktemp) && err=$(mktemp) || exit 2
trap 'rm -f "$out" "$err"' EXIT

# shellcheck disable=SC2086
timeout "$TIMEOUT" $MPIEXEC -n 2 "$BIN" >"$out" 2>"$err" </dev/null
rc=$?
fail=0
if [ $rc -eq 0 ]; then
    echo "FAIL: job exited 0; MPI_ERRORS_ARE_FATAL should have aborted it"
    fail=1
elif [ $rc -eq 124 ]; then
    echo "FAIL: job hung (killed after ${TIMEOUT}s) instead of aborting"
    fail=1
fi
if grep -q UNREACHABLE "$out"; then
    echo "FAIL: execution continued after the fatal error:"
    grep UNREACHABLE "$out"
    fail=1
fi
if grep -qi '^LIBRARY:.*nodempi' "$out"; then
    expect='nodempi: MPI_Send: invalid rank 7 (communicator size 2)'
    if ! grep -qF "$expect" "$err"; then
        echo "FAIL: stderr does not contain '$expect'"
        fail=1
    fi
fi
if [ $fail -ne 0 ]; then
    echo "--- exit code $rc; stdout:"
    head -n 20 "$out"
    echo "--- stderr:"
    head -n 20 "$err"
    exit 1
fi
echo "OK: job aborted with exit code $rc"
exit 0
