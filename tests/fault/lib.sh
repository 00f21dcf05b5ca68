# lib.sh - shared by the fault-test scripts: run mpiexec in the background, wait for the ranks'
# "fault-ready" lines, then check status, message, time taken, and that no process and no
# segment of the job is left. Each script: . lib.sh; fault_setup "$@"; ...; fault_pass.
# Usage of every script: <script> <mpiexec> <program>

set -u
export LC_ALL=C # $EPOCHREALTIME and awk must use '.' as the decimal point

# Time limits are multiplied by this (e.g. 3 on a machine busy with other work); 1 checks the
# launcher's promises as stated.
TIME_SCALE=${NODEMPI_FAULT_TIME_SCALE:-1}

fault_setup() {
    MPIEXEC=$1
    PROGRAM=${2:-}
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/nodempi-fault.XXXXXX")
    trap 'fault_cleanup' EXIT
    OUT=$WORK/stdout
    ERR=$WORK/stderr
    SHM_BEFORE=$WORK/shm-before
    ls /dev/shm > "$SHM_BEFORE" 2>/dev/null
    # A private copy: "no process runs $PROGRAM" then stays true of this test alone when
    # ctest runs several tests that use the same program at once.
    if [ -n "$PROGRAM" ]; then
        cp "$PROGRAM" "$WORK/" || fault_fail "cannot copy $PROGRAM"
        PROGRAM=$WORK/$(basename "$PROGRAM")
    fi
}

# After a failure, kills what the job left: recorded pids still running this test's copy of
# the program (a check that keeps a reused pid safe).
fault_cleanup() {
    [ -n "${JOB_PID:-}" ] && kill -9 "$JOB_PID" 2>/dev/null
    local pid
    for pid in $(awk '$1 == "fault-ready" { print $5 } $1 == "fault-grandchild" { print $3 }' \
                 "$OUT" 2>/dev/null); do
        if [ -n "$PROGRAM" ] && { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null |
                grep -qF -- "$PROGRAM"; then
            kill -9 "$pid" 2>/dev/null
        fi
    done
    rm -rf "$WORK"
}

now() { echo "$EPOCHREALTIME"; } # no fork: exact even when the machine is loaded
scaled() { awk -v t="$1" -v k="$TIME_SCALE" 'BEGIN { print t * k }'; }
# seconds_between <start> <end>, as a decimal
seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# less_than <x> <y>: true when x < y (decimals)
less_than() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

fault_fail() {
    echo "FAIL: $*"
    echo "--- mpiexec stdout (first 40 lines):"
    head -n 40 "$OUT" 2>/dev/null
    echo "--- mpiexec stderr (first 40 lines):"
    head -n 40 "$ERR" 2>/dev/null
    exit 1
}

fault_pass() {
    echo "PASS: $(basename "$0" .sh)${1:+ ($1)}"
    exit 0
}

# start_job <mpiexec arguments...>: mpiexec in the background, stdin from $JOB_STDIN or
# /dev/null. Its own SIGINT disposition is what a background job of a script has (ignored),
# which mpiexec must override.
start_job() {
    JOB_START=$(now)
    "$MPIEXEC" "$@" < "${JOB_STDIN:-/dev/null}" > "$OUT" 2> "$ERR" &
    JOB_PID=$!
}

# wait_ready <nranks>: until every rank printed its ready line.
wait_ready() {
    local limit
    limit=$(scaled 5)
    local deadline
    deadline=$(awk -v a="$(now)" -v b="$limit" 'BEGIN { printf "%.6f", a + b }')
    while [ "$(grep -c '^fault-ready ' "$OUT" 2>/dev/null)" -lt "$1" ]; do
        if ! kill -0 "$JOB_PID" 2>/dev/null; then
            fault_fail "mpiexec ended before $1 ranks were ready"
        fi
        less_than "$(now)" "$deadline" || fault_fail "$1 ranks not ready after $limit s"
        sleep 0.02
    done
}

rank_pid() { awk -v r="$1" '$1 == "fault-ready" && $3 == r { print $5 }' "$OUT"; }

# wait_job [limit-seconds]: waits for mpiexec (killing it after the limit, default 10 s) and
# sets STATUS, ELAPSED and JOB_END. The wait blocks, so JOB_END is when mpiexec ended.
wait_job() {
    local limit
    limit=$(scaled "${1:-10}")
    rm -f "$WORK/job-ended" "$WORK/watchdog-fired"
    {
        sleep "$limit"
        [ -e "$WORK/job-ended" ] || { kill -9 "$JOB_PID" && touch "$WORK/watchdog-fired"; }
    } > /dev/null 2>&1 &
    local watchdog=$!
    wait "$JOB_PID"
    STATUS=$?
    JOB_END=$(now)
    touch "$WORK/job-ended"
    pkill -P "$watchdog" sleep 2>/dev/null # ends the watchdog early, it sees job-ended
    wait "$watchdog" 2>/dev/null
    ELAPSED=$(seconds_between "$JOB_START" "$JOB_END")
    JOB_LAUNCHER=$JOB_PID
    JOB_PID=
    [ -e "$WORK/watchdog-fired" ] && fault_fail "mpiexec still running after $limit s"
}

expect_status() {
    [ "$STATUS" -eq "$1" ] || fault_fail "exit status $STATUS, expected $1"
}

expect_elapsed_below() {
    local limit
    limit=$(scaled "$1")
    less_than "$ELAPSED" "$limit" || fault_fail "job took ${ELAPSED} s, expected under $limit s"
}

# expect_stderr <extended regex>
expect_stderr() {
    grep -Eq -- "$1" "$ERR" || fault_fail "stderr lacks /$1/"
}

# The job ended within <seconds> of the "fault-failing" line's time stamp.
expect_ended_within_after_failure() {
    local failed_at
    failed_at=$(awk '$1 == "fault-failing" { print $NF; exit }' "$OUT")
    [ -n "$failed_at" ] || fault_fail "no fault-failing line"
    local delay limit
    delay=$(seconds_between "$failed_at" "$JOB_END")
    limit=$(scaled "$1")
    less_than "$delay" "$limit" ||
        fault_fail "job ended ${delay} s after the failure, limit $limit s"
}

# No rank, no forked child of a rank, no process running the program, no segment of the job.
expect_nothing_left() {
    local pid name
    local pids
    pids=$(awk '$1 == "fault-ready" { print $5 } $1 == "fault-grandchild" { print $3 }' "$OUT")
    for pid in $pids; do
        if [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
            fault_fail "process $pid of the job is still alive"
        fi
    done
    if [ -n "$PROGRAM" ] && pgrep -f -- "$PROGRAM" > /dev/null; then
        fault_fail "processes running $PROGRAM are alive: $(pgrep -f -- "$PROGRAM" | tr '\n' ' ')"
    fi
    for name in $(awk '$1 == "fault-ready" { print $7 }' "$OUT" | sort -u); do
        [ "$name" = "-" ] && continue
        [ -e "/dev/shm$name" ] && fault_fail "segment /dev/shm$name is left"
    done
    # Segments created while the test ran whose job id names this mpiexec as their launcher.
    for name in $(ls /dev/shm 2>/dev/null | grep '^nodempi-' | grep -vxF -f "$SHM_BEFORE"); do
        local id=${name##*-}
        if [[ $id =~ ^[0-9a-f]+$ ]] && [ $(( 16#$id >> 32 )) -eq "$JOB_LAUNCHER" ]; then
            fault_fail "segment /dev/shm/$name of this job is left"
        fi
    done
}
