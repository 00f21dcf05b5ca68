#!/bin/bash
# run_claims.sh - jobs placed by default side by side: a job that takes every CPU claims them
# while it runs; a second job meanwhile is left unbound, says why, and its ranks are told one
# CPU is theirs (NODEMPI_NCORES, so they wait as oversubscribed ranks do); after the first ends
# the second binds again. A one-rank job is never bound. Explicit --bind-to core ignores the
# claims. Runs alone (RUN_SERIAL): another test's job would hold CPUs too.
. "$(dirname "$0")/lib.sh"

ncpus=$(nproc)
flag=$WORK/release
holder_err=$WORK/holder.err
# The holder: one rank per CPU, each waiting for the flag file.
"$MPIEXEC" --timeout 60 --report-bindings -n "$ncpus" \
    sh -c "while [ ! -e '$flag' ]; do sleep 0.05; done" > /dev/null 2> "$holder_err" &
holder=$!
for ((i = 0; i < 200; i++)); do
    [ "$(grep -c ' bound to CPU' "$holder_err")" -eq "$ncpus" ] && break
    sleep 0.05
done
CHECKS=$((CHECKS + 1))
[ "$(grep -c ' bound to CPU' "$holder_err")" -eq "$ncpus" ] || {
    touch "$flag"; wait $holder
    OUT=/dev/null ERR=$holder_err launch_fail "the holder's $ncpus ranks were not all bound"
}

run -n 2 --report-bindings "$REPORT" NODEMPI_NCORES
expect_status 0
expect_size 2
for r in 0 1; do
    expect_line "$ERR" "mpiexec: rank $r not bound (any of $ncpus CPUs; other nodempi jobs hold $ncpus of them)"
    expect_line "$OUT" "rank $r cpus $(own_cpus)"
    expect_line "$OUT" "rank $r env NODEMPI_NCORES=1"
done
# Asked for by name, binding is done as without claims.
run -n 2 --bind-to core --report-bindings "$REPORT"
expect_status 0
expect_bindings_as_reported 2
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: rank 0 bound to CPU" "$ERR" || launch_fail "--bind-to core did not bind"

touch "$flag"
wait $holder
holder_status=$?
CHECKS=$((CHECKS + 1))
[ $holder_status -eq 0 ] || launch_fail "the holder job failed (status $holder_status)"

# The claims went with the holder's mpiexec.
run -n 2 --report-bindings "$REPORT" NODEMPI_NCORES
expect_status 0
expect_bindings_as_reported 2
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: rank 1 bound to CPU" "$ERR" || launch_fail "not bound after the holder ended"
expect_line "$OUT" "rank 0 env NODEMPI_NCORES=$ncpus"

# One rank: unbound, every CPU its own.
run -n 1 --report-bindings "$REPORT"
expect_status 0
expect_line "$ERR" "mpiexec: rank 0 not bound (any of $ncpus CPUs)"
expect_line "$OUT" "rank 0 cpus $(own_cpus)"
launch_pass
