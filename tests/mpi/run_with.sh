#!/bin/sh
# run_with.sh - build and run every tests/mpi/<area>/testlist with a given MPI.
# Usage: run_with.sh <mpicc> <mpiexec-command...>
#   e.g. run_with.sh mpicc.mpich mpiexec.mpich
#        run_with.sh mpicc.openmpi mpiexec.openmpi --oversubscribe
# Environment: MT_AREAS (default: every directory here that has a testlist), MT_FILTER
# (regex on test names), MT_TIMEOUT (seconds per run, default 120), MT_BUILD_DIR (default
# under /tmp), MT_CFLAGS (extra compiler flags), MT_VERBOSE=1 (also show passing output),
# MT_MPIFORT (that MPI's Fortran wrapper: the fortran area runs only when it is set).
# Prints one line per run and a final "N passed, N failed" summary; exit 1 if any failed.

set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 <mpicc> <mpiexec-command...>" >&2
    exit 2
fi
MPICC=$1
shift
MPIEXEC="$*"

HERE=$(cd "$(dirname "$0")" && pwd)
AREAS=${MT_AREAS:-$(for d in "$HERE"/*/; do [ -f "$d/testlist" ] && basename "$d"; done)}
FILTER=${MT_FILTER:-.}
TIMEOUT=${MT_TIMEOUT:-120}
BUILD=${MT_BUILD_DIR:-/tmp/nodempi-mpitests-$(basename "$MPICC")}
CFLAGS="-std=c11 -O2 -g -Wall -Wextra -Werror -I$HERE/common ${MT_CFLAGS:-}"

pass=0
fail=0
failed_list=""

record() { # record <ok 0/1> <label>
    if [ "$1" -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        failed_list="$failed_list
  $2"
    fi
}

mkdir -p "$BUILD"
for area in $AREAS; do
    dir=$HERE/$area
    [ -d "$dir" ] || continue
    [ "$area" = fortran ] && [ -z "${MT_MPIFORT:-}" ] && continue
    mkdir -p "$BUILD/$area"
    for src in "$dir"/*.f90 "$dir"/*.f; do
        [ -e "$src" ] || continue
        name=$(basename "${src%.*}")
        echo "$name" | grep -Eq -- "$FILTER" || continue
        if ! (cd "$BUILD/$area" && $MT_MPIFORT -O2 -g -o "$name" "$src") \
            2>"$BUILD/$area/$name.build.log"; then
            echo "BUILD FAIL $area/$name"
            sed 's/^/    /' "$BUILD/$area/$name.build.log"
            record 1 "$area/$name (build)"
        fi
    done
    # build every program of the area
    for src in "$dir"/*.c; do
        [ -e "$src" ] || continue
        name=$(basename "$src" .c)
        echo "$name" | grep -Eq -- "$FILTER" || continue
        if ! $MPICC $CFLAGS -o "$BUILD/$area/$name" "$src" -lm 2>"$BUILD/$area/$name.build.log"; then
            echo "BUILD FAIL $area/$name"
            sed 's/^/    /' "$BUILD/$area/$name.build.log"
            record 1 "$area/$name (build)"
            rm -f "$BUILD/$area/$name"
        fi
    done
    [ -f "$dir/testlist" ] || continue
    # run the testlist
    while read -r name np vars; do
        case "$name" in '' | '#'*) continue ;; esac
        echo "$name" | grep -Eq -- "$FILTER" || continue
        label="$area/$name np=$np${vars:+ $vars}"
        exe=$BUILD/$area/$name
        if [ ! -x "$exe" ]; then
            echo "FAIL  $label (not built)"
            record 1 "$label"
            continue
        fi
        log=$BUILD/$area/$name.np$np.log
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        timeout "$TIMEOUT" $MPIEXEC -n "$np" env $vars "$exe" >"$log" 2>&1 </dev/null
        rc=$?
        t=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        if [ $rc -eq 0 ]; then
            printf 'PASS  %-60s %6.2fs\n' "$label" "$t"
            [ "${MT_VERBOSE:-0}" = 1 ] && sed 's/^/    /' "$log"
            record 0 "$label"
        else
            [ $rc -eq 124 ] && why="timeout after ${TIMEOUT}s" || why="exit $rc"
            printf 'FAIL  %-60s %6.2fs (%s)\n' "$label" "$t" "$why"
            head -n 40 "$log" | sed 's/^/    /'
            record 1 "$label"
        fi
    done <"$dir/testlist"
done

# the default-error-handler test is driven by its own script
if echo "$AREAS" | grep -qw errors && echo fatal_default | grep -Eq -- "$FILTER"; then
    exe=$BUILD/errors/fatal_default
    if [ -x "$exe" ]; then
        if out=$(sh "$HERE/errors/run_fatal_default.sh" "$MPIEXEC" "$exe" 2>&1); then
            echo "PASS  errors/run_fatal_default.sh"
            record 0 "errors/run_fatal_default.sh"
        else
            echo "FAIL  errors/run_fatal_default.sh"
            echo "$out" | head -n 40 | sed 's/^/    /'
            record 1 "errors/run_fatal_default.sh"
        fi
    fi
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ] || {
    echo "failed:$failed_list"
    exit 1
}
exit 0
