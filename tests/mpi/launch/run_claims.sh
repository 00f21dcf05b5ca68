#!/bin/bash
# run_claims.sh - jobs placed by default side by side. A job's ranks take the cores no other
# nodempi job holds first: while the first core is held (hold_cpus, as a running job's mpiexec
# holds it), a default 2-rank job starts on the second core, and takes the first only when no
# other is free; the claim goes with its holder (the job then binds in order again). Explicit
# --bind-to core ignores claims; a one-rank job is never bound. Runs alone (RUN_SERIAL):
# another test's job would hold cores too.
# Usage: run_claims.sh <mpiexec> <report program> <hold_cpus program>
. "$(dirname "$0")/lib.sh"
HOLD=$3

ncpus=$(nproc)
# Another nodempi job's claims (its mpiexec holds "@nodempi-cpu-N" sockets) would move this
# test's ranks: skipped then (ctest's SKIP_RETURN_CODE), not failed.
skip_if_others_hold() {
    if grep -q "@nodempi-cpu-" /proc/net/unix 2>/dev/null; then
        echo "SKIP: other nodempi jobs hold CPUs: $(grep -o '@nodempi-cpu-[0-9]*' /proc/net/unix | tr '\n' ' ')"
        exit 77
    fi
}
skip_if_others_hold
# --report-bindings' CPU list of rank r.
cpus_of() {
    sed -n "s/^mpiexec: rank $1 bound to CPUs\\{0,1\\} //p" "$ERR"
}

# A default 2-rank job alone: bound, in core order.
run -n 2 --report-bindings "$REPORT"
expect_status 0
expect_bindings_as_reported 2
first=$(cpus_of 0)
second=$(cpus_of 1)
CHECKS=$((CHECKS + 1))
[ -n "$first" ] && [ -n "$second" ] || launch_fail "a default 2-rank job was not bound"

# Hold the first core's first CPU (a core is claimed whole or not at all).
first_cpu=${first%%[,-]*}
exec 3> >("$HOLD" "$first_cpu" > "$WORK/hold.out")
for ((i = 0; i < 100; i++)); do
    grep -q held "$WORK/hold.out" 2>/dev/null && break
    sleep 0.05
done
CHECKS=$((CHECKS + 1))
grep -q held "$WORK/hold.out" || launch_fail "hold_cpus could not claim CPU $first_cpu"

run -n 2 --report-bindings "$REPORT"
expect_status 0
expect_size 2
expect_bindings_as_reported 2
CHECKS=$((CHECKS + 1))
[ "$(cpus_of 0)" = "$second" ] || launch_fail "rank 0 on CPU $(cpus_of 0), not the first free core ($second)"
if [ "$ncpus" -eq 2 ]; then # no other core free: rank 1 shares the held one
    CHECKS=$((CHECKS + 1))
    [ "$(cpus_of 1)" = "$first" ] || launch_fail "rank 1 on CPU $(cpus_of 1), not $first"
else
    CHECKS=$((CHECKS + 1))
    [ "$(cpus_of 1)" != "$first" ] || launch_fail "rank 1 on the held core though others are free"
fi
# Asked for by name, binding is done as without claims: in order.
run -n 2 --bind-to core --report-bindings "$REPORT"
expect_status 0
expect_bindings_as_reported 2
CHECKS=$((CHECKS + 1))
[ "$(cpus_of 0)" = "$first" ] || launch_fail "--bind-to core: rank 0 on $(cpus_of 0)"

# The claim goes with its holder.
exec 3>&-
for ((i = 0; i < 100; i++)); do
    pgrep -f "$HOLD $first_cpu" > /dev/null || break
    sleep 0.05
done
skip_if_others_hold
run -n 2 --report-bindings "$REPORT"
expect_status 0
expect_bindings_as_reported 2
CHECKS=$((CHECKS + 1))
[ "$(cpus_of 0)" = "$first" ] && [ "$(cpus_of 1)" = "$second" ] ||
    launch_fail "not in order after the holder ended: $(cpus_of 0) $(cpus_of 1)"

# One rank: unbound, every CPU its own.
run -n 1 --report-bindings "$REPORT"
expect_status 0
expect_line "$ERR" "mpiexec: rank 0 not bound (any of $ncpus CPUs)"
own=$(awk '$1 == "Cpus_allowed_list:" { print $2 }' /proc/self/status)
expect_line "$OUT" "rank 0 cpus $own"
launch_pass
