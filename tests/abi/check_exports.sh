#!/bin/bash
# check_exports.sh - the public header and the library agree:
#  1. include/mpi.h is exactly what tools/dev/gen-mpi-h.py generates (nobody edited it by hand);
#  2. every MPI_X and PMPI_X declared in mpi.h is exported by libnodempi.so, and MPI_X is weak
#     (so profiling tools can interpose), and nothing but MPI_/PMPI_/MPIX_ symbols (and the
#     Fortran mpi_x_ / pmpi_x_ ones) is exported;
#  3. in a build with Fortran: include/mpif.h, src/fortran/bindings.c and src/fortran/mpi.f90
#     are what tools/dev/gen-fortran.py generates, src/fortran/mpi_f08.f90 and bindings_f08.c
#     what tools/dev/gen-fortran-f08.py generates, and every pmpi_x_ defined in src/fortran is
#     exported with a weak mpi_x_ twin.
# Usage: check_exports.sh <source-dir> <libnodempi.so>
set -euo pipefail
src=$1
lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

cp -r "$src/include" "$src/tools" "$tmp/"
mkdir -p "$tmp/tools/dev"
python3 "$tmp/tools/dev/gen-mpi-h.py"
if ! cmp -s "$tmp/include/mpi.h" "$src/include/mpi.h"; then
    echo "include/mpi.h differs from what tools/dev/gen-mpi-h.py generates:"
    diff "$src/include/mpi.h" "$tmp/include/mpi.h" | head -20
    status=1
fi

grep -oE '\bP?MPIX?_[A-Za-z0-9_]+\(' "$src/include/mpi.h" | tr -d '(' | grep -vE '_function(_c)?$' | sort -u >"$tmp/declared"
nm -D --defined-only "$lib" | awk '{print $2, $3}' >"$tmp/exported"
awk '{print $2}' "$tmp/exported" | sort -u >"$tmp/exported_names"
missing=$(comm -23 "$tmp/declared" "$tmp/exported_names")
if [ -n "$missing" ]; then
    echo "declared in mpi.h but not exported by $(basename "$lib"):"
    echo "$missing" | sed 's/^/  /'
    status=1
fi
# (functions only: the data symbols MPI_F_STATUS_IGNORE & co. are variables, not interposed)
strong=$(awk '$1 == "T" && $2 ~ /^MPI_/ {print $2}' "$tmp/exported")
if [ -n "$strong" ]; then
    echo "MPI_ symbols that are not weak (PMPI interposition would break):"
    echo "$strong" | sed 's/^/  /'
    status=1
fi
# mpi.h's variables (the extension section): exported data.
for v in MPI_F_STATUS_IGNORE MPI_F_STATUSES_IGNORE MPI_F08_STATUS_IGNORE MPI_F08_STATUSES_IGNORE; do
    if ! grep -q "^D $v\$" "$tmp/exported"; then
        echo "mpi.h's variable $v is not exported as data by $(basename "$lib")"
        status=1
    fi
done
# Besides MPI: the C library's allocation functions, which the shared heap replaces
# (src/shm/heap_malloc.c; absent from sanitizer builds).
malloc_family='^(malloc|free|calloc|realloc|reallocarray|malloc_usable_size|posix_memalign|aligned_alloc|memalign)$'
extra=$(awk -v m="$malloc_family" '$2 !~ /^(P?MPIX?_|p?mpi_[a-z0-9_]+_$|_init$|_fini$)/ && $2 !~ m {print $2}' "$tmp/exported")
if [ -n "$extra" ]; then
    echo "internal symbols leaking from the library:"
    echo "$extra" | sed 's/^/  /'
    status=1
fi
if grep -q ' pmpi_init_$' "$tmp/exported"; then
    mkdir -p "$tmp/src"
    cp -r "$src/src/fortran" "$tmp/src/"   # gen-fortran-f08.py reads the hand-written entry points
    python3 "$tmp/tools/dev/gen-fortran.py" 2>/dev/null
    python3 "$tmp/tools/dev/gen-fortran-f08.py" 2>/dev/null
    for f in include/mpif.h src/fortran/bindings.c src/fortran/mpi.f90 src/fortran/mpi_f08.f90 \
        src/fortran/bindings_f08.c; do
        if ! cmp -s "$tmp/$f" "$src/$f"; then
            echo "$f differs from what tools/dev/gen-fortran.py generates:"
            diff "$src/$f" "$tmp/$f" | head -20
            status=1
        fi
    done
    grep -ohE '^(void|double|MPI_Aint) pmpi_[a-z0-9_]+_\(' "$src"/src/fortran/*.c |
        sed -E 's/^[A-Za-z_]+ p(mpi_[a-z0-9_]+_)\($/\1/' | sort -u >"$tmp/fortran"
    # mpi_f08's BIND(C) entry points (choice buffers): PMPI_X_f08ts with a weak MPI_X_f08ts.
    grep -ohE '^void PMPI_[A-Za-z0-9_]+_f08ts\(' "$src"/src/fortran/*.c |
        sed -E 's/^void P(MPI_[A-Za-z0-9_]+)\($/\1/' | sort -u >>"$tmp/fortran"
    fmissing=$(for f in $(cat "$tmp/fortran"); do
        grep -q "^W $f\$" "$tmp/exported" && grep -qi " p$f\$" "$tmp/exported" || echo "$f"
    done)
    if [ -n "$fmissing" ]; then
        echo "Fortran entry points not exported as weak mpi_x_ with a pmpi_x_ twin:"
        echo "$fmissing" | sed 's/^/  /'
        status=1
    fi
    fcount=$(wc -l <"$tmp/fortran")
    [ $status = 0 ] && echo "Fortran: generated files up to date; $fcount entry points exported"
fi
count=$(grep -c '^MPI_' "$tmp/declared" || true)
[ $status = 0 ] && echo "mpi.h up to date; all $count MPI functions exported, weak, with PMPI twins"
exit $status
