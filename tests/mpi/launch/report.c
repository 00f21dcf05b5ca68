/* report: what a rank sees of mpiexec's options, one fact a line, for run_standard.sh and
 * run_compat.sh to check: world size and MPI_APPNUM, the variables named on the command line,
 * the MPI_INFO_ENV keys of the MPI standard, the error handlers of MPI_COMM_WORLD and
 * MPI_COMM_SELF, the CPUs it may run on, whether it leads its own session. With "--provoke"
 * first, it then raises an error outside any communicator (on MPI_COMM_NULL) and reports the
 * class that came back, if one did. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *handler_name(MPI_Comm comm)
{
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(comm, &eh);
    const char *name = eh == MPI_ERRORS_RETURN      ? "return"
                       : eh == MPI_ERRORS_ARE_FATAL ? "fatal"
                       : eh == MPI_ERRORS_ABORT     ? "abort"
                                                    : "user";
    MPI_Errhandler_free(&eh);
    return name;
}

static void report_info(int rank)
{
    static const char *const keys[] = {"command", "argv", "maxprocs", "soft", "host",
                                       "arch", "wdir", "file", "thread_level"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char value[MPI_MAX_INFO_VAL + 1];
        int len = MPI_MAX_INFO_VAL, flag = 0;
        MPI_Info_get_string(MPI_INFO_ENV, keys[i], &len, value, &flag);
        if (flag)
            printf("rank %d info %s=%s\n", rank, keys[i], value);
        else
            printf("rank %d info %s unset\n", rank, keys[i]);
    }
}

/* As mpiexec --report-bindings writes them: "0-3,6". */
static void report_cpus(int rank)
{
    cpu_set_t set;
    char list[1024] = "";
    size_t used = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        CPU_ZERO(&set);
    for (int cpu = 0; cpu < CPU_SETSIZE && used + 32 < sizeof(list); cpu++) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            last++;
        const char *comma = used ? "," : "";
        int n = last > cpu ? snprintf(list + used, sizeof(list) - used, "%s%d-%d", comma, cpu, last)
                           : snprintf(list + used, sizeof(list) - used, "%s%d", comma, cpu);
        used += n > 0 ? (size_t)n : 0;
        cpu = last;
    }
    printf("rank %d cpus %s\n", rank, list);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, *appnum, flag = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    printf("rank %d size %d appnum %d\n", rank, size, flag ? *appnum : -1);
    int provoke = argc > 1 && strcmp(argv[1], "--provoke") == 0;
    for (int i = 1 + provoke; i < argc; i++) {
        const char *value = getenv(argv[i]);
        if (value)
            printf("rank %d env %s=%s\n", rank, argv[i], value);
        else
            printf("rank %d env %s unset\n", rank, argv[i]);
    }
    report_info(rank);
    printf("rank %d errhandler world=%s self=%s\n", rank, handler_name(MPI_COMM_WORLD),
           handler_name(MPI_COMM_SELF));
    report_cpus(rank);
    printf("rank %d session leader %s\n", rank, getsid(0) == getpid() ? "yes" : "no");
    fflush(stdout);
    if (provoke) {
        int ignored, rc = MPI_Comm_size(MPI_COMM_NULL, &ignored), error_class = -1;
        MPI_Error_class(rc, &error_class);
        printf("rank %d provoked class %d (MPI_ERR_COMM %d)\n", rank, error_class, MPI_ERR_COMM);
    }
    MPI_Finalize();
    return 0;
}
