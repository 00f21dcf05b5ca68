#!/bin/bash
# scalapack.sh - run ScaLAPACK 2.2.1's and BLACS' own test programs (Debian 12 package
# scalapack) on nodempi and, side by side, on Debian's Open MPI and MPICH; judge each run by
# the program's own check. Not run by CI (it downloads Debian packages and takes ~1-2 hours on
# 2 cores for the default set). Run it by hand:
#
#   tests/external/scalapack.sh [BUILD_DIR] [PROGRAM...]     e.g.  ... build xdlu xCbtest
#
# Why binaries and not a source build: the Debian mirror reachable here serves ScaLAPACK's
# binary packages but not its source (`apt-get source scalapack`: 404 for the .orig.tar.gz, for
# Debian 12's 2.2.1 and sid's 2.2.3 alike). So the script takes the test programs Debian built
# (package scalapack-mpi-test: linked against libscalapack-openmpi.so.2.2, the BLACS testers also
# against Open MPI's libmpi_mpifh.so.40) and runs them on each MPI by library search path:
#   openmpi  as Debian built them;
#   mpich    libscalapack-openmpi.so.2.2 -> Debian's libscalapack-mpich.so.2.2 (same Fortran
#            interface, BLACS built for MPICH); for the BLACS testers a libmpi_mpifh.so.40 of 9
#            calls that maps Open MPI's Fortran handle values to MPICH's
#            (scalapack-abi/ompi_fortran_on_mpich.c);
#   nodempi  as mpich, with libmpich.so.12 replaced by scalapack-abi/mpich_abi_on_nodempi.c: the
#            ~40 MPICH-ABI calls libscalapack-mpich.so makes, translated to nodempi's MPI-5.0
#            ABI (handles, constants, status layout) and forwarded to BUILD_DIR's libnodempi.so.
# So every MPI runs the same ScaLAPACK code; with nodempi and MPICH also the same BLACS build.
#
# PROGRAMs: any of Debian's testers (xCbtest xFbtest x[sdcz]{lu,qr,llt,inv,ls,...}, xdsyevr ...).
# Default: BLACS testers and the LU, QR, Cholesky, inverse, least squares, eigen drivers below.
# BUILD_DIR defaults to ./build (bin/mpiexec, lib/libnodempi.so, include/../ = source tree for
# mpi.h). Environment: WORKDIR (default /tmp/scalapack-work), MPIS="nodempi openmpi mpich",
# RANKS="4", TIMEOUT=600 seconds per run. Results: WORKDIR/results.txt, one line per run
# (program, MPI, ranks, pass/fail, wall seconds); outputs under WORKDIR/run/PROGRAM-MPI-RANKS.
# Pass: BLACS testers: every section's "... TESTS: n TESTS; p PASSED, s SKIPPED, 0 FAILED."
# and the tester reaches its last test, BLACS_ABORT (so it exits nonzero by design); drivers:
# exit 0, "N tests completed and passed residual checks" with N > 0, "0 tests completed and
# failed residual checks" and "END OF TESTS". Exit status 1 when a nodempi run
# failed. Results and causes: docs/external-tests.md, "ScaLAPACK and BLACS".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
shift || true
programs=${*:-xCbtest xFbtest xdlu xslu xclu xzlu xdqr xsqr xdllt xsllt xdinv xdls xdsyevr xdsep}
work=${WORKDIR:-/tmp/scalapack-work}
mpis=${MPIS:-nodempi openmpi mpich}
ranks=${RANKS:-4}
timeout=${TIMEOUT:-600}
results=$work/results.txt
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$work/debs" "$work/run"
root=$work/debroot
lib=$root/usr/lib/x86_64-linux-gnu
tests=$lib/scalapack/openmpi-tests

# Debian's binary packages, unpacked (not installed) under $root.
if [ ! -x "$tests/xdlu" ]; then
    (cd "$work/debs" && apt-get download scalapack-mpi-test scalapack-test-common \
        libscalapack-openmpi2.2 libscalapack-mpich2.2 > download.log 2>&1) || {
        echo "apt-get download failed: $work/debs/download.log" >&2
        exit 2
    }
    for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
fi
dpkg -s liblapack3 libblas3 > /dev/null 2>&1 || {
    echo "needs liblapack3 libblas3 (apt-get install liblapack-dev libblas-dev)" >&2
    exit 2
}

# The ABI adapters and one library directory per MPI (put first on LD_LIBRARY_PATH).
shim=$work/shim
mkdir -p "$shim/mpich" "$work/abi-openmpi" "$work/abi-mpich" "$work/abi-nodempi"
bash "$here/scalapack-abi/gen-mpich-values.sh" "$src/include/mpi.h" "$shim"
gcc -O2 -fPIC -shared -Wall -Wextra -I"$src/include" -I"$shim" \
    "$here/scalapack-abi/mpich_abi_on_nodempi.c" -o "$shim/libmpich.so.12" \
    -Wl,-soname,libmpich.so.12 -ldl || exit 2
mpicc.mpich -O2 -fPIC -shared -Wall "$here/scalapack-abi/ompi_fortran_on_mpich.c" \
    -o "$shim/mpich/libmpi_mpifh.so.40" -Wl,-soname,libmpi_mpifh.so.40 || exit 2
gcc -O2 -fPIC -shared -Wall -I/usr/include/x86_64-linux-gnu/mpich \
    "$here/scalapack-abi/ompi_fortran_on_mpich.c" -o "$shim/libmpi_mpifh.so.40" \
    -Wl,-soname,libmpi_mpifh.so.40 -L"$shim" -lmpich || exit 2
ln -sf "$lib/libscalapack-openmpi.so.2.2.1" "$work/abi-openmpi/libscalapack-openmpi.so.2.2"
for m in mpich nodempi; do
    ln -sf "$lib/libscalapack-mpich.so.2.2.1" "$work/abi-$m/libscalapack-openmpi.so.2.2"
done
ln -sf "$shim/mpich/libmpi_mpifh.so.40" "$work/abi-mpich/libmpi_mpifh.so.40"
ln -sf "$shim/libmpi_mpifh.so.40" "$work/abi-nodempi/libmpi_mpifh.so.40"
ln -sf "$shim/libmpich.so.12" "$work/abi-nodempi/libmpich.so.12"
export NODEMPI_LIB=$build/lib/libnodempi.so

. "$(dirname "$0")/mpis.sh" # wrapper_of, mpicc_of, mpicxx_of, mpirun_of

# judge FILE PROGRAM: 0 when the program's own checks passed; prints what it counted.
# BLACS testers end on purpose in BLACS_ABORT (their last "auxiliary test"), so their exit
# status is not looked at: each test section prints "<TYPE> <KIND> TESTS: n TESTS; p PASSED,
# s SKIPPED, f FAILED.", and all of them must say 0 FAILED, and the tester must reach the
# BLACS_ABORT test. A driver must finish ("END OF TESTS") with 0 failed residual checks.
judge() {
    local out=$1 prog=$2 sections failed passed skipped
    case $prog in
    x[CF]btest)
        sections=$(grep -Ec 'TESTS: *[0-9]+ TESTS;' "$out")
        failed=$(grep -Ec 'TESTS: *[0-9]+ TESTS;.* [1-9][0-9]* FAILED' "$out")
        echo "$sections sections, $failed failing"
        [ "$sections" -gt 0 ] && [ "$failed" -eq 0 ] &&
            grep -q 'The final auxiliary test is for BLACS_ABORT' "$out"
        ;;
    *)
        passed=$(sed -n 's/^ *\([0-9]*\) tests completed and passed residual.*/\1/p' "$out" | head -1)
        # "... and failed residual checks." (LU, QR, ...) or "... and failed." (eigensolvers)
        failed=$(sed -n 's/^ *\([0-9]*\) tests completed and failed.*/\1/p' "$out" | head -1)
        skipped=$(sed -n 's/^ *\([0-9]*\) tests skipped because.*/\1/p' "$out" | head -1)
        echo "${passed:-?} passed, ${failed:-?} failed, ${skipped:-?} skipped"
        [ "$rc" -eq 0 ] && grep -q 'END OF TESTS' "$out" && [ "${passed:-0}" -gt 0 ] &&
            [ "${failed:-1}" -eq 0 ]
        ;;
    esac
}

nodempi_failed=0
for prog in $programs; do
    for np in $ranks; do
        for mpi in $mpis; do
            dir=$work/run/$prog-$mpi-$np
            rm -rf "$dir" && mkdir -p "$dir"
            cp "$root"/usr/share/scalapack/*.dat "$root"/usr/share/scalapack/BLACS/*.dat "$dir"
            t0=$(date +%s.%N)
            (cd "$dir" && LD_LIBRARY_PATH=$work/abi-$mpi nice -n 19 $(mpirun_of "$mpi") \
                -n "$np" "$tests/$prog" > out.txt 2> err.txt)
            rc=$?
            secs=$(echo "$(date +%s.%N) - $t0" | bc)
            status=fail
            detail=$(judge "$dir/out.txt" "$prog") && status=pass
            [ "$status" = fail ] && [ "$mpi" = nodempi ] && nodempi_failed=1
            printf '%-8s %-8s %s  %-4s rc=%-3s %7.1fs  %s\n' "$prog" "$mpi" "$np" "$status" \
                "$rc" "$secs" "$detail" | tee -a "$results"
        done
    done
done
exit $nodempi_failed
