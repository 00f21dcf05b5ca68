#!/bin/bash
# mpi4py.sh - build mpi4py (a large MPI test suite written by other people) against a nodempi
# build directory and run its test suite as a singleton and under mpiexec, printing a summary.
# Not run by CI (it downloads from PyPI and takes ~15 minutes on 2 cores). Run it by hand:
#
#   tests/external/mpi4py.sh [BUILD_DIR] [MPI4PY_VERSION]      e.g.  tests/external/mpi4py.sh build
#
# BUILD_DIR defaults to ./build (it must hold bin/mpicc and bin/mpiexec), the version to 4.1.2.
# Environment: RANKS="1 2" (rank counts; 1 = singleton, no mpiexec), KEEP=1 keeps the work
# directory, WORKDIR=dir uses (and reuses) a given one, TIMEOUT=900 seconds per run, NUMPY=0
# skips installing NumPy (mpi4py then runs fewer array tests). Results and the known failures
# are in docs/external-tests.md. Exit status 1 when any test failed or a run did not finish.
set -euo pipefail

build=$(cd "${1:-build}" && pwd)
version=${2:-4.1.2}
ranks=${RANKS:-1 2}
timeout=${TIMEOUT:-900}
[ -x "$build/bin/mpicc" ] && [ -x "$build/bin/mpiexec" ] ||
    { echo "mpi4py.sh: $build has no bin/mpicc and bin/mpiexec (build nodempi first)" >&2; exit 2; }

work=${WORKDIR:-$(mktemp -d /tmp/nodempi-mpi4py.XXXXXX)}
mkdir -p "$work"
cleanup() { [ "${KEEP:-0}" = 1 ] || [ -n "${WORKDIR:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
echo "mpi4py.sh: working in $work"

# 1. A virtual environment with the build requirements, and the sdist from PyPI.
if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q --upgrade pip setuptools cython
    [ "${NUMPY:-1}" = 0 ] || "$work/venv/bin/pip" install -q numpy
fi
py="$work/venv/bin/python"
src="$work/mpi4py-$version"
if [ ! -d "$src" ]; then
    # --no-binary for mpi4py only: its build requirements still come as wheels.
    "$work/venv/bin/pip" download -q --no-deps --no-binary mpi4py -d "$work" "mpi4py==$version"
    tar -xzf "$work/mpi4py-$version.tar.gz" -C "$work"
fi

# 2. Build against nodempi. nodempi's mpi.h declares the MPI-5.0 standard ABI, for which
# mpi4py would assume every MPI-5.0 function exists; MPI4PY_BUILD_CONFIGURE=1 makes it probe
# each function instead and stub the missing ones (the list is in build.log: "failed check").
tag=$("$py" -c 'import sys, sysconfig as s; v = sys.version_info
print(f"{s.get_platform()}-cpython-{v[0]}{v[1]}")')
lib="$work/build/lib.$tag"
if [ ! -d "$lib/mpi4py" ]; then
    echo "mpi4py.sh: building mpi4py $version with $build/bin/mpicc (about 10 minutes)"
    (cd "$src" && MPI4PY_BUILD_CONFIGURE=1 CFLAGS=-O1 MPICC="$build/bin/mpicc" \
        "$py" setup.py build -b "$work/build" > "$work/build.log" 2>&1) ||
        { tail -30 "$work/build.log"; exit 1; }
fi
missing=$(grep -c "failed check" "$work/build.log" || true)
echo "mpi4py.sh: built; mpi4py's configure found $missing MPI symbols missing (see $work/build.log)"

# 3. Run the suite the way mpi4py's tox.ini does (spawn excluded: nodempi has no MPI_Comm_spawn,
# and MPI4PY_TEST_SPAWN=0 tells the suite so).
summarize() { # worst status per test (subtests folded; every rank prints its own lines)
    "$py" - "$1" <<'PYEOF'
import re, sys, collections
pat = re.compile(r"^\s*(\w+) \(([\w.]+)\).*? \.\.\. "
                 r"(ok|ERROR|FAIL|skipped.*|expected failure|unexpected success)\s*$")
rank = {"ok": 0, "skipped": 1, "expected failure": 1, "unexpected success": 2,
        "FAIL": 3, "ERROR": 3}
worst = {}
for line in open(sys.argv[1], errors="replace"):
    m = pat.match(line)
    if m:
        st = "skipped" if m.group(3).startswith("skipped") else m.group(3)
        if rank[st] > rank.get(worst.get(m.group(2)), -1):
            worst[m.group(2)] = st
c = collections.Counter(worst.values())
bad = sorted(t for t, s in worst.items() if rank[s] >= 2)
print(f"{len(worst)} run, {c['ok'] + c['expected failure']} passed, {len(bad)} failed, "
      f"{c['skipped']} skipped")
for t in bad:
    print(f"    {worst[t]:5} {t}")
PYEOF
}

status=0
for n in $ranks; do
    log="$work/test-np$n.log"
    args=(test/main.py --no-builddir -v -e spawn)
    set +e
    if [ "$n" = 1 ]; then
        (cd "$src" && MPI4PY_TEST_SPAWN=0 PYTHONPATH="$lib" timeout "$timeout" "$py" "${args[@]}") \
            > "$log" 2>&1
    else
        (cd "$src" && MPI4PY_TEST_SPAWN=0 PYTHONPATH="$lib" "$build/bin/mpiexec" \
            --timeout "$timeout" -n "$n" "$py" "${args[@]}") > "$log" 2>&1
    fi
    rc=$?
    set -e
    echo "mpi4py np=$n (exit $rc, log $log):"
    summary=$(summarize "$log")
    echo "$summary" | sed 's/^/  /'
    if [ "$rc" != 0 ] || ! echo "$summary" | head -1 | grep -q " 0 failed"; then
        status=1
    fi
done
[ "$status" = 0 ] || [ "${KEEP:-0}" = 1 ] || [ -n "${WORKDIR:-}" ] ||
    echo "mpi4py.sh: rerun with KEEP=1 to keep the logs"
exit "$status"
