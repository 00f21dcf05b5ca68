/* nodempi-calibrate.c - nodempi's own rendezvous path measured for nodempi-probe: windowed
 * bandwidth from rank 0 to rank 1 for sizes 8 KiB - 4 MiB, as the library moves them. The probe
 * runs it once with single copy forced on and once with it off, per distance class, and puts
 * the crossover into the profile (its own simulated ring in section (c) is no substitute: on
 * this machine it ran twice as fast as the library's pipeline and said "never single copy").
 * Not a user tool. Env NODEMPI_CALIBRATE_CPUS="a,b": rank 0 pins itself to CPU a, rank 1 to b.
 * Both directions count: one way (rank 0 sends) and both ways at once (each rank sends a
 * window and receives one), since the two favour different copies (the pipelined copy gains
 * one way, single copy both ways). Output (rank 0): calibrate,<bytes>,<GB/s one way>,<GB/s both
 * ways> of the fastest window. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 16 messages in flight: 64 MiB at 4 MiB, beyond the last-level cache, as in a bandwidth test
 * (a window that fits in the cache flatters the pipelined copy). */
enum { WINDOW = 16, BATCHES = 5 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pin_from_env(int rank)
{
    const char *cpus = getenv("NODEMPI_CALIBRATE_CPUS");
    int cpu[2];
    if (!cpus || sscanf(cpus, "%d,%d", &cpu[0], &cpu[1]) != 2 || rank > 1)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu[rank], &set);
    sched_setaffinity(0, sizeof(set), &set);
}

/* One window of WINDOW messages and the receiver's acknowledgement (both: each rank sends
 * and receives a window at once); its seconds. */
static double window(int rank, char *buf, int bytes, int both)
{
    MPI_Request req[2 * WINDOW];
    int ack = 0, n = 0, peer = 1 - rank;
    double start = now();
    for (int w = 0; w < WINDOW; w++) {
        char *b = buf + (size_t)w * (size_t)bytes;
        if (rank == 1 || both)
            MPI_Irecv(b, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[n++]);
        if (rank == 0 || both)
            MPI_Isend(b + (size_t)WINDOW * bytes, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                      &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (rank == 0)
        MPI_Recv(&ack, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(&ack, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    return now() - start;
}

/* GB/s of the fastest of BATCHES windows, after a warm-up one. */
static double best_gbps(int rank, char *buf, int bytes, int both)
{
    double best = 1e30;
    window(rank, buf, bytes, both); /* first touch, protocol set-up */
    for (int b = 0; b < BATCHES; b++) {
        double t = window(rank, buf, bytes, both);
        if (t < best)
            best = t;
    }
    return (double)WINDOW * bytes * (both ? 2 : 1) / best / 1e9;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pin_from_env(rank);
    const int max = 4 << 20;
    char *buf = malloc((size_t)2 * WINDOW * max); /* receive half, send half */
    if (!buf || size != 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(buf, rank + 1, (size_t)2 * WINDOW * max);
    for (int bytes = 8 << 10; bytes <= max; bytes *= 2) {
        double one = best_gbps(rank, buf, bytes, 0), both = best_gbps(rank, buf, bytes, 1);
        if (rank == 0)
            printf("calibrate,%d,%.3f,%.3f\n", bytes, one, both);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
