#!/bin/bash
# sigterm.sh - SIGTERM to mpiexec alone while the ranks block (rank 0 with a forked child):
# exit 143, no rank and no child left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 "$PROGRAM" fork
wait_ready 3
kill -TERM "$JOB_PID"
wait_job 10
expect_status 143
expect_elapsed_below 5
expect_nothing_left
fault_pass "${ELAPSED} s"
