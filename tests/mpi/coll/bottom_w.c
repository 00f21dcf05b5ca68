/* bottom_w.c - the `w` collectives with MPI_BOTTOM buffers and predefined types: their byte
 * displacements may carry absolute addresses (MPI_Get_address), so a NULL buffer with a
 * nonzero count is legal there (mpi4py's testNeighborAlltoallwBottom). Covered: Alltoallw,
 * Ialltoallw, Alltoallw_init and the three Neighbor_alltoallw forms on a periodic ring.
 * Alltoallw's displacements are int: its data sits in memory mapped below 2 GiB so that the
 * absolute addresses fit (the part is skipped, with a note, when no such mapping is granted). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS: not in strict POSIX.1-2008 */
#include "../common/mpitest.h"

#include <sys/mman.h>

enum { N = 3, BLOCKING_FORM, NONBLOCKING_FORM, PERSISTENT_FORM };

static int val(int from, int to, int slot, int j)
{
    return from * 100000 + to * 1000 + slot * 10 + j;
}

static void finish(MPI_Request *req, int form)
{
    if (*req == MPI_REQUEST_NULL) /* the call failed (reported) */
        return;
    if (form == PERSISTENT_FORM) {
        MT_MPI(MPI_Start(req));
        MT_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Request_free(req));
    } else if (form == NONBLOCKING_FORM) {
        MT_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    }
}

/* ---- Alltoallw: block for peer p at byte address sbuf + p*N ints, absolute int displs ---- */

static int *low_memory(size_t bytes)
{
    void *hint = (void *)(uintptr_t)0x20000000u;
    void *p = mmap(hint, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if ((uintptr_t)p + bytes > (uintptr_t)INT_MAX) {
        munmap(p, bytes);
        return NULL;
    }
    return p;
}

static void alltoallw_bottom(int form, int *sbuf, int *rbuf)
{
    int n = mt_size;
    int *counts = mt_malloc(sizeof(int) * n), *sd = mt_malloc(sizeof(int) * n);
    int *rd = mt_malloc(sizeof(int) * n);
    MPI_Datatype *types = mt_malloc(sizeof(MPI_Datatype) * n);
    for (int p = 0; p < n; p++) {
        MPI_Aint s, r;
        MPI_Get_address(sbuf + p * N, &s);
        MPI_Get_address(rbuf + p * N, &r);
        counts[p] = N;
        sd[p] = (int)s;
        rd[p] = (int)r;
        types[p] = MPI_INT;
        for (int j = 0; j < N; j++) {
            sbuf[p * N + j] = val(mt_rank, p, form, j);
            rbuf[p * N + j] = -1;
        }
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (form == BLOCKING_FORM)
        MT_MPI(MPI_Alltoallw(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types,
                             MPI_COMM_WORLD));
    else if (form == NONBLOCKING_FORM)
        MT_MPI(MPI_Ialltoallw(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types,
                              MPI_COMM_WORLD, &req));
    else
        MT_MPI(MPI_Alltoallw_init(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types,
                                  MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    finish(&req, form);
    for (int p = 0; p < n; p++)
        for (int j = 0; j < N; j++)
            MT_CHECK_INT(val(p, mt_rank, form, j), rbuf[p * N + j], "alltoallw block");
    free(counts);
    free(sd);
    free(rd);
    free(types);
}

/* ---- Neighbor_alltoallw on a periodic ring: MPI_Aint displacements hold the addresses ---- */

static void neighbor_bottom(MPI_Comm ring, int form)
{
    int src[2], sbuf[2 * N], rbuf[2 * N], counts[2] = {N, N};
    MPI_Aint sd[2], rd[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Cart_shift(ring, 0, 1, &src[0], &src[1]);
    for (int s = 0; s < 2; s++) {
        MPI_Get_address(sbuf + s * N, &sd[s]);
        MPI_Get_address(rbuf + s * N, &rd[s]);
        for (int j = 0; j < N; j++) {
            sbuf[s * N + j] = val(mt_rank, s, form, j);
            rbuf[s * N + j] = -1;
        }
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (form == BLOCKING_FORM)
        MT_MPI(MPI_Neighbor_alltoallw(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd,
                                      types, ring));
    else if (form == NONBLOCKING_FORM)
        MT_MPI(MPI_Ineighbor_alltoallw(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd,
                                       types, ring, &req));
    else
        MT_MPI(MPI_Neighbor_alltoallw_init(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts,
                                           rd, types, ring, MPI_INFO_NULL, &req));
    finish(&req, form);
    /* receive slot i holds what source i sent in its slot i ^ 1 (MPI-4.1 section 8.6) */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < N; j++)
            MT_CHECK_INT(val(src[i], i ^ 1, form, j), rbuf[i * N + j], "neighbor block");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);

    size_t bytes = 2 * sizeof(int) * (size_t)N * (size_t)mt_size;
    int *low = low_memory(bytes);
    int everyone = low != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &everyone, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (everyone) {
        for (int form = BLOCKING_FORM; form <= PERSISTENT_FORM; form++)
            alltoallw_bottom(form, low, low + N * mt_size);
    } else if (mt_rank == 0) {
        printf("note: no memory below 2 GiB; MPI_Alltoallw with MPI_BOTTOM not tested\n");
    }
    if (low)
        munmap(low, bytes);

    MPI_Comm ring;
    int dims[1] = {mt_size}, periods[1] = {1};
    MT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    mt_set_errors_return(ring);
    for (int form = BLOCKING_FORM; form <= PERSISTENT_FORM; form++)
        neighbor_bottom(ring, form);
    MPI_Comm_free(&ring);
    return mt_finish();
}
