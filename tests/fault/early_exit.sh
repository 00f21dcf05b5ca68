#!/bin/bash
# early_exit.sh - a rank exits after MPI_Init without MPI_Finalize while the others block:
# exit(3) ends the job with 3; exit(0) ends it with 1; both with a message naming the rank.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"

start_job -n 3 "$PROGRAM" 3
wait_job 10
expect_status 3
expect_stderr '^mpiexec: rank 1 exited with status 3 before MPI_Finalize$'
expect_ended_within_after_failure 1.0
expect_nothing_left
first=$ELAPSED

start_job -n 3 "$PROGRAM" 0
wait_job 10
expect_status 1
expect_stderr '^mpiexec: rank 1 exited with status 0 before MPI_Finalize$'
expect_ended_within_after_failure 1.0
expect_nothing_left
fault_pass "${first} s, ${ELAPSED} s"
