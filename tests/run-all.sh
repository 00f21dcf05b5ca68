#!/bin/bash
# tests/run-all.sh - the whole test suite, as CI runs it: a -Werror build with every test, then
# an AddressSanitizer + UndefinedBehaviorSanitizer build with every test, then the benchmark
# smoke run. Usage: tests/run-all.sh [ctest args...]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
status=0

# Ninja for a new build directory; one that exists keeps its generator (the README's first
# command configures build/ with CMake's default generator before this script may run).
generator() {
    [ -f "$1/CMakeCache.txt" ] || echo "-GNinja"
}

run_suite() {
    local dir=$1; shift
    cmake -S . -B "$dir" $(generator "$dir") -DNODEMPI_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" "${ctest_args[@]}" || status=1
}

ctest_args=("$@")
echo "== build and test (Release, -Werror) =="
run_suite build
echo "== build and test (AddressSanitizer + UndefinedBehaviorSanitizer) =="
# Sanitized runs are slower: unit tests shrink their loops, and every report is fatal.
export NODEMPI_TEST_SCALE=0.1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DNODEMPI_SANITIZE=address,undefined
unset ASAN_OPTIONS UBSAN_OPTIONS
echo "== ThreadSanitizer build: the unit tests (lock-free structures under thread contention) and the MPI_THREAD_MULTIPLE tests =="
export TSAN_OPTIONS=halt_on_error=1
cmake -S . -B build-tsan $(generator build-tsan) -DCMAKE_BUILD_TYPE=Debug -DNODEMPI_SANITIZE=thread >/dev/null
cmake --build build-tsan -j "$jobs"
ctest --test-dir build-tsan --output-on-failure -j "$jobs" -L unit "${ctest_args[@]}" || status=1
ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R '^mpi/threads/' "${ctest_args[@]}" ||
    status=1
unset NODEMPI_TEST_SCALE TSAN_OPTIONS
if [ -x bench/compare ]; then
    echo "== benchmarks build and run a tiny configuration against nodempi =="
    bench/compare --smoke || status=1
fi
# A segment is left behind when the launcher whose pid is in its id (upper 32 bits) is gone;
# segments of jobs still running elsewhere on the machine are not ours to judge.
leftover=0
for seg in /dev/shm/nodempi-*; do
    [ -e "$seg" ] || continue
    id=${seg##*-}
    pid=$((16#$id >> 32))
    if [ ! -d /proc/$pid ]; then
        echo "left behind: $seg"
        leftover=$((leftover + 1))
    fi
done
if [ "$leftover" != 0 ]; then
    echo "FAILED: $leftover /dev/shm/nodempi-* segments left behind"
    status=1
fi
exit $status
