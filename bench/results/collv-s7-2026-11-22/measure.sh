#!/bin/bash
# interleaved measurement: nodempi / Open MPI / MPICH, rotating order, reps
cd /work/h-collv
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=${OUT:-/tmp/h-collv/raw}
REPS=${REPS:-3}
RANKS=${RANKS:-"2 4 8"}
SEL=${SEL:-allgather,gather,scatter,alltoall,reduce_scatter,allgatherv,gatherv,scatterv,alltoallv,reduce_scatter_block,scan,exscan,reduce_local,ibarrier,ibcast,ireduce,iallreduce,iallgather,iallgatherv,ialltoall,ialltoallv,igather,igatherv,iscatter,iscatterv,ireduce_scatter,ireduce_scatter_block,iscan,iexscan,overlap}
SIZES=${SIZES:-4,1K,64K,1M}
PSIZES=${PSIZES:-0,64,4K,256K,4M}
T=${T:-0.02}
mkdir -p $OUT
mpis=(${MPIS:-base openmpi mpich})
launch() { # mpi n prog args...
  local m=$1 n=$2 prog=$3; shift 3
  local bind=core; [ $n -gt 2 ] && bind=none
  case $m in
    nodempi) timeout 300 build/bin/mpiexec -n $n --bind-to $bind bench/build-nodempi/$prog "$@";;
    base) timeout 300 /tmp/h-collv/base/build/bin/mpiexec -n $n --bind-to $bind bench/build-base/$prog "$@";;
    openmpi) ov=; [ $n -gt 2 ] && ov=--oversubscribe
             timeout 300 mpiexec.openmpi -n $n --bind-to $bind $ov bench/build-openmpi/$prog "$@";;
    mpich) timeout ${MPICH_CAP:-240} mpiexec.mpich -n $n -bind-to $bind bench/build-mpich/$prog "$@";;
  esac
}
for rep in $(seq 0 $((REPS-1))); do
  for n in $RANKS; do
    for k in 0 1 2; do
      m=${mpis[$(( (k+rep) % 3 ))]}
      if [ -z "$NOCOLL" ]; then
        nice -n 5 bash -c "$(declare -f launch); launch $m $n coll -s $SIZES -t $T -c $SEL" 2>>$OUT/err.log | grep -v '^benchmark' | sed "s/^/$rep,$m,/" >> $OUT/coll.csv
      fi
      if [ $n -le 4 ] && [ -z "$NOP2P" ]; then
        nice -n 5 bash -c "$(declare -f launch); launch $m $n imb_p2p -s $PSIZES -t $T" 2>>$OUT/err.log | grep -v '^benchmark' | sed "s/^/$rep,$m,/" >> $OUT/p2p.csv
      fi
      echo "$(date -u +%T) rep $rep n $n $m done" >> $OUT/progress.log
    done
  done
done
echo ALLDONE >> $OUT/progress.log
