#!/bin/bash
# abort.sh - MPI_Abort(MPI_COMM_WORLD, 7) on rank 1 while the others wait in MPI_Barrier:
# exit 7 within a second, nothing left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 "$PROGRAM"
wait_job 10
expect_status 7
expect_stderr 'rank 1.*MPI_Abort.*7'
expect_ended_within_after_failure 1.0
expect_nothing_left
fault_pass "${ELAPSED} s"
