#!/bin/sh
# run_mpmd.sh - mpiexec's MPMD command line: "-n 1 appnum 0 - 4 : -n 3 -wdir /tmp appnum 1 /tmp 4"
# is one job of 4 ranks whose MPI_APPNUM is 0 and 1, the second context in /tmp; a ':' with
# no program after it is a usage error (exit 2).
# Usage: run_mpmd.sh <mpiexec> <appnum program>
set -u
"$1" -n 1 "$2" 0 - 4 : -n 3 -wdir /tmp "$2" 1 /tmp 4 || exit 1
"$1" -n 1 "$2" 0 - 1 : 2>/dev/null
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a trailing ':' gave exit status $rc, expected 2"; exit 1; }
