#!/bin/bash
# spawn_kill.sh - SIGKILL to a spawned child: the children's job ends (its other rank and its
# segment go) while the parents run on; then SIGKILL to the spawning rank: the parents' job
# ends with 137 and nothing of either job is left.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"
start_job -n 1 "$PROGRAM"
wait_ready 3
child=$(awk '$1 == "fault-spawned" { print $3; exit }' "$OUT")
[ -n "$child" ] || fault_fail "no spawned child reported"
child_job=$(awk -v p="$child" '$1 == "fault-ready" && $5 == p { print $7 }' "$OUT")
kill -KILL "$child"
deadline=$(awk -v a="$(now)" -v b="$(scaled 3)" 'BEGIN { printf "%.6f", a + b }')
while [ -e "/dev/shm$child_job" ] ||
      [ "$(awk '$1 == "fault-spawned" { print $3 }' "$OUT" | while read -r p; do
           [ -e "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && echo "$p"
         done)" != "" ]; do
    less_than "$(now)" "$deadline" || fault_fail "the children's job is not gone after the kill"
    sleep 0.02
done
kill -0 "$JOB_PID" 2>/dev/null || fault_fail "the parents' job ended with its child"
parent=$(awk '$1 == "fault-spawned" { spawned[$3] = 1 }
              $1 == "fault-ready" && $3 == 0 { ready[$5] = 1 }
              END { for (p in ready) if (!(p in spawned)) print p }' "$OUT")
[ -n "$parent" ] || fault_fail "no pid for the parents' rank 0"
kill -KILL "$parent"
wait_job 10
expect_status 137
expect_nothing_left
fault_pass
