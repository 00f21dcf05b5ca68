#!/bin/bash
# sigint.sh - SIGINT to mpiexec alone while the ranks block (rank 0 with a forked child):
# mpiexec exits 130 (dies of SIGINT), no rank and no child is left. Then the same for Ctrl-C
# at a terminal, i.e. SIGINT to mpiexec's whole process group, in a session of its own.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"

start_job -n 3 "$PROGRAM" fork
wait_ready 3
kill -INT "$JOB_PID"
wait_job 10
expect_status 130
expect_elapsed_below 5
expect_nothing_left
first=$ELAPSED

JOB_START=$(now)
setsid "$MPIEXEC" -n 3 "$PROGRAM" fork < /dev/null > "$OUT" 2> "$ERR" &
JOB_PID=$!
wait_ready 3
kill -INT -- "-$JOB_PID" # setsid exec'd mpiexec as the leader of a new process group
wait_job 10
expect_status 130
expect_nothing_left
fault_pass "${first} s, ${ELAPSED} s"
