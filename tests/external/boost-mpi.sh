#!/bin/bash
# boost-mpi.sh - build Boost.MPI's own test suite (Boost 1.81, Debian 12's source package
# boost1.81) with nodempi's mpicxx and, side by side, with Debian's Open MPI and MPICH, and run
# each test at the rank counts of its Jamfile (libs/mpi/test/Jamfile.v2), interleaved: nodempi,
# Open MPI, MPICH for one test and rank count, then the next. A run passes when mpiexec exits 0
# (the tests check their results with Boost.Test or assert; the examples only run). Not run by
# CI (it downloads 74 MB from Debian and took ~60 minutes on 2 shared cores: ~20 building the
# libraries, ~18 the programs, 22 running them, 15 of those the three 300 s timeouts of
# generate_collect_optional, an example that hangs with every MPI: see docs/external-tests.md).
# Run it by hand:
#
#   tests/external/boost-mpi.sh [BUILD_DIR] [TEST...]      e.g.  ... build ring_test scan_test
#
# Boost's own build tool is not used: Debian's upstream tarball lacks b2's generated parser
# (jamgram.cpp), so bootstrap.sh fails. Instead the script links the header tree (what
# `b2 headers` does: every libs/*/include/boost merged into WORKDIR/inc/boost by symlinks),
# compiles Boost.Serialization once with g++ (it uses no MPI), Boost.MPI's libs/mpi/src/*.cpp
# once per MPI with that MPI's mpicxx into a static library, and every test with the same
# mpicxx. The tests include Boost.Test's header-only form (<boost/test/included/unit_test.hpp>),
# whose implementation costs ~10 of the ~14 CPU seconds of each test's compile; the script
# compiles that implementation once with g++ into Boost.Test's static library
# (libs/test/build/Jamfile.v2's UTF_SOURCES) and puts a header of the same name first on the
# include path (WORKDIR/shim) that includes <boost/test/unit_test.hpp> instead, which is
# Boost.Test's documented static-library usage: the same framework, main() from the library.
# BUILD_DIR defaults to ./build (bin/mpicxx, bin/mpiexec). Environment: WORKDIR=dir (default
# /tmp/boost-work, reused: sources, libraries and test programs are kept), MPIS="nodempi openmpi
# mpich", MAXRANKS=24 (larger counts of the table below are skipped), TIMEOUT=300 seconds per
# run, JOBS=2 (parallel compiles). Results: WORKDIR/results.txt, one line per run (test, ranks,
# MPI, pass/fail(exit status)/build, wall seconds), outputs under WORKDIR/run/, compiler output
# in WORKDIR/tests/MPI/TEST.log. Results and the failures' causes: docs/external-tests.md
# ("Boost.MPI"). Exit status 1 when a nodempi run failed.
set -uo pipefail

build=$(cd "${1:-build}" && pwd)
shift || true
work=${WORKDIR:-/tmp/boost-work}
mpis=${MPIS:-nodempi openmpi mpich}
maxranks=${MAXRANKS:-24}
timeout=${TIMEOUT:-300}
jobs=${JOBS:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The tests and their rank counts: libs/mpi/test/Jamfile.v2's, except that 4 is added where a
# list skips it (all_gather, all_reduce, all_to_all, gather: 1 2 11; broadcast: 2 17;
# nonblocking: 2 11 24; cartesian_topology: 24), the default schedule of mpi-test (reduce, scan,
# scatter, groups: 1 2 3 4 7 8 13 17) is cut to 1 2 4, ring and skeleton_content lose 13 and 17
# and sendrecv 48 (time on 2 cores). block_nonblock_test is listed twice there (b2nb, nb2b)
# with the same source and arguments; it is run once. Three of the Jamfile's programs are
# examples (libs/mpi/example); the last twelve lines are the other examples, which are not in the
# Jamfile and check nothing but run to completion (exit 0); parallel_example is left out, it
# needs <boost/random/parallel.hpp>, which Boost 1.81 does not have.
tests_and_ranks="
version_test 1
block_nonblock_test 2
random_gather 2
random_scatter 2
cartesian_communicator 24
cartesian_topology_init_test 1
broadcast_stl_test 2
all_gather_test 1,2,4,11
all_reduce_test 1,2,4,11
all_to_all_test 1,2,4,11
broadcast_test 2,4,17
gather_test 1,2,4,11
is_mpi_op_test 1
mt_level_test 1
mt_init_test 1,4
nonblocking_test 2,4,11,24
reduce_test 1,2,4
ring_test 2,3,4,7,8
sendrecv_test 1,4,7
wait_any_test 1,4,7,20
wait_all_vector_test 2
wait_all_on_null 1,2
scan_test 1,2,4
scatter_test 1,2,4
skeleton_content_test 2,3,4,7,8
graph_topology_test 2,7,13
cartesian_topology_test 4,24
pointer_test 2
groups_test 1,2,4
sendrecv_vector 2
non_blocking_any_source 2,17
hello_world 2
hello_world_broadcast 2,4
hello_world_groups 2,4
hello_world_nonblocking 2
global_min 2,4
in_place_global_min 2,4
random_min 2,4
string_cat 2,4
random_content 2,4
generate_collect 3,4
generate_collect_optional 4
reduce_performance_test 2,4
"
selected=${*:-$(echo "$tests_and_ranks" | awk 'NF { print $1 }')}

. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

. "$(dirname "$0")/debian-source.sh"

# fetch: unpack Boost 1.81's upstream tarball from Debian's archive into $work/boost.
fetch() {
    mkdir -p "$work"
    [ -d "$work/boost/libs/mpi" ] && return 0
    if ! ls "$work"/boost1.81_*.orig.tar.* > /dev/null 2>&1; then
        debian_source_enable boost1.81
        (cd "$work" && apt-get source --download-only boost1.81 > "$work/fetch.log" 2>&1)
    fi
    tar -xf "$(ls "$work"/boost1.81_*.orig.tar.* | head -1)" -C "$work"
}

# headers: the merged include tree `b2 headers` would make, as symlinks.
headers() {
    [ -e "$work/inc/boost/mpi.hpp" ] && return 0
    mkdir -p "$work/inc"
    local d
    for d in "$work"/boost/libs/*/include "$work"/boost/libs/numeric/*/include; do
        [ -d "$d/boost" ] && cp -rs --remove-destination "$d/boost" "$work/inc/"
    done
}

# library NAME SRCDIR CXX OUTDIR [SOURCE...]: compile the SOURCEs (default: all) of SRCDIR/*.cpp
# with CXX into OUTDIR/libNAME.a.
library() {
    local name=$1 src=$2 cxx=$3 out=$4 objs='$(patsubst '"$2"'/%.cpp,%.o,$(wildcard '"$2"'/*.cpp))'
    shift 4
    [ $# -gt 0 ] && objs=$(printf '%s.o ' "$@")
    mkdir -p "$out"
    cat > "$out/Makefile" <<EOF
OBJ := $objs
lib$name.a: \$(OBJ)
	ar rcs \$@ \$^
%.o: $src/%.cpp
	$cxx -std=c++14 -O1 -fPIC -I$work/inc -DBOOST_ALL_NO_LIB -c \$< -o \$@
EOF
    if ! make -C "$out" -j"$jobs" > "$out/make.log" 2>&1; then
        echo "building $out failed: $out/make.log"
        return 1
    fi
}

source_of() {
    case $1 in
    random_gather | random_scatter | cartesian_communicator | hello_world* | global_min | \
        in_place_global_min | random_min | string_cat | random_content | generate_collect* | \
        reduce_performance_test) echo "$work/boost/libs/mpi/example/$1.cpp" ;;
    *) echo "$work/boost/libs/mpi/test/$1.cpp" ;;
    esac
}

# tests MPI: compile every selected test with MPI's mpicxx (make runs JOBS at a time).
compile_tests() {
    local mpi=$1 out=$work/tests/$1 t
    mkdir -p "$out"
    {
        echo "all:" $selected
        for t in $selected; do
            echo "$t: $(source_of "$t") $work/mpilib/$mpi/libboost_mpi.a"
            printf '\t-%s -std=c++14 -O0 -I%s -I%s -DBOOST_ALL_NO_LIB %s -o %s %s %s %s' \
                "$(mpicxx_of "$mpi")" "$work/shim" "$work/inc" "$(source_of "$t")" "$t" \
                "$work/mpilib/$mpi/libboost_mpi.a" "$work/ser/libserialization.a" \
                "$work/utf/libunit_test_framework.a"
            printf ' > %s.log 2>&1\n' "$t"
        done
    } > "$out/Makefile"
    make -C "$out" -j"$jobs" > /dev/null 2>&1
}

# record TEST RANKS MPI STATUS SECONDS
record() {
    printf '%-30s %3s %-8s %-5s %s\n' "$@" | tee -a "$work/results.txt"
}

fetch && headers || exit 1
library serialization "$work/boost/libs/serialization/src" g++ "$work/ser" || exit 1
library unit_test_framework "$work/boost/libs/test/src" g++ "$work/utf" compiler_log_formatter \
    debug decorator execution_monitor framework plain_report_formatter progress_monitor \
    results_collector results_reporter test_framework_init_observer test_tools test_tree \
    unit_test_log unit_test_main unit_test_monitor unit_test_parameters junit_log_formatter \
    xml_log_formatter xml_report_formatter || exit 1
mkdir -p "$work/shim/boost/test/included"
cat > "$work/shim/boost/test/included/unit_test.hpp" <<'EOF'
// Boost.Test as a static library (boost-mpi.sh builds it): the tests' header-only include,
// without compiling the framework's implementation into every test.
#include <boost/test/unit_test.hpp>
EOF
for mpi in $mpis; do
    library boost_mpi "$work/boost/libs/mpi/src" "$(mpicxx_of "$mpi")" "$work/mpilib/$mpi" || exit 1
    compile_tests "$mpi"
done

mkdir -p "$work/run"
failed=0
for t in $selected; do
    ranks=$(echo "$tests_and_ranks" | awk -v t="$t" '$1 == t { gsub(",", " ", $2); print $2 }')
    for n in $ranks; do
        [ "$n" -le "$maxranks" ] || continue
        for mpi in $mpis; do
            exe=$work/tests/$mpi/$t
            log=$work/run/$t.$n.$mpi.log
            if [ ! -x "$exe" ]; then
                record "$t" "$n" "$mpi" build 0
                [ "$mpi" = nodempi ] && failed=1
                continue
            fi
            start=$(date +%s.%N)
            (cd "$work/run" && $(mpirun_of "$mpi") -n "$n" "$exe") > "$log" 2>&1 < /dev/null
            rc=$?
            secs=$(echo "$(date +%s.%N) - $start" | bc)
            if [ $rc -eq 0 ]; then
                record "$t" "$n" "$mpi" pass "$(printf %.1f "$secs")"
            else
                record "$t" "$n" "$mpi" "fail($rc)" "$(printf %.1f "$secs")"
                [ "$mpi" = nodempi ] && failed=1
            fi
        done
    done
done
exit $failed
