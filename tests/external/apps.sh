#!/bin/bash
# apps.sh - build MPI applications written by other people (NAS Parallel Benchmarks 3.4 MPI:
# IS, CG, MG, FT, EP; LULESH 2.0) with nodempi's wrappers and, side by side, with Debian's Open
# MPI and MPICH; run each at its rank counts and judge the run by the program's own check:
# NPB prints "Verification = SUCCESSFUL"; LULESH's "Final Origin Energy" must be the one the
# peers print. Not run by CI (the sources are not in this repository and a run takes 20-60
# minutes on 2 cores). Run it by hand:
#
#   tests/external/apps.sh SRC_DIR [BUILD_DIR]        e.g.  ... /tmp/apps-src build
#
# SRC_DIR holds NPB3.4-MPI/ (the benchmark directories IS CG MG FT EP, each with its .f/.c files
# and mpinpb.f, and common/ with print_results.f, timers.f, randi8.f or randdp.f,
# c_print_results.c, c_timers.c, c_timers.h) and lulesh/ (lulesh*.cc, lulesh*.h). How they
# were put together from the upstream repositories: docs/external-tests.md, "NAS Parallel
# Benchmarks, HPCG, LULESH". NPB's own make system is not used: npbparams.h is written here
# (the per-class parameters of NPB's sys/setparams.c) and the files are compiled in module
# order. Environment: WORKDIR (default /tmp/nodempi-apps; builds kept), MPIS="nodempi openmpi
# mpich", CLASSES="S W", RANKS="1 2 4" (NPB; LULESH runs at 1 and 8), TIMEOUT=300 seconds per
# run, ROUNDS=0 (when >0: that many interleaved timing rounds of class A and LULESH, each run
# under flock /tmp/nodempi-bench.lock). Results: WORKDIR/results.txt, one line per run
# (program, class, MPI, ranks, pass/fail, the program's own time). Exit status 1 when a
# nodempi run failed.
set -uo pipefail

src=$(cd "${1:?usage: apps.sh SRC_DIR [BUILD_DIR]}" && pwd)
build=$(cd "${2:-build}" && pwd)
work=${WORKDIR:-/tmp/nodempi-apps}
mpis=${MPIS:-nodempi openmpi mpich}
classes=${CLASSES:-S W}
ranks=${RANKS:-1 2 4}
timeout=${TIMEOUT:-300}
rounds=${ROUNDS:-0}
npb_programs="is cg mg ft ep"
mkdir -p "$work"
results=$work/results.txt
: > "$results"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

# npbparams PROGRAM CLASS: what NPB 3.4's setparams writes for it (S, W, A).
npbparams() {
    local f="        " p=$1 c=$2
    if [ "$p" = is ]; then
        echo "#define CLASS '$c'"
        for kv in "COMPILETIME=(apps.sh)" NPBVERSION=3.4 MPICC=mpicc CFLAGS=-O2 CLINK=mpicc \
            CLINKFLAGS=-O2 "CMPI_LIB=(none)" "CMPI_INC=(none)"; do
            echo "#define ${kv%%=*} \"${kv#*=}\""
        done
        return
    fi
    echo "c CLASS = $c"
    case $p$c in
    cgS) set -- 1400 7 15 10. ;; cgW) set -- 7000 8 15 12. ;; cgA) set -- 14000 11 15 20. ;;
    mgS) set -- 32 4 5 ;; mgW) set -- 128 4 7 ;; mgA) set -- 256 4 8 ;;
    ftS) set -- 64 64 64 ;; ftW) set -- 128 128 32 ;; ftA) set -- 256 256 128 ;;
    epS) set -- 24 ;; epW) set -- 25 ;; epA) set -- 28 ;;
    esac
    case $p in
    cg) echo "${f}integer na, nonzer, niter"
        echo "${f}double precision shift, rcond"
        echo "${f}parameter (na=$1, nonzer=$2, niter=$3, shift=$4, rcond=1.0d-1)" ;;
    mg) echo "${f}integer nx_default, ny_default, nz_default"
        echo "${f}parameter (nx_default=$1, ny_default=$1, nz_default=$1)"
        echo "${f}integer nit_default, lt_default"
        echo "${f}parameter (nit_default=$2, lt_default=$3)"
        echo "${f}integer debug_default"
        echo "${f}parameter (debug_default=0)" ;;
    ft) local m=$1
        [ "$2" -gt "$m" ] && m=$2
        [ "$3" -gt "$m" ] && m=$3
        echo "${f}integer nx, ny, nz, maxdim, niter_default"
        echo "${f}parameter (nx=$1, ny=$2, nz=$3, maxdim=$m)"
        echo "${f}parameter (niter_default=6)" ;;
    ep) echo "${f}character class"
        echo "${f}parameter (class='$c')"
        echo "${f}integer m"
        echo "${f}parameter (m=$1)" ;;
    esac
    echo "${f}logical convertdouble"
    echo "${f}parameter (convertdouble = .false.)"
    for kv in "compiletime=(apps.sh)" npbversion=3.4 cs1=mpifort cs2=mpifort "cs3=(none)" \
        "cs4=(none)" cs5=-O2 cs6=-O2 cs7=rand; do
        echo "${f}character*${#kv} ${kv%%=*}"
        echo "${f}parameter (${kv%%=*}='${kv#*=}')"
    done
}

# npb_build MPI PROGRAM CLASS: $work/MPI/PROGRAM.CLASS
npb_build() {
    local mpi=$1 p=$2 c=$3 npb=$src/NPB3.4-MPI P d f objs rand
    P=$(echo "$p" | tr a-z A-Z)
    d=$work/$mpi/obj-$p-$c
    [ -x "$work/$mpi/$p.$c" ] && return 0
    rm -rf "$d" && mkdir -p "$d/common" && cp "$npb/$P"/* "$d/" || return 1
    npbparams "$p" "$c" > "$d/npbparams.h"
    if [ "$p" = is ]; then
        cp "$npb/common/c_timers.h" "$d/common/"
        (cd "$d" && nice -n 10 "$(wrapper_of "$mpi" cc)" -O2 -I. -Icommon -o "../$p.$c" is.c \
            "$npb/common/c_print_results.c" "$npb/common/c_timers.c" -lm) > "$d/build.log" 2>&1
        return
    fi
    rand=$npb/common/randi8.f
    [ -f "$rand" ] || rand=$npb/common/randdp.f
    objs=""
    # The modules first (mpinpb, then the program's data module), then the rest.
    for f in "$npb/common/timers.f" mpinpb.f "${p}_data.f" $(cd "$d" && ls *.f |
        grep -v -e '^mpinpb.f$' -e "^${p}_data.f$") "$npb/common/print_results.f" "$rand"; do
        [ -f "$f" ] || [ -f "$d/$f" ] || continue
        (cd "$d" && nice -n 10 "$(wrapper_of "$mpi" fort)" -O2 -fallow-argument-mismatch -w \
            -c "$f") >> "$d/build.log" 2>&1 || return 1
        objs="$objs $(basename "${f%.f}").o"
    done
    # shellcheck disable=SC2086 # objs is a word list
    (cd "$d" && "$(wrapper_of "$mpi" fort)" -o "../$p.$c" $objs) >> "$d/build.log" 2>&1
}

lulesh_build() {
    local mpi=$1
    [ -x "$work/$mpi/lulesh" ] && return 0
    (cd "$src/lulesh" && nice -n 10 "$(wrapper_of "$mpi" cxx)" -O2 -DUSE_MPI=1 -w \
        -o "$work/$mpi/lulesh" lulesh.cc lulesh-comm.cc lulesh-init.cc lulesh-util.cc \
        lulesh-viz.cc -lm) > "$work/$mpi/lulesh-build.log" 2>&1
}

# record PROGRAM CLASS MPI RANKS STATUS TIME
record() {
    printf '%-7s %-10s %-8s %2s  %-5s %s\n' "$@" | tee -a "$results"
}

# run_npb MPI RANKS PROGRAM CLASS [lock]: one run; records it.
run_npb() {
    local mpi=$1 np=$2 p=$3 c=$4 lock=${5:-} out status t
    out=$work/$mpi/out-$p.$c-$np.txt
    (cd "$work/$mpi" && $lock $(mpirun_of "$mpi") -n "$np" "./$p.$c" > "$out" 2>&1)
    status=fail
    grep -q "Verification    = *SUCCESSFUL" "$out" && status=pass
    t=$(awk '/Time in seconds/ {print $NF}' "$out")
    record "$p" "$c" "$mpi" "$np" "$status" "${t:-?}s"
}

# run_lulesh MPI RANKS ARGS [lock]: the status is the final origin energy, compared below.
run_lulesh() {
    local mpi=$1 np=$2 args=$3 lock=${4:-} out e t
    out=$work/$mpi/out-lulesh-$np.txt
    # shellcheck disable=SC2086 # args is a word list
    (cd "$work/$mpi" && $lock $(mpirun_of "$mpi") -n "$np" ./lulesh $args > "$out" 2>&1)
    e=$(awk '/Final Origin Energy/ {print $NF}' "$out")
    t=$(awk '/Elapsed time/ {print $4}' "$out")
    record lulesh "${args// /}" "$mpi" "$np" "${e:-none}" "${t:-?}s"
}

bad=0
for mpi in $mpis; do
    mkdir -p "$work/$mpi"
    for p in $npb_programs; do
        for c in $classes $([ "$rounds" -gt 0 ] && echo A); do
            npb_build "$mpi" "$p" "$c" || { record "$p" "$c" "$mpi" - build-fail -; bad=1; }
        done
    done
    lulesh_build "$mpi" || { record lulesh - "$mpi" - build-fail -; bad=1; }
done

for p in $npb_programs; do
    for c in $classes; do
        for np in $ranks; do
            for mpi in $mpis; do run_npb "$mpi" "$np" "$p" "$c"; done
        done
    done
done
for np in 1 8; do
    for mpi in $mpis; do run_lulesh "$mpi" "$np" "-s 10 -i 50"; done
    energies=$(grep "^lulesh  -s10-i50 .* $np  " "$results" | awk '{print $5}' | sort -u | wc -l)
    [ "$energies" = 1 ] || { echo "lulesh at $np ranks: the MPIs disagree on the energy"; bad=1; }
done

# Timing rounds: nodempi, Open MPI, MPICH one after the other for each program and rank count.
lock="flock /tmp/nodempi-bench.lock"
for round in $(seq 1 "$rounds"); do
    for p in is cg mg ft; do
        for np in $ranks; do
            for mpi in $mpis; do run_npb "$mpi" "$np" "$p" A "$lock"; done
        done
    done
    for mpi in $mpis; do run_lulesh "$mpi" 1 "-s 15 -i 100" "$lock"; done
    for mpi in $mpis; do run_lulesh "$mpi" 8 "-s 10 -i 50" "$lock"; done
done

grep -q ' nodempi .* fail ' "$results" && bad=1
exit $bad
