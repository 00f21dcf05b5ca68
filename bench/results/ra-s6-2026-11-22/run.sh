#!/bin/bash
# hpcc 1.5.0 at 2 and 4 ranks, nodempi (old = session 5 lib in /work/lead/build, new = /work/main/build), MPICH, Open MPI; interleaved
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for rep in 1 2; do
for n in 4 2; do
for m in old new mpich openmpi; do
  d=/tmp/s6/hpcc/$m-$n-$rep; mkdir -p $d; cp /tmp/h-apps/run/hpcc-nodempi-2/hpccinf.txt $d/; cd $d
  t0=$(date +%s.%N)
  case $m in
  old) LD_LIBRARY_PATH=/work/lead/build/lib timeout 600 /work/lead/build/bin/mpiexec -n $n /tmp/h-apps/hpcc-nodempi/hpcc > out.txt 2>&1;;
  new) LD_LIBRARY_PATH=/work/main/build/lib timeout 600 /work/main/build/bin/mpiexec -n $n /tmp/h-apps/hpcc-nodempi/hpcc > out.txt 2>&1;;
  mpich) timeout 600 mpiexec.mpich -n $n /tmp/h-apps/hpcc-mpich/hpcc > out.txt 2>&1;;
  openmpi) timeout 600 mpiexec.openmpi --oversubscribe -n $n /tmp/h-apps/hpcc-openmpi/hpcc > out.txt 2>&1;;
  esac
  echo "$m n=$n rep $rep wall $(echo "$(date +%s.%N) - $t0" | bc) $(grep -E 'MPIRandomAccess_GUPs|HPL_Tflops|MPIFFT_Gflops|PTRANS_GBs|Success' hpccoutf.txt | tr '\n' ' ')"
done; done; done
