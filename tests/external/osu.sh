#!/bin/bash
# osu.sh - build the OSU micro-benchmarks (C MPI part: pt2pt, blocking and non-blocking
# collectives, one-sided) with nodempi's mpicc and, side by side, Debian's Open MPI and MPICH;
# run every benchmark for completion and validation, and time the main ones in interleaved
# rounds. Not run by CI (the OSU sources are not shipped here; ~15 min for `check` on 2 cores).
#
#   tests/external/osu.sh SRC_DIR [BUILD_DIR] [build|check|perf|all]     (default: all)
#
# SRC_DIR holds the OSU sources laid out as upstream (c/util, c/mpi/...) plus a build.sh that
# takes (MPICC, OUTDIR), as the reconstruction described in docs/external-tests.md does.
# BUILD_DIR defaults to ./build (bin/mpicc, bin/mpiexec). Environment: WORKDIR (default
# /tmp/nodempi-osu), MPIS="nodempi openmpi mpich", TIMEOUT=120 s per run (TIMEOUT4=40 for timed
# runs above 2 ranks), ROUNDS=3 and FIRST_ROUND=1 (perf),
# LOCK=/tmp/nodempi-bench.lock (held for each round of timed runs), RT=1 (2-rank timed runs under
# chrt -f 10). Results: WORKDIR/check.txt (benchmark, options, MPI, ranks, pass/fail/timeout,
# seconds) and WORKDIR/perf/<round>/<MPI>/<benchmark>.txt; run outputs under WORKDIR/out/.
# Exit status 1 when a nodempi check failed.
set -uo pipefail

src=$(cd "$1" && pwd)
build=$(cd "${2:-build}" && pwd)
what=${3:-all}
work=${WORKDIR:-/tmp/nodempi-osu}
mpis=${MPIS:-nodempi openmpi mpich}
timeout=${TIMEOUT:-120}
rounds=${ROUNDS:-3}
first=${FIRST_ROUND:-1}
t4=${TIMEOUT4:-40}
lock=${LOCK:-/tmp/nodempi-bench.lock}
rt=${RT:-1}
mkdir -p "$work/out" "$work/bin"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

timeout_kill=5 # a launcher that ignores SIGTERM gets SIGKILL 5 s later
. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

do_build() {
    local m
    for m in $mpis; do
        echo "building for $m"
        nice -n 10 "$src/build.sh" "$(mpicc_of "$m")" "$work/bin/$m" > "$work/build-$m.log" 2>&1 \
            || { echo "build for $m failed: $work/build-$m.log"; return 1; }
    done
}

pt2pt="osu_latency osu_bw osu_bibw osu_latency_persistent osu_bw_persistent osu_bibw_persistent osu_mbw_mr osu_multi_lat"
coll="allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast gather gatherv reduce reduce_scatter scatter scatterv"
rma_lat="osu_put_latency osu_get_latency"
rma_bw="osu_put_bw osu_get_bw"
rma_atomic="osu_acc_latency osu_get_acc_latency osu_fop_latency osu_cas_latency"
failed=0

# check1 MPI RANKS BENCH OPTS...: one run; a run fails on a non-zero exit, a validation
# failure printed by the benchmark, or an empty result table.
check1() {
    local m=$1 n=$2 b=$3; shift 3
    local tag out t0 t1 st verdict
    tag="$b$(echo " $*" | tr ' ' '_')"
    out="$work/out/$m-$n-$tag.txt"
    t0=$(date +%s.%N)
    nice -n 10 $(mpirun_of "$m") -n "$n" "$work/bin/$m/$b" "$@" > "$out" 2>&1
    st=$?
    t1=$(date +%s.%N)
    if [ $st = 124 ] || [ $st = 137 ] || grep -q "timed out\|timeout" "$out" && [ $st != 0 ]; then
        verdict=timeout
    elif [ $st != 0 ] || grep -qi "fail\|VALIDATION ERROR" "$out" \
            || ! grep -qE '^[0-9 ]+ +[0-9.]+' "$out"; then
        verdict=fail
    else
        verdict=pass
    fi
    [ "$m" = nodempi ] && [ "$verdict" != pass ] && failed=1
    printf '%s\t%s\t%s\t%s\t%s\t%.1f\n' "$b" "$*" "$m" "$n" "$verdict" "$(echo "$t1 - $t0" | bc)" \
        | tee -a "$work/check.txt"
}

do_check() {
    local m b w s n t
    : > "$work/check.txt"
    for m in $mpis; do
        for b in $pt2pt; do check1 "$m" 2 "$b" -c -x 2 -i 5 -m 0:1048576; done
        check1 "$m" 2 osu_latency_mt -x 2 -i 20 -m 0:65536
        check1 "$m" 2 osu_latency_mt -t 2:2 -c -x 2 -i 20 -m 0:65536
        check1 "$m" 2 osu_latency_mt -t 4:4 -c -x 2 -i 20 -m 0:65536
        check1 "$m" 4 osu_mbw_mr -c -x 2 -i 5 -m 1:65536
        check1 "$m" 4 osu_multi_lat -c -x 2 -i 5 -m 0:65536
        for n in 2 4; do
            for b in $coll; do
                if [ "$b" = barrier ]; then
                    check1 "$m" "$n" osu_barrier -x 10 -i 100
                    check1 "$m" "$n" osu_ibarrier -x 10 -i 100
                else
                    check1 "$m" "$n" "osu_$b" -c -T all -x 2 -i 4 -m 1:262144
                    check1 "$m" "$n" "osu_i$b" -c -T all -x 2 -i 4 -m 1:262144
                fi
                case $b in
                allreduce | reduce | allgather | alltoall | gather)
                    check1 "$m" "$n" "osu_$b" -l -c -T mpi_int -x 2 -i 4 -m 4:262144
                    check1 "$m" "$n" "osu_i$b" -l -c -T mpi_int -x 2 -i 4 -m 4:262144 ;;
                esac
                case $b in
                gather | gatherv | reduce | scatter | scatterv)
                    check1 "$m" "$n" "osu_$b" -k rotate -x 2 -i 8 -m 1:262144
                    check1 "$m" "$n" "osu_i$b" -k rotate -x 2 -i 8 -m 1:262144 ;;
                esac
            done
        done
        for w in create allocate dynamic; do
            for s in lock flush flush_local lock_all fence pscw; do
                for b in $rma_lat $rma_bw; do check1 "$m" 2 "$b" -w $w -s $s -x 2 -i 5 -m 1:262144; done
                for b in $rma_atomic; do
                    # MPI_Compare_and_swap takes integer types only (MPI-4.1 12.3.4): nodempi
                    # and MPICH refuse MPI_FLOAT, so cas runs with MPI_INT
                    if [ "$b" = osu_cas_latency ]; then t=mpi_int; else t=all; fi
                    check1 "$m" 2 "$b" -w $w -s $s -c -T $t -x 2 -i 5 -m 1:65536
                done
            done
            for s in fence pscw; do check1 "$m" 2 osu_put_bibw -w $w -s $s -x 2 -i 5 -m 1:262144; done
        done
    done
}

# perf1 ROUND MPI RANKS BENCH OPTS...: one timed run (the caller holds the shared lock).
perf1() {
    local r=$1 m=$2 n=$3 b=$4; shift 4
    local pre="" out
    [ "$rt" = 1 ] && [ "$n" = 2 ] && [ "$(id -u)" = 0 ] && pre="chrt -f 10"
    out="$work/perf/$r/$m/$b-n$n$(echo " $*" | tr ' ' '_').txt"
    mkdir -p "$(dirname "$out")"
    $pre $(mpirun_of "$m") -n "$n" "$work/bin/$m/$b" "$@" > "$out" 2>&1 9>&- \
        || echo "exit $? (timeout $timeout s?)" >> "$out"
}

# triple ROUND RANKS BENCH OPTS...: the MPIs one after the other, so they see the same machine.
triple() {
    local r=$1 n=$2 b=$3 m timeout=$timeout; shift 3
    # oversubscribed, MPICH's busy polling makes a run take minutes: a shorter limit, recorded
    [ "$n" -gt 2 ] && timeout=$t4
    for m in $mpis; do perf1 "$r" "$m" "$n" "$b" "$@"; done
}

# A round (~3-5 min) holds the shared lock throughout: each run is short and the lock's other
# users hold it for minutes, so taking it per run or per triple made a round wait ~40 min.
do_perf() {
    local r b
    for r in $(seq "$first" "$rounds"); do
        exec 9> "$lock"
        flock 9
        echo "round $r: $(date -u +%T)"
        for b in osu_latency osu_bw osu_bibw osu_mbw_mr osu_multi_lat; do
            triple "$r" 2 "$b" -m 1:1048576
        done
        for b in allreduce bcast barrier reduce allgather alltoall gather scatter; do
            triple "$r" 2 "osu_$b" -m 1:1048576
        done
        for b in osu_put_latency osu_get_latency osu_put_bw osu_get_bw; do
            triple "$r" 2 "$b" -m 1:1048576
        done
        for b in allreduce bcast barrier reduce allgather alltoall gather scatter; do
            triple "$r" 4 "osu_$b" -m 1:65536 -i 100 -x 10
        done
        echo "round $r done: $(date -u +%T)"
        flock -u 9
        exec 9>&-
        sleep 20 # let the lock's other users in between rounds
    done
}

case $what in
build) do_build ;;
check) do_check ;;
perf) do_perf ;;
all) do_build && do_check && do_perf ;;
*) echo "usage: $0 SRC_DIR [BUILD_DIR] [build|check|perf|all]"; exit 2 ;;
esac
exit $failed
