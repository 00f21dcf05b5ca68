# mpis.sh - sourced by the runners in tests/external: the compiler wrappers and launchers of the
# three MPIs they compare, nodempi (from the build directory in $build), Debian's Open MPI and
# Debian's MPICH. The runner sets $timeout (seconds per job) before calling mpirun_of; optional:
# $launch_prefix (e.g. "nice -n 19") goes in front of the launcher, $timeout_kill (seconds) makes
# timeout(1) send SIGKILL that long after its SIGTERM.

# wrapper_of MPI cc|cxx|fort: the compiler wrapper's path.
wrapper_of() {
    case $1 in
    nodempi) echo "$build/bin/mpi$2" ;;
    *) command -v "mpi$2.$1" ;;
    esac
}
mpicc_of() { wrapper_of "$1" cc; }
mpicxx_of() { wrapper_of "$1" cxx; }

# mpirun_of MPI: the launcher command line up to the rank count. Open MPI needs --oversubscribe
# for more ranks than cores; nodempi and MPICH oversubscribe by themselves. nodempi's mpiexec
# keeps its own time limit; the others run under timeout(1).
mpirun_of() {
    local pre=${launch_prefix:+$launch_prefix } kill=${timeout_kill:+-k $timeout_kill }
    case $1 in
    nodempi) echo "$pre$build/bin/mpiexec --timeout $timeout" ;;
    openmpi) echo "${pre}timeout $kill$timeout $(command -v mpiexec.openmpi) --oversubscribe" ;;
    mpich) echo "${pre}timeout $kill$timeout $(command -v mpiexec.mpich)" ;;
    esac
}
