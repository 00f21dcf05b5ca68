#!/bin/bash
# kill_launcher.sh - SIGKILL to mpiexec itself (as `timeout -s KILL` or a batch system does)
# while the ranks block, rank 0 with a forked child: mpiexec can run no handler, yet within a
# second no rank, no child of a rank and no segment of the job is left (tools/mpiexec/reaper.c).
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 "$PROGRAM" fork
wait_ready 3
kill -KILL "$JOB_PID"
wait_job 10
expect_status 137
# Nothing runs a handler for SIGKILL: the ranks die of PR_SET_PDEATHSIG, the reaper removes the
# rest a moment later.
deadline=$(awk -v a="$(now)" -v b="$(scaled 1.0)" 'BEGIN { printf "%.6f", a + b }')
until ( expect_nothing_left ) > /dev/null; do
    less_than "$(now)" "$deadline" || expect_nothing_left
    sleep 0.02
done
fault_pass "cleaned up $(seconds_between "$JOB_END" "$(now)") s after the kill"
