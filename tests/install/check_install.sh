#!/bin/bash
# check_install.sh - `cmake --install` gives a working MPI under any prefix: the installed
# mpicc builds and mpiexec runs a program (C++ through mpicxx, mpic++ and mpiCC), pkg-config finds nodempi.pc, and CMake's
# find_package(MPI) finds nodempi through the wrapper; with Fortran, the installed mpifort
# builds a `use mpi` and a `use mpi_f08` program (mpi.mod, mpi_f08.mod and mpif.h installed).
# Usage: check_install.sh <source-dir> <build-dir>
set -euo pipefail
src=$(cd "$1" && pwd)
build=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/p" >/dev/null
for f in bin/mpicc bin/mpicc_abi bin/mpicxx bin/mpic++ bin/mpiCC bin/mpiexec bin/mpirun include/mpi.h lib/libnodempi.so \
    lib/libmpi.so lib/libmpi_abi.so.0 lib/libmpi_abi.so lib/pkgconfig/nodempi.pc; do
    [ -e "$prefix/p/$f" ] || { echo "missing after install: $f"; exit 1; }
done
"$prefix/p/bin/mpicc" "$src/examples/ring.c" -o "$prefix/ring"
out=$("$prefix/p/bin/mpiexec" -n 3 "$prefix/ring")
echo "$out" | grep -q "rank 0 of 3 on .*: token 3" || { echo "ring output wrong: $out"; exit 1; }
flags=$(PKG_CONFIG_PATH="$prefix/p/lib/pkgconfig" pkg-config --cflags --libs nodempi)
cc "$src/examples/ring.c" $flags -o "$prefix/ring_pc"
# C++ through each of the three names MPICH and Open MPI users type, and Open MPI's spelling
# of the flag queries that build scripts use.
cat >"$prefix/sum.cpp" <<'CXX'
#include <mpi.h>
#include <iostream>
#include <vector>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> v(4, rank + 1);
    MPI_Allreduce(MPI_IN_PLACE, v.data(), 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::cout << "sum " << v[3] << " of " << size << std::endl;
    MPI_Finalize();
}
CXX
for cxx in mpicxx mpic++ mpiCC; do
    "$prefix/p/bin/$cxx" "$prefix/sum.cpp" -o "$prefix/sum_$cxx"
    out=$("$prefix/p/bin/mpiexec" -n 3 "$prefix/sum_$cxx")
    [ "$out" = "sum 6 of 3" ] || { echo "$cxx: C++ program printed: $out"; exit 1; }
done
"$prefix/p/bin/mpicc" --showme:compile | grep -q -- "-I$prefix/p/include" ||
    { echo "mpicc --showme:compile: $("$prefix/p/bin/mpicc" --showme:compile)"; exit 1; }
"$prefix/p/bin/mpicc" --showme:link | grep -q -- "-lnodempi" ||
    { echo "mpicc --showme:link: $("$prefix/p/bin/mpicc" --showme:link)"; exit 1; }
# Open MPI's -showme:compile / -showme:link are the flags alone (build tools split them into
# arguments); MPICH's -compile_info / -link_info the whole command.
for o in --showme:compile --showme:link; do
    case $("$prefix/p/bin/mpicc" $o) in
    -*) ;;
    *) echo "mpicc $o does not start with a flag: $("$prefix/p/bin/mpicc" $o)"; exit 1 ;;
    esac
done
"$prefix/p/bin/mpicc" -link_info | grep -q -- "-I$prefix/p/include .*-lnodempi" ||
    { echo "mpicc -link_info: $("$prefix/p/bin/mpicc" -link_info)"; exit 1; }
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
