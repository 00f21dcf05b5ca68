#!/bin/bash
# hypre-scotch.sh - build two real MPI libraries from Debian 12 source packages, hypre 2.26.0 and
# PT-Scotch 7.0.3, with nodempi's wrappers and, side by side, with Debian's Open MPI and MPICH,
# then run each library's own tests under each MPI's launcher and judge every run by the
# suite's own verdict. Not run by CI (it downloads sources from Debian and takes ~40-60 minutes
# on 2 cores: most of it the six builds). Run it by hand:
#
#   tests/external/hypre-scotch.sh [BUILD_DIR] [PART...]     e.g.  ... build scotch
#
# PARTs:
#   hypre  hypre's test drivers ij, struct and sstruct on their default problems at each rank
#          count of RANKS (-P 1 1 N; pass: exit 0, nothing on stderr, final relative residual
#          below 1e-6), then hypre's own regression scripts (src/test/runtest.sh with -mpi, the
#          TEST_<dir>/<name>.sh of HYPRE_TESTS; each script runs its .jobs file at the rank
#          counts the script chose, 1-8, and passes when its .err file is empty: no stderr from
#          any run, the ranks agree, and the numbers match hypre's .saved files within -rtol 1e-6).
#   scotch PT-Scotch's parallel checks (src/check, the targets of `make ptcheck`), each run as
#          written (3 and 4 ranks) and again with the 3-rank runs at 2 ranks (variant "np2").
#          Pass: make's exit status (the test programs exit non-zero on a failed check, and the
#          dgscat/dggath round trip is compared with diff).
# Default: both. BUILD_DIR defaults to ./build (bin/mpicc, bin/mpiexec). Environment:
# WORKDIR=dir (default /tmp/nodempi-hypre-scotch, reused: sources and builds are kept),
# MPIS="nodempi openmpi mpich", RANKS="1 2 4", TIMEOUT=600 seconds per run, HYPRE_TESTS (see
# below), NICE=19. Results: WORKDIR/results.txt, one line per run (program, test, MPI, ranks,
# pass/fail, wall seconds); outputs under WORKDIR/run/ (hypre scripts: the TEST_* directory
# of that MPI's build). Results and the failures' causes: docs/external-tests.md. Exit status 1
# when a nodempi run failed. Do not run two instances on one WORKDIR at once: runtest.sh copies
# the driver into TEST_<dir>/ before every run ("Text file busy" for the other instance).
set -uo pipefail

build=$(cd "${1:-build}" && pwd)
shift || true
parts=${*:-hypre scotch}
work=${WORKDIR:-/tmp/nodempi-hypre-scotch}
mpis=${MPIS:-nodempi openmpi mpich}
ranks=${RANKS:-1 2 4}
timeout=${TIMEOUT:-600}
nice=${NICE:-19}
hypre_tests=${HYPRE_TESTS:-TEST_ij/default TEST_ij/solvers TEST_ij/matrix TEST_ij/interp
TEST_struct/solvers TEST_struct/periodic TEST_sstruct/solvers TEST_sstruct/default3d
TEST_sstruct/neumann TEST_sstruct/maxwell}
mkdir -p "$work/run"
results=$work/results.txt
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

launch_prefix="nice -n $nice" # every job of this runner niced
. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

# fetch PKG: the upstream source of Debian 12 package PKG, unpacked under $work/src.
. "$(dirname "$0")/debian-source.sh"
fetch() { debian_source_fetch "$@"; }

# record PROGRAM TEST MPI RANKS STATUS SECONDS
record() {
    printf '%-7s %-28s %-8s %-3s  %-5s %7.1fs\n' "$@" | tee -a "$results"
}

# timed CMD...: run CMD, set $rc and $secs (wall).
timed() {
    local t0
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
}

# hypre: its autoconf build in src/ (in place, so one copy of the tree per MPI), the bundled
# BLAS and LAPACK, no Fortran; then the test drivers (maxwell_unscaled for TEST_sstruct/maxwell).
hypre_build() {
    local mpi=$1 src dst
    src=$(fetch hypre)
    dst=$work/hypre-$mpi
    if [ ! -f "$dst/src/hypre/lib/libHYPRE.a" ]; then
        rm -rf "$dst" && cp -r "$src" "$dst"
        (cd "$dst/src" &&
            nice -n "$nice" ./configure CC="$(mpicc_of "$mpi")" CXX="$(mpicxx_of "$mpi")" \
                CFLAGS=-O2 CXXFLAGS=-O2 --disable-fortran > configure.log 2>&1 &&
            nice -n "$nice" make > make.log 2>&1) || return 1
    fi
    (cd "$dst/src/test" &&
        nice -n "$nice" make ij struct sstruct maxwell_unscaled > make-test.log 2>&1)
}

# hypre_driver_ok OUT ERR: exit status 0 (in $rc), empty stderr, and every "Final Relative
# Residual Norm" below 1e-6 (the drivers' default tolerance for their default solvers).
hypre_driver_ok() {
    [ "$rc" = 0 ] && [ ! -s "$2" ] && grep -q 'Final Relative Residual Norm' "$1" &&
        awk '/Final Relative Residual Norm/ { if ($NF + 0 >= 1e-6) bad = 1 } END { exit bad }' "$1"
}

hypre_run() {
    local mpi np d dir status t log
    for np in $ranks; do
        for d in ij struct sstruct; do
            for mpi in $mpis; do
                dir=$work/run/hypre-$d-$mpi-$np
                rm -rf "$dir" && mkdir -p "$dir"
                cp "$work/hypre-$mpi/src/test/TEST_sstruct/sstruct.in.default" "$dir/"
                cd "$dir" || return 1
                timed $(mpirun_of "$mpi") -n "$np" "$work/hypre-$mpi/src/test/$d" -P 1 1 "$np" \
                    > out.txt 2> err.txt
                cd - > /dev/null
                status=fail
                hypre_driver_ok "$dir/out.txt" "$dir/err.txt" && status=pass
                record hypre "$d" "$mpi" "$np" "$status" "$secs"
            done
        done
    done
    # runtest.sh (a bash script with a /bin/sh line) replaces a .jobs line's "mpirun -np" with
    # the -mpi prefix and stores the runs' stderr, the script's comparisons and runcheck.sh's
    # comparison with the .saved numbers in TEST_<dir>/<name>.err. hypre's `make checkpar`
    # means a relative tolerance of 1e-6 but writes it "-tol 1.e-06", which runtest.sh does
    # not know (it stops: "test command file -tol does not exist"): -rtol 1e-6 here.
    for t in $hypre_tests; do
        for mpi in $mpis; do
            cd "$work/hypre-$mpi/src/test" || return 1
            log=$work/run/hypre-$(echo "$t" | tr / -)-$mpi
            rm -f "$t".out* "$t".err*
            timed bash ./runtest.sh -rtol 1e-6 -mpi "$(mpirun_of "$mpi") -np" "$t.sh" \
                > "$log.log" 2>&1
            status=fail
            [ -f "$t.err" ] && [ ! -s "$t.err" ] && status=pass
            [ -f "$t.err" ] && cp "$t.err" "$log.err"
            cd - > /dev/null
            record hypre "$t" "$mpi" "-" "$status" "$secs"
        done
    done
}

# PT-Scotch: the upstream Linux x86-64 Makefile.inc with the MPI's mpicc for the parallel part
# (CCP) and for ptdummysizes (CCD), which measures structures holding an MPI_Comm: it must see
# the same mpi.h as the library.
scotch_build() {
    local mpi=$1 src dst cc
    src=$(fetch scotch)
    dst=$work/scotch-$mpi
    [ -f "$dst/lib/libptscotch.a" ] && [ -x "$dst/bin/dgord" ] && return 0
    rm -rf "$dst" && cp -r "$src" "$dst"
    cc=$(mpicc_of "$mpi")
    sed -e "s#^CCP.*#CCP		= $cc#" -e "s#^CCD.*#CCD		= $cc#" \
        "$dst/src/Make.inc/Makefile.inc.x86-64_pc_linux2" > "$dst/src/Makefile.inc"
    (cd "$dst/src" && nice -n "$nice" make ptscotch > make.log 2>&1)
}

scotch_checks="check_strat_par check_scotch_dgraph_check check_scotch_dgraph_band
check_scotch_dgraph_coarsen check_scotch_dgraph_grow check_scotch_dgraph_induce
check_scotch_dgraph_redist check_prog_dgord check_prog_dgpart check_prog_dgscat-dggath
check_prog_dgtst"

# scotch_make MPI ARGS...: make in MPI's src/check with ptcheck's variables.
scotch_make() {
    local mpi=$1
    shift
    (cd "$work/scotch-$mpi/src/check" &&
        make CFLAGS="$(sed -n 's/^CFLAGS[[:space:]]*=//p' ../Makefile.inc) -DSCOTCH_PTSCOTCH" \
            CC="$(mpicc_of "$mpi")" SCOTCHLIBS="-lptscotch -lscotch -lptscotcherr" "$@")
}

scotch_run() {
    local mpi t variant p3 dir status
    for mpi in $mpis; do
        scotch_make "$mpi" realclean > /dev/null 2>&1
        scotch_make "$mpi" $(echo "$scotch_checks" | sed 's/check_/test_/g; s/test_prog_[^ ]*//g') \
            > "$work/run/scotch-$mpi-build-checks.log" 2>&1
    done
    for variant in as-written np2; do
        for t in $scotch_checks; do
            [ "$variant" = np2 ] && [ "$t" = check_strat_par ] && continue # no MPI run
            for mpi in $mpis; do
                p3=3
                [ "$variant" = np2 ] && p3=2
                dir=$work/run/scotch-$variant-$t-$mpi
                timed scotch_make "$mpi" "EXECP3=$(mpirun_of "$mpi") -n $p3" \
                    "EXECP4=$(mpirun_of "$mpi") -n 4" TMPDIR=/tmp "$t" > "$dir.log" 2>&1
                status=fail
                [ "$rc" = 0 ] && status=pass
                record scotch "$t" "$mpi" "$([ "$t" = check_strat_par ] && echo 1 || echo "$p3/4")" \
                    "$status" "$secs"
            done
        done
    done
}

bad=0
for part in $parts; do
    for mpi in $mpis; do
        if ! "${part}_build" "$mpi"; then
            record "$part" build "$mpi" - fail 0
            [ "$mpi" = nodempi ] && bad=1
        fi
    done
    "${part}_run"
done
grep -q ' nodempi .* fail ' "$results" && bad=1
exit $bad
