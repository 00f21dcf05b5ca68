/* fault_report.h - what the fault-test programs print so their scripts can check the aftermath:
 * a "ready" line per rank (pid and job segment, which must both be gone after the job) and a
 * "failing" line with the wall-clock time just before a rank fails on purpose. */
#ifndef NODEMPI_TESTS_FAULT_REPORT_H
#define NODEMPI_TESTS_FAULT_REPORT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* usleep, clock_gettime under -std=c11 */
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline int fault_world_rank(void)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static inline void fault_report_ready(void)
{
    const char *job = getenv("NODEMPI_JOB");
    printf("fault-ready rank %d pid %d job %s\n", fault_world_rank(), (int)getpid(),
           job ? job : "-");
    fflush(stdout);
}

/* The other ranks get this long to reach their blocking call before one rank fails. */
static inline void fault_let_others_block(void)
{
    usleep(300 * 1000);
}

static inline void fault_report_failing(const char *how)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    printf("fault-failing rank %d %s at %lld.%09ld\n", fault_world_rank(), how,
           (long long)now.tv_sec, now.tv_nsec);
    fflush(stdout);
}

/* Never returns in a correct job: nobody sends tag 4242. */
static inline void fault_block_in_recv(void)
{
    int value;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("fault-unexpected: MPI_Recv returned on rank %d\n", fault_world_rank());
    fflush(stdout);
}

#endif
