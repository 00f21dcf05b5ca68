#!/bin/bash
# imb.sh - build the Intel MPI Benchmarks (IMB, the legacy C driver in src_c of
# intel/mpi-benchmarks, written by other people) against nodempi, Debian's Open MPI and MPICH,
# and run them. The IMB source is not downloaded and not kept in this repository: pass the
# directory that holds IMB's src_c (how it was reconstructed: docs/external-tests.md, "Intel MPI
# Benchmarks"). Not run by CI. Usage:
#
#   tests/external/imb.sh IMB_SRC [build|check|perf] [BUILD_DIR]
#
#   build   builds IMB-MPI1/-NBC/-RMA/-EXT/-IO for every MPI in MPIS, with and without -DCHECK
#           (IMB's data validation), into WORKDIR/<mpi>[-check]/.
#   check   (default) builds, then runs every benchmark of every executable of the -DCHECK build
#           with -npmin 2 on NP ranks (2 and 4 in one run when NP=4), one job per benchmark, and
#           prints one line per executable/benchmark/MPI: pass, FAIL (IMB's own check), ERROR
#           (exit status) or TIMEOUT. Logs: WORKDIR/logs/.
#   perf    builds, then runs IMB-MPI1 (non-CHECK) for PERF_BENCH on 2 and on 4 ranks, ROUNDS
#           rounds of nodempi/Open MPI/MPICH one after the other, every run under
#           `flock /tmp/nodempi-bench.lock` (2-rank runs also under `chrt -f 10` when root), and
#           prints per rank count/benchmark/size the median over rounds of each MPI (t[usec],
#           t_max for Sendrecv/Exchange, t_avg for collectives, Mbytes/sec for Uniband/Biband)
#           and the ratio nodempi/best peer (tests/external/imb_medians.py). Raw: WORKDIR/perf/.
#
# Known IMB defects (not an MPI's; Open MPI and MPICH fail the same way): with -DCHECK,
# IMB-NBC's Ireduce_scatter(_pure) of this source checks every rank's block against rank 0's
# expected values (pos = 0), so it fails from 2 ranks on; IMB-IO's P_[I]Write_shared checks
# crash (segfault in IMB_cmp_cat), and its P_[I]Read_shared and C_[I]Read_shared checks gather
# into c_info->rdispl, which IO builds leave NULL (MPICH: "Null buffer pointer", Open MPI:
# segfault, nodempi: MPI_ERR_BUFFER). Check mode runs those eight from the non-CHECK build.
#
# BUILD_DIR defaults to ./build (bin/mpicc, bin/mpiexec). Environment: WORKDIR (default
# /tmp/nodempi-imb), MPIS (default "nodempi openmpi mpich"), NP (default 4), TIMEOUT (seconds per
# job, default 300), IMB_ARGS (extra IMB options for check, default "-msglog 0:22 -time 1 -mem 1
# -iter 100"), PERF_BENCH, PERF_ARGS (default "-msglog 0:22 -time 0.5 -iter 1000"), ROUNDS (3).
set -euo pipefail

src=$(cd "${1:?usage: imb.sh IMB_SRC [build|check|perf] [BUILD_DIR]}" && pwd)
mode=${2:-check}
build=$(cd "${3:-build}" && pwd)
work=${WORKDIR:-/tmp/nodempi-imb}
mpis=${MPIS:-nodempi openmpi mpich}
np=${NP:-4}
timeout=${TIMEOUT:-300}
imb_args=${IMB_ARGS:--msglog 0:22 -time 1 -mem 1 -iter 100}
targets="MPI1 NBC RMA EXT IO"
[ -d "$src/src_c" ] && src="$src/src_c"
[ -f "$src/IMB.c" ] || { echo "imb.sh: no IMB.c in $src" >&2; exit 2; }
mkdir -p "$work/logs" "$work/perf"

. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

# run_of MPI N: the launcher command line for N ranks (Open MPI refuses root and >2 ranks on 2
# cores without these flags).
run_of() {
    case $1 in
        nodempi) echo "$build/bin/mpiexec -n $2 --timeout $timeout" ;;
        openmpi) echo "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --oversubscribe -np $2" ;;
        mpich) echo "mpiexec.mpich -n $2" ;;
    esac
}

# IMB's Makefile writes its objects next to the source, so every MPI/flavour gets a copy.
build_one() {
    local mpi=$1 flavour=$2 dir="$work/$1$2" cflags="-O2 -w -DIMB2018"
    [ "$flavour" = -check ] && cflags="$cflags -DCHECK"
    mkdir -p "$dir"
    cp -u "$src"/*.c "$src"/*.h "$src"/Makefile "$dir"/
    for t in $targets; do
        [ -x "$dir/IMB-$t" ] && [ "$dir/IMB-$t" -nt "$(mpicc_of "$mpi")" ] && continue
        make -s -C "$dir" TARGET="$t" CC="$(mpicc_of "$mpi")" CFLAGS="$cflags" \
            > "$work/logs/build-$mpi$flavour-$t.log" 2>&1 ||
            echo "imb.sh: IMB-$t does not build with $mpi$flavour (see $work/logs)" >&2
    done
}

build_all() {
    for mpi in $mpis; do build_one "$mpi" ""; build_one "$mpi" -check; done
}

# Benchmarks per executable (IMB_bnames_*.h of the source plus the two MPI1 additions).
bench_list() {
    case $1 in
        MPI1) echo PingPong PingPongAnySource PingPing PingPingAnySource Sendrecv Exchange \
                   Allreduce Reduce Reduce_local Reduce_scatter Reduce_scatter_block Allgather \
                   Allgatherv Gather Gatherv Scatter Scatterv Alltoall Alltoallv Bcast Barrier \
                   Uniband Biband ;;
        NBC) echo Ibcast Ibcast_pure Iallgather Iallgather_pure Iallgatherv Iallgatherv_pure \
                  Igather Igather_pure Igatherv Igatherv_pure Iscatter Iscatter_pure Iscatterv \
                  Iscatterv_pure Ialltoall Ialltoall_pure Ialltoallv Ialltoallv_pure Ireduce \
                  Ireduce_pure Ireduce_scatter Ireduce_scatter_pure Iallreduce Iallreduce_pure \
                  Ibarrier Ibarrier_pure ;;
        RMA) echo Unidir_put Unidir_get Bidir_put Bidir_get One_put_all One_get_all All_put_all \
                  All_get_all Put_local Put_all_local Get_local Get_all_local Exchange_put \
                  Exchange_get Accumulate Get_accumulate Fetch_and_op Compare_and_swap \
                  Truly_passive_put ;;
        EXT) echo Window Unidir_Put Unidir_Get Bidir_Get Bidir_Put Accumulate ;;
        IO) echo S_Write_indv S_IWrite_indv S_Write_expl S_IWrite_expl P_Write_indv \
                 P_IWrite_indv P_Write_shared P_IWrite_shared P_Write_priv P_IWrite_priv \
                 P_Write_expl P_IWrite_expl C_Write_indv C_IWrite_indv C_Write_shared \
                 C_IWrite_shared C_Write_expl C_IWrite_expl S_Read_indv S_IRead_indv S_Read_expl \
                 S_IRead_expl P_Read_indv P_IRead_indv P_Read_shared P_IRead_shared P_Read_priv \
                 P_IRead_priv P_Read_expl P_IRead_expl C_Read_indv C_IRead_indv C_Read_shared \
                 C_IRead_shared C_Read_expl C_IRead_expl Open_Close ;;
    esac
}

flavour_of() {
    case $1 in
        Ireduce_scatter | Ireduce_scatter_pure | P_Write_shared | P_IWrite_shared | \
            P_Read_shared | P_IRead_shared | C_Read_shared | C_IRead_shared)
            echo "" ;;
        *) echo -check ;;
    esac
}

check_all() {
    local t b mpi log rc verdict
    for t in $targets; do
        for b in $(bench_list "$t"); do
            for mpi in $mpis; do
                log="$work/logs/$t-$b-$mpi-np$np.log"
                rc=0
                (cd "$work/io-$mpi" 2> /dev/null || mkdir -p "$work/io-$mpi" && cd "$work/io-$mpi"
                 nice -n 10 timeout -k 10 $((timeout + 30)) $(run_of "$mpi" "$np") \
                     "$work/$mpi$(flavour_of "$b")/IMB-$t" -npmin 2 $imb_args "$b") > "$log" 2>&1 || rc=$?
                if [ $rc = 124 ] || [ $rc = 137 ] || grep -q "timed out" "$log"; then verdict=TIMEOUT
                elif grep -q "FAILED\|Benchmark unsuccessful\|Error\b" "$log"; then verdict=FAIL
                elif [ $rc != 0 ]; then verdict="ERROR($rc)"
                elif grep -q "ALL BENCHMARKS SUCCESSFUL\|All processes entering MPI_Finalize" "$log"; then verdict=pass
                else verdict=ERROR; fi
                printf '%-5s %-22s %-8s np%s %s\n' "$t" "$b" "$mpi" "$np" "$verdict"
            done
        done
    done
}

perf_all() {
    local benches=${PERF_BENCH:-PingPong PingPing Sendrecv Exchange Uniband Biband Allreduce Bcast Reduce Allgather Alltoall Barrier Gather Scatter}
    local args=${PERF_ARGS:--msglog 0:22 -time 0.5 -iter 1000} round n mpi rt out
    for round in $(seq 1 "${ROUNDS:-3}"); do
        for n in 2 4; do
            for mpi in $mpis; do
                rt=""
                [ "$n" = 2 ] && [ "$(id -u)" = 0 ] && rt="chrt -f 10"
                out="$work/perf/r$round-np$n-$mpi.txt"
                flock /tmp/nodempi-bench.lock timeout -k 10 1200 $rt $(run_of "$mpi" "$n") \
                    "$work/$mpi/IMB-MPI1" -npmin "$n" $args $benches > "$out" 2>&1 ||
                    echo "imb.sh: perf round $round np$n $mpi exited $? (see $out)" >&2
            done
        done
    done
    python3 "$(dirname "$0")/imb_medians.py" "$work/perf" $mpis
}

build_all
case $mode in
    build) ;;
    check) check_all ;;
    perf) perf_all ;;
    *) echo "imb.sh: unknown mode $mode" >&2; exit 2 ;;
esac
