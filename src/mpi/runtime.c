/* runtime.c - API: start and end MPI, environment queries, timers, rank and size. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/init.h"
#include "mpi/api.h"

static int init_thread(int required, int *provided)
{
    /* The world model starts once per process; sessions before or beside it do not count. */
    if (nodempi.world_initialized)
        return core_error_raise(NULL, MPI_ERR_OTHER, "MPI_Init",
                                "MPI is already initialized%s",
                                nodempi.world_finalized ? " and finalized" : "");
    int rc = core_init(required, provided);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "nodempi: MPI_Init failed (%s)\n", core_error_string(rc));
        core_abort_job(rc);
    }
    return MPI_SUCCESS;
}

/* Takes the big lock whatever the level (core_thread_enter, not mpi_enter): the level is
 * decided inside, and a session may be starting on another thread. */
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    core_thread_enter();
    int rc = init_thread(required, provided);
    core_thread_leave();
    return rc;
}
#pragma weak MPI_Init_thread = PMPI_Init_thread

int PMPI_Init(int *argc, char ***argv)
{
    return PMPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}
#pragma weak MPI_Init = PMPI_Init

int PMPI_Finalize(void)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (!nodempi.world_initialized || nodempi.world_finalizing)
        return core_error_raise(NULL, MPI_ERR_OTHER, "MPI_Finalize", "%s",
                                nodempi.world_finalizing ? "MPI_Finalize was already called"
                                                        : "called before MPI_Init");
    return core_finalize();
}
#pragma weak MPI_Finalize = PMPI_Finalize

int PMPI_Initialized(int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    *flag = nodempi.world_initialized; /* the world model only (MPI-4 11.2.1) */
    return MPI_SUCCESS;
}
#pragma weak MPI_Initialized = PMPI_Initialized

int PMPI_Finalized(int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    *flag = nodempi.world_finalized;
    return MPI_SUCCESS;
}
#pragma weak MPI_Finalized = PMPI_Finalized

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm; /* one node, one job: aborting any communicator ends the job */
    fflush(stdout);
    fprintf(stderr, "nodempi: MPI_Abort called by rank %d with error code %d\n",
            nodempi.world_rank, errorcode);
    core_abort_job(errorcode);
}
#pragma weak MPI_Abort = PMPI_Abort

int PMPI_Query_thread(int *provided)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Query_thread");
    if (rc == MPI_SUCCESS)
        *provided = nodempi.thread_level;
    return rc;
}
#pragma weak MPI_Query_thread = PMPI_Query_thread

int PMPI_Is_thread_main(int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Is_thread_main");
    if (rc == MPI_SUCCESS)
        *flag = core_is_main_thread();
    return rc;
}
#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (!name || !resultlen)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Get_processor_name",
                                "NULL name or resultlen");
    const char *host = nodempi.processor_name[0] ? nodempi.processor_name : "localhost";
    size_t len = strnlen(host, MPI_MAX_PROCESSOR_NAME - 1);
    memcpy(name, host, len);
    name[len] = '\0';
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name

int PMPI_Get_version(int *version, int *subversion)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_version = PMPI_Get_version

int PMPI_Get_library_version(char *version, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "nodempi %s (MPI %d.%d standard ABI), shared-memory MPI for one node",
                     NODEMPI_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_library_version = PMPI_Get_library_version

double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#pragma weak MPI_Wtime = PMPI_Wtime

double PMPI_Wtick(void)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}
#pragma weak MPI_Wtick = PMPI_Wtick

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_check_initialized("MPI_Comm_rank");
    if (rc == MPI_SUCCESS && (rc = mpi_get_comm(comm, &c, "MPI_Comm_rank")) == MPI_SUCCESS) {
        if (!rank) /* a crash here would be the user's bug, but an error names it */
            return core_error_raise(c, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
        *rank = c->rank;
    }
    return rc;
}
#pragma weak MPI_Comm_rank = PMPI_Comm_rank

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_check_initialized("MPI_Comm_size");
    if (rc == MPI_SUCCESS && (rc = mpi_get_comm(comm, &c, "MPI_Comm_size")) == MPI_SUCCESS) {
        if (!size) /* a crash here would be the user's bug, but an error names it */
            return core_error_raise(c, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
        *size = c->size;
    }
    return rc;
}
#pragma weak MPI_Comm_size = PMPI_Comm_size
