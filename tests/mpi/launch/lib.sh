# lib.sh - shared by the launcher option tests: run mpiexec, keep its status and output, and
# check them. Each script: . lib.sh; launch_setup "$@"; ...; launch_pass.
# Usage of every script: <script> <mpiexec> <report program>
set -u
MPIEXEC=$1
REPORT=$2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nodempi-launch.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=$WORK/stdout
ERR=$WORK/stderr
CHECKS=0

launch_fail() {
    echo "FAIL: $*"
    echo "--- command: $LAST_COMMAND"
    echo "--- stdout (first 30 lines):"
    head -n 30 "$OUT"
    echo "--- stderr (first 30 lines):"
    head -n 30 "$ERR"
    exit 1
}

launch_pass() {
    echo "PASS: $(basename "$0" .sh) ($CHECKS checks)"
    exit 0
}

# run <mpiexec arguments...>: sets STATUS; a generous --timeout keeps a hang from stalling ctest.
run() {
    run_from /dev/null "$@"
}

# run_from <input file> <mpiexec arguments...>: run with that file as mpiexec's standard input.
run_from() {
    local input=$1
    shift
    LAST_COMMAND="mpiexec $*"
    [ "$input" = /dev/null ] || LAST_COMMAND="$LAST_COMMAND < $input"
    "$MPIEXEC" --timeout 60 "$@" < "$input" > "$OUT" 2> "$ERR"
    STATUS=$?
}

expect_status() {
    CHECKS=$((CHECKS + 1))
    [ "$STATUS" -eq "$1" ] || launch_fail "exit status $STATUS, expected $1"
}

# expect_line <file> <exact line>
expect_line() {
    CHECKS=$((CHECKS + 1))
    grep -qxF -- "$2" "$1" || launch_fail "$(basename "$1") lacks the line '$2'"
}

expect_no_line() {
    CHECKS=$((CHECKS + 1))
    ! grep -qxF -- "$2" "$1" || launch_fail "$(basename "$1") has the line '$2'"
}

# expect_usage_error <extended regex the message must match>: exit 2, no rank started.
expect_usage_error() {
    expect_status 2
    CHECKS=$((CHECKS + 1))
    grep -Eq -- "$1" "$ERR" || launch_fail "stderr lacks /$1/"
    [ ! -s "$OUT" ] || launch_fail "a rank ran despite the usage error"
}

# expect_size <n>: n ranks ran, numbered 0..n-1, and each saw a world of n.
expect_size() {
    expect_status 0
    local r
    for ((r = 0; r < $1; r++)); do
        expect_line "$OUT" "rank $r size $1 appnum 0"
    done
    CHECKS=$((CHECKS + 1))
    [ "$(grep -c ' size ' "$OUT")" -eq "$1" ] || launch_fail "expected $1 ranks"
}

# Each rank runs on the CPUs mpiexec --report-bindings printed for it.
expect_bindings_as_reported() {
    local r cpus
    for ((r = 0; r < $1; r++)); do
        cpus=$(awk -v r="$r" '$1 == "rank" && $2 == r && $3 == "cpus" { print $4 }' "$OUT")
        local plural=""
        case $cpus in *[,-]*) plural=s ;; esac
        expect_line "$ERR" "mpiexec: rank $r bound to CPU$plural $cpus"
    done
}
