#!/bin/bash
# not_found.sh - a program that does not exist or cannot be executed: exit 127, a message
# naming it, no segment created, nothing started. (The program argument is not used.)
. "$(dirname "$0")/lib.sh"
fault_setup "$1" ""

missing=$WORK/no-such-program
start_job -n 2 "$missing"
wait_job 5
expect_status 127
expect_stderr "$missing"
expect_nothing_left

start_job -n 2 nodempi-no-such-command-$$
wait_job 5
expect_status 127
expect_stderr "nodempi-no-such-command-$$"
expect_nothing_left

printf '#!/bin/sh\necho should-not-run\n' > "$WORK/not-executable"
chmod 644 "$WORK/not-executable"
start_job -n 2 "$WORK/not-executable"
wait_job 5
expect_status 127
expect_stderr "not-executable"
grep -q should-not-run "$OUT" && fault_fail "the non-executable file ran"
expect_nothing_left

fault_pass
