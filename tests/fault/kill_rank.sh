#!/bin/bash
# kill_rank.sh - SIGKILL to one rank while all block in MPI_Recv: exit 137 within a second,
# a message naming the rank, nothing left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 3 "$PROGRAM"
wait_ready 3
victim=$(rank_pid 2)
[ -n "$victim" ] || fault_fail "no pid for rank 2"
killed_at=$(now)
kill -KILL "$victim"
wait_job 10
expect_status 137
expect_stderr "^mpiexec: rank 2 \\(pid $victim\\) killed by signal 9 \\(Killed\\)$"
delay=$(seconds_between "$killed_at" "$JOB_END")
less_than "$delay" "$(scaled 1.0)" || fault_fail "job ended ${delay} s after the kill"
expect_nothing_left
fault_pass "${delay} s after the kill"
