#!/bin/sh
# run_two_jobs.sh - MPI_Comm_accept/connect between two separately started jobs (two mpiexec
# runs) that find each other through MPI_Publish_name/MPI_Lookup_name, then checks that
# neither left a segment in /dev/shm, a name in the name service or a process behind.
# Usage: run_two_jobs.sh <mpiexec> <two_jobs program> <server ranks> <client ranks>
set -u
MPIEXEC=$1
PROG=$2
service="two_jobs-$$"
ls /dev/shm > "${TMPDIR:-/tmp}/two_jobs-shm-$$"
"$MPIEXEC" -n "$3" --timeout 60 "$PROG" server "$service" &
server=$!
"$MPIEXEC" -n "$4" --timeout 60 "$PROG" client "$service"
client_rc=$?
wait $server
server_rc=$?
echo "server exit $server_rc, client exit $client_rc"
[ $server_rc -eq 0 ] && [ $client_rc -eq 0 ] || exit 1
names_dir=${TMPDIR:-/tmp}/nodempi-names-$(id -u)
if [ -e "$names_dir/$(printf %s "$service" | od -An -tx1 | tr -d ' \n')" ]; then
    echo "FAIL: the published name was left in $names_dir"
    exit 1
fi
# A segment left behind is one that appeared during the test and whose creator (the pid in
# the upper half of its id: an mpiexec, or the rank that made a connection segment) is gone;
# other jobs on the machine (ctest -j, other users of the same uid) may be running meanwhile.
# The creator is looked at first and the segment after: a job that ends between the listing
# and the look has unlinked its segment before exiting, and is not counted.
left=""
for name in $(ls /dev/shm | grep '^nodempi-' | grep -vxF -f "${TMPDIR:-/tmp}/two_jobs-shm-$$"); do
    id=${name##*-}
    pid=$((0x$id >> 32))
    [ -d /proc/$pid ] && continue
    [ -e "/dev/shm/$name" ] && left="$left $name"
done
rm -f "${TMPDIR:-/tmp}/two_jobs-shm-$$"
if [ -n "$left" ]; then
    echo "FAIL: segments left in /dev/shm:$left"
    exit 1
fi
if pgrep -f "$PROG (server|client) $service" >/dev/null; then
    echo "FAIL: processes left behind"
    exit 1
fi
echo "No errors"
