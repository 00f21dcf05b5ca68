#!/bin/bash
# min.sh - session 7 (h-rma): min-of-batches cost of one-sided calls, the library of main
# ("base": its libnodempi.so.0 copied to /tmp/h-rma-base, picked up via LD_LIBRARY_PATH by
# the same binary), the worktree's library and Open MPI 4.1 osc/sm, interleaved per spec.
# minloop-nodempi / minloop-openmpi: minloop.c built with build/bin/mpicc and mpicc.openmpi.
# usage: min.sh REPS "what:n[:excl] ..."   -> mpi,what,n,excl,ns per op (min batch, p10 batch)
REPS=$1; shift
for r in $(seq 1 $REPS); do for spec in $@; do IFS=: read w n e <<< "$spec"; e=${e:-0}
 for m in base nodempi openmpi; do
  case $m in
   base) o=$(LD_LIBRARY_PATH=/tmp/h-rma-base nice -n 5 /work/h-rma/build/bin/mpiexec -n 2 --bind-to core /tmp/h-rma/minloop-nodempi $w $n $e);;
   nodempi) o=$(nice -n 5 /work/h-rma/build/bin/mpiexec -n 2 --bind-to core /tmp/h-rma/minloop-nodempi $w $n $e);;
   openmpi) o=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc=sm nice -n 5 mpiexec.openmpi --oversubscribe -n 2 --bind-to core /tmp/h-rma/minloop-openmpi $w $n $e 2>/dev/null);;
  esac
  echo "$m,$o"
 done; done; done
