#!/bin/bash
# interleave.sh - session 7 (h-rma): bench/rma (built per MPI into bench/build-*) on 2 ranks
# bound one per core, nodempi of main ("base", /tmp/h-rma-base via LD_LIBRARY_PATH), nodempi of
# the worktree, Open MPI 4.1 (osc/sm) and MPICH 4 back to back per repetition; medians.
# usage: bench.sh REPS OUTFILE [sizes] [select]
REPS=${1:-3}; OUT=${2:-/tmp/h-rma/raw.csv}; SIZES=${3:-4,16,64,256,1K,4K,16K}; SEL=${4:-acc,fetch_and_op,cas,lock_unlock}
B=/work/h-rma/bench
: > $OUT
for r in $(seq 1 $REPS); do
  for m in base nodempi openmpi mpich; do
    case $m in
      base) [ -f /tmp/h-rma-base/libnodempi.so.0 ] || continue
            cmd="env LD_LIBRARY_PATH=/tmp/h-rma-base /work/h-rma/build/bin/mpiexec -n 2 --bind-to core $B/build-nodempi/rma";;
      nodempi) cmd="/work/h-rma/build/bin/mpiexec -n 2 --bind-to core $B/build-nodempi/rma";;
      openmpi) cmd="env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc=sm mpiexec.openmpi --oversubscribe -n 2 --bind-to core $B/build-openmpi/rma";;
      mpich) cmd="mpiexec.mpich -n 2 -bind-to core $B/build-mpich/rma";;
    esac
    nice -n 5 timeout 120 $cmd -s $SIZES -c $SEL -t 0.1 2>/dev/null | grep -v '^benchmark' | sed "s/^/$r,$m,/" >> $OUT
  done
done
python3 - "$OUT" <<'PY'
import sys,statistics,collections
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.strip().split(',')
    if len(f)!=7: continue
    r,m,b,x,n,met,v=f
    d[(b,float(x),met,m)].append(float(v))
keys=sorted({k[:3] for k in d})
mpis=['base','nodempi','openmpi','mpich']
print("%-14s %8s %8s " % ("bench","x","metric")+" ".join("%10s"%m for m in mpis))
for k in keys:
    print("%-14s %8g %8s " % k+" ".join("%10.4f"%statistics.median(d[k+(m,)]) if d.get(k+(m,)) else "%10s"%"-" for m in mpis))
PY
