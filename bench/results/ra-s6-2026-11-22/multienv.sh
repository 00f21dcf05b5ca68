#!/bin/bash
# multienv.sh BENCH "ARGS" REPS "name|libdir|ENV=.. ENV2=.." ...   (2 ranks, chrt -f 10, bound; cache-line floor per rep)
B=$1; ARGS=$2; REPS=$3; shift 3
cd /work/main
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for r in $(seq $REPS); do
  echo "== rep $r floor $(timeout 30 bench/build-hw/hwlimit -c cacheline | tail -1 | cut -d, -f5)"
  for spec in "$@"; do IFS='|' read -r n d e <<< "$spec"
    case $n in
    mpich*) out=$(env $e chrt -f 10 mpiexec.mpich -n 2 -bind-to core bench/build-mpich/$B $ARGS);;
    openmpi*) out=$(env $e chrt -f 10 mpiexec.openmpi -n 2 --bind-to core bench/build-openmpi/$B $ARGS 2>/dev/null);;
    *) out=$(env $e LD_LIBRARY_PATH=$d chrt -f 10 build/bin/mpiexec -n 2 --bind-to core bench/build-nodempi/$B $ARGS);;
    esac
    echo "$n: $(echo "$out" | grep -v '^#\|^bench' | cut -d, -f2,3,5 | tr '\n' ' ')"
  done
done
