#!/bin/bash
# run_options.sh - the other Open MPI and Hydra options mpiexec takes on one node: mapping and
# ranking words (--map-by ppr:N:node, PE=n, --rank-by, --cpus-per-rank, -bind-to core:n,
# --use-hwthread-cpus, --nooversubscribe, --pernode), reports (-v, --display-allocation, -info,
# -V), MPIEXEC_TIMEOUT, the job-wide host and count options with -configfile and MPMD, what is
# accepted and ignored, and what is refused with its reason (exit 2, the option named).
# Usage: run_options.sh <mpiexec> <report program>
. "$(dirname "$0")/lib.sh"
CPUS=$(nproc)

# Mapping: ppr:N:node is N ranks; slot and node order as nodempi does; objects bind.
run --map-by ppr:2:node "$REPORT"
expect_size 2
run -n 3 --map-by ppr:2:node "$REPORT"
expect_usage_error "^mpiexec: --map-by 2: this node runs all 3 ranks"
run --map-by ppr:2:socket "$REPORT"
expect_usage_error "^mpiexec: --map-by ppr:2:socket: only ppr:N:node is supported"
run -n 2 --map-by slot:OVERSUBSCRIBE --report-bindings "$REPORT"
expect_size 2
expect_bindings_as_reported 2
run -n 2 -map-by node:SPAN "$REPORT"
expect_size 2
run -n 2 --map-by core:bogus "$REPORT"
expect_usage_error "^mpiexec: --map-by core:bogus: unknown modifier 'bogus'"
run -n 2 --map-by diagonal "$REPORT"
expect_usage_error "^mpiexec: --map-by accepts slot, node, .* not 'diagonal'"

# CPUs per rank: Open MPI's --cpus-per-rank and PE=n, Hydra's -bind-to core:n.
if [ "$CPUS" -ge 2 ]; then
    for words in "--cpus-per-rank 2" "--cpus-per-proc 2" "--map-by slot:PE=2" "-bind-to core:2"; do
        run -n 1 $words --report-bindings "$REPORT"
        expect_size 1
        expect_bindings_as_reported 1
        CHECKS=$((CHECKS + 1))
        grep -q "^mpiexec: rank 0 bound to CPUs " "$ERR" || launch_fail "$words: not 2 CPUs"
    done
fi
run -n 1 --cpus-per-rank 0 "$REPORT"
expect_usage_error "^mpiexec: --cpus-per-rank needs a CPU count per rank from 1 to"
run -n 2 --bind-to core:overload-allowed,if-supported "$REPORT"
expect_size 2
run -n 2 --bind-to socket:3 "$REPORT"
expect_usage_error "^mpiexec: --bind-to socket:3: unknown qualifier '3'"
run -n 2 -bind-to machine --report-bindings "$REPORT"
expect_size 2
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: rank 1 not bound" "$ERR" || launch_fail "-bind-to machine bound a rank"

# Ranking: the orders that are nodempi's own are accepted, the others refused.
for by in slot node core hwthread; do
    run -n 2 --rank-by $by "$REPORT"
    expect_size 2
done
run -n 2 --rank-by socket "$REPORT"
expect_usage_error "^mpiexec: --rank-by socket: not supported"

# Hardware threads as slots; oversubscription refused when asked; one rank per node.
run -n 2 --use-hwthread-cpus --report-bindings "$REPORT"
expect_size 2
expect_bindings_as_reported 2
run -n $((CPUS + 1)) --nooversubscribe "$REPORT"
expect_status 1
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: --nooversubscribe: $((CPUS + 1)) ranks need more than" "$ERR" &&
    [ ! -s "$OUT" ] || launch_fail "--nooversubscribe started ranks"
run -n 1 --nooversubscribe "$REPORT"
expect_size 1
run --pernode "$REPORT"
expect_size 1

# Reports: -v names what started; --display-allocation Open MPI's table; -info and -V.
run -n 2 -v "$REPORT"
expect_size 2
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: started rank 1 (pid [0-9]*, app 0): $REPORT" "$ERR" || launch_fail "-v"
run -n 1 --display-allocation "$REPORT"
expect_size 1
expect_line "$OUT" "======================   ALLOCATED NODES   ======================"
CHECKS=$((CHECKS + 1))
grep -Eq "^	$(hostname -s): slots=[0-9]+ max_slots=0 slots_inuse=0 state=UP$" "$OUT" ||
    launch_fail "--display-allocation: no line for this node"
run -info
expect_status 0
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec (nodempi) " "$OUT" || launch_fail "-info"
run -V
expect_status 0

# MPIEXEC_TIMEOUT, read by Open MPI and Hydra, is --timeout's default here too.
LAST_COMMAND="MPIEXEC_TIMEOUT=1 mpiexec -n 1 sleep 30"
MPIEXEC_TIMEOUT=1 "$MPIEXEC" -n 1 sleep 30 < /dev/null > "$OUT" 2> "$ERR"
STATUS=$?
expect_status 124
expect_line "$ERR" "mpiexec: timeout after 1 s"
LAST_COMMAND="MPIEXEC_TIMEOUT=soon mpiexec -n 1 true"
MPIEXEC_TIMEOUT=soon "$MPIEXEC" -n 1 true < /dev/null > "$OUT" 2> "$ERR"
STATUS=$?
expect_usage_error "^mpiexec: MPIEXEC_TIMEOUT needs a number of seconds, not 'soon'"

# Job-wide hosts and counts (Hydra's -hosts, -f, -ppn): every program without its own -n.
run -hosts localhost:2 "$REPORT" : "$REPORT"
expect_status 0
expect_line "$OUT" "rank 3 size 4 appnum 1"
run -ppn 2 "$REPORT" : -n 2 "$REPORT"
expect_status 0
expect_line "$OUT" "rank 3 size 4 appnum 1"
printf -- '%s\n-n 1 %s\n' "$REPORT" "$REPORT" > "$WORK/config"
run -hosts localhost:2 -genv WHERE everywhere -configfile "$WORK/config"
expect_status 0
expect_line "$OUT" "rank 1 size 3 appnum 0"
expect_line "$OUT" "rank 2 size 3 appnum 1"
run -genv WHERE everywhere -env FIRST only -configfile "$WORK/config"
expect_status 0
run -genv WHERE everywhere -env FIRST only "$REPORT" WHERE FIRST : "$REPORT" WHERE FIRST
expect_line "$OUT" "rank 1 env WHERE=everywhere"
expect_line "$OUT" "rank 1 env FIRST unset"
printf -- '%s WHERE FIRST\n-n 1 %s WHERE FIRST\n' "$REPORT" "$REPORT" > "$WORK/config"
run -genv WHERE everywhere -env FIRST only -wdir "$WORK" -configfile "$WORK/config"
expect_status 0
expect_line "$OUT" "rank 1 env WHERE=everywhere"
expect_line "$OUT" "rank 1 env FIRST unset"
expect_line "$OUT" "rank 0 env FIRST=only"
expect_line "$OUT" "rank 0 info wdir=$WORK"
CHECKS=$((CHECKS + 1))
! grep -q "^rank 1 info wdir=$WORK$" "$OUT" || launch_fail "-wdir before -configfile reached line 2"
printf -- '-n 1 -wdir /tmp %s\n' "$REPORT" > "$WORK/config"
run -n 2 -configfile "$WORK/config"
expect_usage_error "^mpiexec: -n given both before -configfile and on the file's first line"
run -wdir "$WORK" -configfile "$WORK/config"
expect_usage_error "^mpiexec: -wdir given both before -configfile and on the file's first line"
run --app "$WORK/config"
expect_size 1

# Accepted and ignored: other nodes and other launchers' internals.
run -n 2 --prefix /opt/openmpi --noprefix -q --preload-binary --preload-files a,b -am none \
    -iface eth0 -launcher ssh -bootstrap slurm -launcher-exec /usr/bin/ssh -rmk user \
    -demux poll -topolib hwloc -disable-x -enable-auto-cleanup -pmi-port -order-nodes ASCENDING \
    -usize SYSTEM "$REPORT"
expect_size 2
run -launcher manual "$REPORT"
expect_usage_error "^mpiexec: -launcher manual: not supported"

# Refused, with the reason.
for option in --rankfile -rf --cpu-set --cpu-list -npersocket; do
    run $option 1 "$REPORT"
    expect_usage_error "^mpiexec: option $option is not supported: ."
done
for option in --timestamp-output --xml -tv -disable-auto-cleanup --enable-recovery \
    -skip-launch-node --nolocal --get-stack-traces; do
    run $option "$REPORT"
    expect_usage_error "^mpiexec: option $option is not supported: ."
done
run -membind core "$REPORT"
expect_usage_error "^mpiexec: option -membind is not supported: ."

launch_pass
