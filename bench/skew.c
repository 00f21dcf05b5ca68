/* skew.c - process-skew benchmark of seed 001 section 3.4, Fig. 5. Producer (rank 0): -w times
 * { compute c1; MPI_Isend(m bytes) }, then MPI_Waitall; c3 = its time for all that. Consumer
 * (rank 1): -w times { MPI_Recv; compute c2 }. With c2 >> c1 an eager (buffered) protocol lets
 * the producer finish in ~ w*c1; a protocol that needs the receiver (rendezvous, single-copy)
 * makes c3 ~ w*(c2 + recv). A 4-byte ack after each round keeps rounds from piling up (untimed).
 * Defaults as the seed: m = 16 KiB, c1 = 1 us, window 64; -s sweeps c2 in microseconds.
 * Output: skew,<c2 us>,<ranks>,c3_<m>_us,<median producer time per round, us>, m as 16K, 1K.. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>

#define C1 1e-6

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "0,1,2,5,10,20,50,100", 16384,
            "  -s  consumer compute times c2 in microseconds\n  -m  message bytes (16K)\n");
    nb_require_ranks(&o, 2, "skew");
    char *buf = nb_alloc(o.msg * (size_t)o.window);
    MPI_Request *req = malloc((size_t)o.window * sizeof *req);
    int n = (int)o.msg, ack = 0;
    char metric[32];
    if (o.msg >= 1024 && o.msg % 1024 == 0)
        snprintf(metric, sizeof metric, "c3_%zuK_us", o.msg / 1024);
    else
        snprintf(metric, sizeof metric, "c3_%zu_us", o.msg);

    for (int i = 0; i < o.nsizes; i++) {
        double c2 = (double)o.sizes[i] * 1e-6;
        /* Rounds: fill the budget (the consumer's work bounds a round), at least 5, at most 200. */
        int rounds = (int)(o.budget / (o.window * (c2 + C1 + 2e-6)));
        rounds = rounds < 5 ? 5 : rounds > 200 ? 200 : rounds;
        double *c3 = malloc(sizeof(double) * (size_t)(rounds + 1));
        for (int r = -1; r < rounds; r++) { /* round -1 is warm-up */
            MPI_Barrier(MPI_COMM_WORLD);
            if (o.rank == 0) {
                double t0 = nb_now();
                for (int w = 0; w < o.window; w++) {
                    nb_spin(C1);
                    MPI_Isend(buf + (size_t)w * o.msg, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req[w]);
                }
                nb_waitall(o.window, req);
                if (r >= 0)
                    c3[r] = nb_now() - t0;
                MPI_Recv(&ack, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (o.rank == 1) {
                for (int w = 0; w < o.window; w++) {
                    MPI_Recv(buf + (size_t)w * o.msg, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                    nb_spin(c2);
                }
                MPI_Send(&ack, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
            }
        }
        if (o.rank == 0) {
            qsort(c3, (size_t)rounds, sizeof *c3, cmp);
            nb_emit(&o, "skew", (double)o.sizes[i], metric, c3[rounds / 2] * 1e6);
        }
        free(c3);
    }
    nb_finalize();
    return 0;
}
