#!/bin/bash
# stdio.sh - forwarding: 4 ranks write 3000 stdout lines each in pieces and 300 stderr lines;
# with --tag-output every line is "[r] " + one whole line of rank r, in order per rank, none
# lost, the unfinished last lines flushed; stdin reaches rank 0 only. Then untagged, and the
# exact bytes of a single rank's unfinished line.
. "$(dirname "$0")/lib.sh"
fault_setup "$@"

seq 1 50000 > "$WORK/input"
JOB_STDIN=$WORK/input start_job -n 4 --tag-output "$PROGRAM" 3000 300
wait_job 20
expect_status 0
for r in 0 1 2 3; do
    n=$(grep -cE "^\[$r\] out rank $r line [0-9]+ end$" "$OUT")
    [ "$n" -eq 3000 ] || fault_fail "rank $r: $n whole stdout lines, expected 3000"
    n=$(grep -cE "^\[$r\] err rank $r line [0-9]+ end$" "$ERR")
    [ "$n" -eq 300 ] || fault_fail "rank $r: $n whole stderr lines, expected 300"
    grep -qE "^\[$r\] tail rank $r\$" "$OUT" || fault_fail "rank $r: unfinished last line lost"
    grep -E "^\[$r\] out " "$OUT" | awk '$6 != NR - 1 { bad = 1; exit } END { exit bad }' ||
        fault_fail "rank $r: stdout lines out of order"
done
allowed='out rank \1 line [0-9]+ end|tail rank \1|fault-ready rank \1 .*'
allowed+='|stdin rank \1 lines [0-9]+ bytes [0-9]+'
bad=$(grep -vcE "^\[([0-3])\] ($allowed)\$" "$OUT")
[ "$bad" -eq 0 ] || fault_fail "$bad stdout lines are mixed or untagged"
grep -qxF "[0] stdin rank 0 lines 50000 bytes $(wc -c < "$WORK/input")" "$OUT" ||
    fault_fail "rank 0 did not get all of stdin"
for r in 1 2 3; do
    grep -qxF "[$r] stdin rank $r lines 0 bytes 0" "$OUT" || fault_fail "rank $r got stdin"
done
expect_nothing_left

start_job -n 3 "$PROGRAM" 2000 10
wait_job 20
expect_status 0
n=$(grep -cE '^out rank [0-2] line [0-9]+ end$' "$OUT")
[ "$n" -eq 6000 ] || fault_fail "untagged: $n whole stdout lines, expected 6000"

start_job -n 1 "$PROGRAM" 1 0
wait_job 10
expect_status 0
[ "$(tail -c 12 "$OUT" | od -An -c | tr -d ' \n')" = '\ntailrank0' ] ||
    fault_fail "single rank: the output should end with the unfinished line, unchanged"
expect_nothing_left
fault_pass
