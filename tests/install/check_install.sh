#!/bin/bash
# check_install.sh - `cmake --install` gives a working MPI under any prefix: the installed
# mpicc builds and mpiexec runs a program, pkg-config finds nodempi.pc, and CMake's
# find_package(MPI) finds nodempi through the wrapper; with Fortran, the installed mpifort
# builds a `use mpi` and a `use mpi_f08` program (mpi.mod, mpi_f08.mod and mpif.h installed).
# Usage: check_install.sh <source-dir> <build-dir>
set -euo pipefail
src=$(cd "$1" && pwd)
build=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/p" >/dev/null
for f in bin/mpicc bin/mpicxx bin/mpiexec bin/mpirun include/mpi.h lib/libnodempi.so \
    lib/libmpi.so lib/pkgconfig/nodempi.pc; do
    [ -e "$prefix/p/$f" ] || { echo "missing after install: $f"; exit 1; }
done
"$prefix/p/bin/mpicc" "$src/examples/ring.c" -o "$prefix/ring"
out=$("$prefix/p/bin/mpiexec" -n 3 "$prefix/ring")
echo "$out" | grep -q "rank 0 of 3 on .*: token 3" || { echo "ring output wrong: $out"; exit 1; }
flags=$(PKG_CONFIG_PATH="$prefix/p/lib/pkgconfig" pkg-config --cflags --libs nodempi)
cc "$src/examples/ring.c" $flags -o "$prefix/ring_pc"
if [ -e "$build/bin/mpifort" ]; then
    for f in bin/mpifort bin/mpif90 bin/mpif77 include/mpif.h include/mpi.mod \
        include/mpi_f08.mod; do
        [ -e "$prefix/p/$f" ] || { echo "missing after install: $f"; exit 1; }
    done
    (cd "$prefix" && "$prefix/p/bin/mpifort" "$src/examples/ring.f90" -o "$prefix/ring_f")
    out=$("$prefix/p/bin/mpiexec" -n 3 "$prefix/ring_f")
    echo "$out" | grep -q "rank 0 of 3 on .*: token 3" || { echo "ring.f90 output: $out"; exit 1; }
    (cd "$prefix" && "$prefix/p/bin/mpifort" "$src/examples/ring_f08.f90" -o "$prefix/ring_f08")
    out=$("$prefix/p/bin/mpiexec" -n 3 "$prefix/ring_f08")
    echo "$out" | grep -q "rank 0 of 3 on .*: token 3" || { echo "ring_f08.f90 output: $out"; exit 1; }
fi
mkdir "$prefix/cmake"
cat >"$prefix/cmake/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(find_nodempi C)
find_package(MPI REQUIRED COMPONENTS C)
add_executable(ring $src/examples/ring.c)
target_link_libraries(ring MPI::MPI_C)
CMAKE
cmake -S "$prefix/cmake" -B "$prefix/cmake/b" -DMPI_C_COMPILER="$prefix/p/bin/mpicc" >/dev/null
cmake --build "$prefix/cmake/b" >/dev/null
"$prefix/p/bin/mpiexec" -n 2 "$prefix/cmake/b/ring" | grep -q "of 2" || exit 1
echo "install under a temporary prefix: wrappers (mpifort too when built), launcher, pkg-config and find_package(MPI) work"
