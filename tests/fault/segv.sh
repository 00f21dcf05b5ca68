#!/bin/bash
# segv.sh - a rank segfaults while the others block in MPI_Recv: exit 139 within a second,
# a message naming rank 1 and the signal, nothing left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 "$PROGRAM"
wait_job 10
expect_status 139
expect_stderr '^mpiexec: rank 1 \(pid [0-9]+\) killed by signal 11 \(Segmentation fault\)$'
expect_ended_within_after_failure 1.0
expect_nothing_left
fault_pass "${ELAPSED} s"
