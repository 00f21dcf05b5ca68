/* copy_adapt: rendezvous messages whose copy (single copy or pipeline) the receiver picks from
 * its measured receive times, and blocking collectives that pick it for their messages
 * (p2p/adapt.c, coll/copy_choice.c), while the choice keeps changing: for ~1.5 s (about 30
 * tries of the losing copy, one per 50 ms), random sizes 8 KiB - 1 MiB + odd bytes in
 * ping-pong, exchange and burst patterns, and bcast/reduce/allgather of random sizes. Every
 * byte is checked, and the burst checks that order holds across copies (each message carries
 * its sequence number in its pattern). */
#include "../common/mpitest.h"

#define MAXSZ ((1 << 20) + 7)
#define BURST 6

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* log-uniform from 8 KiB to 1 MiB, plus a few odd bytes */
static int random_size(unsigned *state)
{
    int shift = 13 + (int)(next_random(state) % 8);
    return (1 << shift) + (int)(next_random(state) % (1u << shift)) % (MAXSZ - (1 << shift));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int peer = mt_rank ^ 1;
    unsigned char *sbuf = mt_malloc((size_t)MAXSZ * BURST), *rbuf = mt_malloc((size_t)MAXSZ * BURST);
    long *red_in = mt_malloc(sizeof(long) * (MAXSZ / 8)), *red_out = mt_malloc(sizeof(long) * (MAXSZ / 8));
    unsigned state = 12345; /* the same sequence on every rank */
    char what[160];
    double end = MPI_Wtime() + 1.5;
    int iter = 0, go = 1;
    while (go) {
        int pattern = (int)(next_random(&state) % 4), n = random_size(&state);
        uint64_t seed = (uint64_t)iter * 1000;
        if (pattern < 3 && peer >= mt_size) {
            /* odd rank count: the last rank sits the pair patterns out */
        } else if (pattern == 0) { /* ping-pong */
            for (int leg = 0; leg < 2; leg++) {
                if ((mt_rank & 1) == leg) {
                    mt_fill(sbuf, (size_t)n, seed + (uint64_t)mt_rank);
                    MPI_Send(sbuf, n, MPI_BYTE, peer, iter, MPI_COMM_WORLD);
                } else {
                    MPI_Recv(rbuf, n, MPI_BYTE, peer, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    snprintf(what, sizeof what, "iter %d ping-pong %d B", iter, n);
                    MT_VERIFY(rbuf, (size_t)n, seed + (uint64_t)peer, what);
                }
            }
        } else if (pattern == 1) { /* exchange */
            mt_fill(sbuf, (size_t)n, seed + (uint64_t)mt_rank);
            MPI_Sendrecv(sbuf, n, MPI_BYTE, peer, iter, rbuf, n, MPI_BYTE, peer, iter,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            snprintf(what, sizeof what, "iter %d exchange %d B", iter, n);
            MT_VERIFY(rbuf, (size_t)n, seed + (uint64_t)peer, what);
        } else if (pattern == 2) { /* burst one way, receives posted late */
            int m = n / BURST + 1;
            if (mt_rank & 1) {
                MPI_Request req[BURST];
                for (int b = 0; b < BURST; b++) {
                    mt_fill(sbuf + (size_t)b * MAXSZ, (size_t)m, seed + (uint64_t)b);
                    MPI_Isend(sbuf + (size_t)b * MAXSZ, m, MPI_BYTE, peer, iter, MPI_COMM_WORLD,
                              &req[b]);
                }
                MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE);
            } else {
                for (int b = 0; b < BURST; b++) {
                    MPI_Recv(rbuf, m, MPI_BYTE, peer, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    snprintf(what, sizeof what, "iter %d burst message %d of %d B", iter, b, m);
                    MT_VERIFY(rbuf, (size_t)m, seed + (uint64_t)b, what);
                }
            }
        } else { /* collectives */
            int root = iter % mt_size;
            if (mt_rank == root)
                mt_fill(sbuf, (size_t)n, seed);
            MPI_Bcast(sbuf, n, MPI_BYTE, root, MPI_COMM_WORLD);
            snprintf(what, sizeof what, "iter %d bcast %d B from %d", iter, n, root);
            MT_VERIFY(sbuf, (size_t)n, seed, what);
            int cnt = n / 8;
            for (int i = 0; i < cnt; i++)
                red_in[i] = (long)i * (mt_rank + 1) + iter;
            MPI_Allreduce(red_in, red_out, cnt, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            long ranks_sum = (long)mt_size * (mt_size + 1) / 2;
            for (int i = 0; i < cnt; i++)
                if (red_out[i] != (long)i * ranks_sum + (long)iter * mt_size) {
                    MT_CHECK(0, "iter %d allreduce %d longs: element %d is %ld", iter, cnt, i,
                             red_out[i]);
                    break;
                }
            int block = n / mt_size;
            mt_fill(sbuf, (size_t)block, seed + (uint64_t)mt_rank);
            MPI_Allgather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, MPI_COMM_WORLD);
            for (int r = 0; r < mt_size; r++) {
                snprintf(what, sizeof what, "iter %d allgather block %d of %d B", iter, r, block);
                MT_VERIFY(rbuf + (size_t)r * block, (size_t)block, seed + (uint64_t)r, what);
            }
        }
        iter++;
        /* everyone stops at the same iteration */
        int more = MPI_Wtime() < end;
        MPI_Allreduce(&more, &go, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    }
    if (mt_rank == 0)
        printf("copy_adapt: %d iterations\n", iter);
    free(sbuf);
    free(rbuf);
    free(red_in);
    free(red_out);
    return mt_finish();
}
