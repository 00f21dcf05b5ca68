#!/bin/bash
# foreign_abi.sh - a program built against another MPI's standard-ABI library runs on nodempi.
# The MPI-5.0 ABI names its library libmpi_abi.so.0. This builds a stand-in for another vendor's
# library under that name (every MPI function the program calls, each failing), links
# abi_program.c against it with no run path, checks the program needs libmpi_abi.so.0 and not
# nodempi, and runs it with nodempi's mpiexec, which must make the ranks load nodempi's
# libmpi_abi.so.0 (tools/mpiexec/spawn.c); then runs it as a singleton with LD_LIBRARY_PATH.
# Then the reverse: a program built by nodempi's mpicc needs libmpi_abi.so.0 alone, and loads
# whichever comes first (the stand-in, when it is put first).
# Usage: foreign_abi.sh <source-dir> <build-dir>
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/other"
# The stand-in: the symbols the program uses, none of them an MPI that works.
for f in MPI_Init MPI_Comm_rank MPI_Comm_size MPI_Abi_get_version MPI_Get_library_version \
    MPI_Sendrecv MPI_Get_count MPI_Allreduce MPI_Reduce MPI_Finalize; do
    echo "int $f(void) { return 15; }"
done >"$tmp/other/stand_in.c"
cc -shared -fPIC -o "$tmp/other/libmpi_abi.so.0" -Wl,-soname,libmpi_abi.so.0 \
    "$tmp/other/stand_in.c"
ln -s libmpi_abi.so.0 "$tmp/other/libmpi_abi.so"
cc -I"$src/include" "$src/tests/abi/abi_program.c" -L"$tmp/other" -lmpi_abi -o "$tmp/prog"
needed=$(readelf -d "$tmp/prog" | grep NEEDED || true)
echo "$needed" | grep -q 'libmpi_abi.so.0' || { echo "program does not need libmpi_abi.so.0:"; echo "$needed"; exit 1; }
if echo "$needed" | grep -q nodempi; then
    echo "program needs nodempi directly: $needed"
    exit 1
fi
# Without nodempi's directory the stand-in would be found: make sure it is not the default.
out=$(LD_LIBRARY_PATH="$tmp/other" "$build/bin/mpiexec" -n 3 "$tmp/prog" 2>&1) || {
    echo "mpiexec -n 3 failed:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^No errors$' || { echo "mpiexec -n 3 output:"; echo "$out"; exit 1; }
out=$(LD_LIBRARY_PATH="$build/lib" "$tmp/prog" 2>&1) || {
    echo "singleton failed:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^No errors$' || { echo "singleton output:"; echo "$out"; exit 1; }
# The other way: a program built with nodempi's mpicc_abi (= mpicc) needs libmpi_abi.so.0, not a nodempi
# name, so another MPI's ABI library can stand in for nodempi's. Here the stand-in is found
# first (LD_LIBRARY_PATH before the wrapper's run path) and the program says it is no MPI.
"$build/bin/mpicc_abi" "$src/tests/abi/abi_program.c" -o "$tmp/ours"
needed=$(readelf -d "$tmp/ours" | grep NEEDED || true)
echo "$needed" | grep -q 'libmpi_abi.so.0' || { echo "mpicc's program does not need libmpi_abi.so.0:"; echo "$needed"; exit 1; }
if echo "$needed" | grep -q nodempi; then
    echo "mpicc's program needs a nodempi name: $needed"
    exit 1
fi
out=$("$build/bin/mpiexec" -n 2 "$tmp/ours" 2>&1) || { echo "mpicc's program failed:"; echo "$out"; exit 1; }
echo "$out" | grep -q '^No errors$' || { echo "mpicc's program output:"; echo "$out"; exit 1; }
out=$(LD_LIBRARY_PATH="$tmp/other" "$tmp/ours" 2>&1) && { echo "the stand-in did not replace nodempi:"; echo "$out"; exit 1; }
echo "$out" | grep -q 'not an MPI library' || { echo "with the stand-in first:"; echo "$out"; exit 1; }
echo "a standard-ABI program linked against another libmpi_abi.so.0 ran on nodempi (3 ranks, singleton); one built by nodempi's mpicc needs only libmpi_abi.so.0"
