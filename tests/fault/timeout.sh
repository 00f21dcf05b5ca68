#!/bin/bash
# timeout.sh - every rank blocks in MPI_Recv forever; --timeout 2 ends the job with 124 and
# the timeout message within about 3 s; then the same through NODEMPI_TIMEOUT.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 --timeout 2 "$PROGRAM"
wait_job 10
expect_status 124
expect_stderr '^mpiexec: timeout after 2 s$'
expect_elapsed_below 3.5
less_than 1.95 "$ELAPSED" || fault_fail "timeout fired early, after ${ELAPSED} s"
expect_nothing_left
first=$ELAPSED

NODEMPI_TIMEOUT=1 start_job -n 2 "$PROGRAM"
wait_job 10
expect_status 124
expect_stderr '^mpiexec: timeout after 1 s$'
expect_elapsed_below 2.5
expect_nothing_left
fault_pass "${first} s, ${ELAPSED} s"
