#!/bin/bash
# spawn_sigterm.sh - SIGTERM to the mpiexec of a job whose ranks spawned a child job: both
# jobs end (exit 143), no process of either and no segment of either is left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 2 "$PROGRAM"
wait_ready 4
kill -TERM "$JOB_PID"
wait_job 10
expect_status 143
expect_nothing_left
fault_pass
