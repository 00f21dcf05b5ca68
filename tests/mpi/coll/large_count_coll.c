/* large_count_coll.c - the MPI-4 large-count (_c) collectives: every one in blocking,
 * nonblocking and persistent form with small MPI_Count counts and MPI_Aint displacements,
 * results checked against locally computed references (gaps between v-form blocks must stay
 * untouched), plus the error classes of a few bad arguments. At 2 ranks also one real count
 * > INT_MAX: MPI_Bcast_c of 2^31 + 8 MPI_BYTEs, checked at sampled positions. */
#include "mpitest.h"

enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *const form_names[] = {"blocking", "nonblocking", "persistent"};

enum { N = 4, POISON = -7 };

static int size, rank;

/* Persistent requests are started twice, except under MPICH: 4.0.2 (Debian 12) fails some
 * persistent collectives on their second start with "Invalid communicator", int forms too
 * (tests/mpi/coll/nonblocking.c fails there the same way); MPICH has fixed bugs of this kind
 * since (pmodels/mpich#7081, #7550). */
static int persistent_starts = 2;

/* After the call of `form`: wait for a nonblocking request; start a persistent one
 * (persistent_starts times, each time waiting for it) and free it. */
static void complete(enum form form, MPI_Request *req)
{
    if (form == NONBLOCKING) {
        MT_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    } else if (form == PERSISTENT) {
        for (int i = 0; i < persistent_starts; i++) {
            MT_MPI(MPI_Start(req));
            MT_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
        }
        MT_MPI(MPI_Request_free(req));
    }
}

static void expect(const int *got, MPI_Count n, const int *want, const char *what, int form)
{
    for (MPI_Count i = 0; i < n; i++)
        if (got[i] != want[i]) {
            MT_CHECK(0, "%s (%s): element %lld is %d, expected %d", what, form_names[form],
                     (long long)i, got[i], want[i]);
            return;
        }
}

static void poison(int *v, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++)
        v[i] = POISON;
}

/* Element k of the block rank r contributes. */
static int val(int r, MPI_Count k)
{
    return r * 100 + (int)k;
}

/* v forms: rank r's block has vcount(r) elements at vdispl(r), one unused element after each. */
static MPI_Count vcount(int r)
{
    return r % 3 + 1;
}

static MPI_Aint vdispl(int r)
{
    MPI_Aint d = 0;
    for (int q = 0; q < r; q++)
        d += vcount(q) + 1;
    return d;
}

static void v_arrays(MPI_Count *counts, MPI_Aint *displs)
{
    for (int r = 0; r < size; r++) {
        counts[r] = vcount(r);
        displs[r] = vdispl(r);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Bcast, reductions                                                                            */

static void test_bcast(enum form form)
{
    int buf[N], want[N], root = size - 1;
    MPI_Request req;
    for (int k = 0; k < N; k++) {
        want[k] = val(root, k);
        buf[k] = rank == root ? want[k] : POISON;
    }
    if (form == BLOCKING)
        MT_MPI(MPI_Bcast_c(buf, N, MPI_INT, root, MPI_COMM_WORLD));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Ibcast_c(buf, N, MPI_INT, root, MPI_COMM_WORLD, &req));
    else
        MT_MPI(MPI_Bcast_init_c(buf, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(buf, N, want, "MPI_Bcast_c", form);
}

/* Sum over ranks first..last of val(r, k). */
static int sum_range(int first, int last, MPI_Count k)
{
    int s = 0;
    for (int r = first; r <= last; r++)
        s += val(r, k);
    return s;
}

static void test_reduce(enum form form)
{
    int send[N], recv[N], want[N], root = size / 2;
    MPI_Request req;
    for (int k = 0; k < N; k++) {
        send[k] = val(rank, k);
        recv[k] = POISON;
        want[k] = rank == root ? sum_range(0, size - 1, k) : POISON;
    }
    if (form == BLOCKING)
        MT_MPI(MPI_Reduce_c(send, recv, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Ireduce_c(send, recv, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req));
    else
        MT_MPI(MPI_Reduce_init_c(send, recv, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(recv, N, want, "MPI_Reduce_c", form);
}

/* Allreduce, Scan, Exscan (which = 0, 1, 2) */
static void test_allreduce_like(int which, enum form form)
{
    static const char *const names[] = {"MPI_Allreduce_c", "MPI_Scan_c", "MPI_Exscan_c"};
    int send[N], recv[N], want[N];
    MPI_Request req;
    MPI_Comm comm = MPI_COMM_WORLD;
    for (int k = 0; k < N; k++) {
        send[k] = val(rank, k);
        recv[k] = POISON;
        if (which == 0)
            want[k] = sum_range(0, size - 1, k);
        else if (which == 1)
            want[k] = sum_range(0, rank, k);
        else
            want[k] = rank == 0 ? POISON : sum_range(0, rank - 1, k); /* rank 0: undefined */
    }
    if (which == 0 && form == BLOCKING)
        MT_MPI(MPI_Allreduce_c(send, recv, N, MPI_INT, MPI_SUM, comm));
    else if (which == 0 && form == NONBLOCKING)
        MT_MPI(MPI_Iallreduce_c(send, recv, N, MPI_INT, MPI_SUM, comm, &req));
    else if (which == 0)
        MT_MPI(MPI_Allreduce_init_c(send, recv, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req));
    else if (which == 1 && form == BLOCKING)
        MT_MPI(MPI_Scan_c(send, recv, N, MPI_INT, MPI_SUM, comm));
    else if (which == 1 && form == NONBLOCKING)
        MT_MPI(MPI_Iscan_c(send, recv, N, MPI_INT, MPI_SUM, comm, &req));
    else if (which == 1)
        MT_MPI(MPI_Scan_init_c(send, recv, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Exscan_c(send, recv, N, MPI_INT, MPI_SUM, comm));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Iexscan_c(send, recv, N, MPI_INT, MPI_SUM, comm, &req));
    else
        MT_MPI(MPI_Exscan_init_c(send, recv, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req));
    complete(form, &req);
    if (which != 2 || rank != 0)
        expect(recv, N, want, names[which], form);
}

/* Reduce_scatter_c: rank r gets vcount(r) elements; Reduce_scatter_block_c: N each. Rank q
 * sends val(q, j) at position j of the whole vector. */
static void test_reduce_scatter(int block, enum form form)
{
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Count total = 0, start = 0, mine = block ? N : vcount(rank);
    for (int r = 0; r < size; r++) {
        counts[r] = block ? N : vcount(r);
        if (r < rank)
            start += counts[r];
        total += counts[r];
    }
    int *send = mt_malloc(sizeof(int) * (size_t)total), recv[N], want[N];
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req;
    for (MPI_Count j = 0; j < total; j++)
        send[j] = val(rank, j);
    for (MPI_Count k = 0; k < mine; k++)
        want[k] = sum_range(0, size - 1, start + k);
    poison(recv, N);
    if (block && form == BLOCKING)
        MT_MPI(MPI_Reduce_scatter_block_c(send, recv, N, MPI_INT, MPI_SUM, comm));
    else if (block && form == NONBLOCKING)
        MT_MPI(MPI_Ireduce_scatter_block_c(send, recv, N, MPI_INT, MPI_SUM, comm, &req));
    else if (block)
        MT_MPI(MPI_Reduce_scatter_block_init_c(send, recv, N, MPI_INT, MPI_SUM, comm,
                                               MPI_INFO_NULL, &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Reduce_scatter_c(send, recv, counts, MPI_INT, MPI_SUM, comm));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Ireduce_scatter_c(send, recv, counts, MPI_INT, MPI_SUM, comm, &req));
    else
        MT_MPI(MPI_Reduce_scatter_init_c(send, recv, counts, MPI_INT, MPI_SUM, comm,
                                         MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(recv, mine, want, block ? "MPI_Reduce_scatter_block_c" : "MPI_Reduce_scatter_c",
           form);
    free(send);
    free(counts);
}

static void test_reduce_local(void)
{
    int in[N], inout[N], want[N];
    for (int k = 0; k < N; k++) {
        in[k] = val(rank, k);
        inout[k] = k;
        want[k] = in[k] + k;
    }
    MT_MPI(MPI_Reduce_local_c(in, inout, N, MPI_INT, MPI_SUM));
    expect(inout, N, want, "MPI_Reduce_local_c", BLOCKING);
}

/* ------------------------------------------------------------------------------------------ */
/* Gather(v), Scatter(v), Allgather(v)                                                          */

/* The gathered vector: N elements per rank, or (v) vcount(r) elements at vdispl(r) with the
 * unused element after each block left POISON. */
static MPI_Count gathered(int v, int *want)
{
    MPI_Count len = v ? vdispl(size) : (MPI_Count)N * size;
    poison(want, len);
    for (int r = 0; r < size; r++) {
        MPI_Count n = v ? vcount(r) : N, at = v ? vdispl(r) : (MPI_Count)r * N;
        for (MPI_Count k = 0; k < n; k++)
            want[at + k] = val(r, k);
    }
    return len;
}

static void test_gather(int v, enum form form)
{
    int root = 0, send[N], *recv = mt_malloc(sizeof(int) * (size_t)(N * size + size));
    int *want = mt_malloc(sizeof(int) * (size_t)(N * size + size));
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size), n = v ? vcount(rank) : N;
    MPI_Aint *displs = mt_malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req;
    v_arrays(counts, displs);
    for (MPI_Count k = 0; k < n; k++)
        send[k] = val(rank, k);
    MPI_Count len = gathered(v, want);
    poison(recv, len);
    if (!v && form == BLOCKING)
        MT_MPI(MPI_Gather_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm));
    else if (!v && form == NONBLOCKING)
        MT_MPI(MPI_Igather_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm, &req));
    else if (!v)
        MT_MPI(MPI_Gather_init_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm, MPI_INFO_NULL,
                                 &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Gatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, root, comm));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Igatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, root, comm,
                              &req));
    else
        MT_MPI(MPI_Gatherv_init_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, root, comm,
                                  MPI_INFO_NULL, &req));
    complete(form, &req);
    if (rank == root)
        expect(recv, len, want, v ? "MPI_Gatherv_c" : "MPI_Gather_c", form);
    free(recv);
    free(want);
    free(counts);
    free(displs);
}

static void test_scatter(int v, enum form form)
{
    int root = size - 1, recv[N], want[N];
    int *send = mt_malloc(sizeof(int) * (size_t)(N * size + size));
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size), n = v ? vcount(rank) : N;
    MPI_Aint *displs = mt_malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req;
    v_arrays(counts, displs);
    gathered(v, send); /* the root scatters what a gather would have collected */
    poison(recv, N);
    poison(want, N);
    for (MPI_Count k = 0; k < n; k++)
        want[k] = val(rank, k);
    if (!v && form == BLOCKING)
        MT_MPI(MPI_Scatter_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm));
    else if (!v && form == NONBLOCKING)
        MT_MPI(MPI_Iscatter_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm, &req));
    else if (!v)
        MT_MPI(MPI_Scatter_init_c(send, N, MPI_INT, recv, N, MPI_INT, root, comm, MPI_INFO_NULL,
                                  &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Scatterv_c(send, counts, displs, MPI_INT, recv, n, MPI_INT, root, comm));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Iscatterv_c(send, counts, displs, MPI_INT, recv, n, MPI_INT, root, comm,
                               &req));
    else
        MT_MPI(MPI_Scatterv_init_c(send, counts, displs, MPI_INT, recv, n, MPI_INT, root, comm,
                                   MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(recv, N, want, v ? "MPI_Scatterv_c" : "MPI_Scatter_c", form);
    free(send);
    free(counts);
    free(displs);
}

static void test_allgather(int v, enum form form)
{
    int send[N], *recv = mt_malloc(sizeof(int) * (size_t)(N * size + size));
    int *want = mt_malloc(sizeof(int) * (size_t)(N * size + size));
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size), n = v ? vcount(rank) : N;
    MPI_Aint *displs = mt_malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req;
    v_arrays(counts, displs);
    for (MPI_Count k = 0; k < n; k++)
        send[k] = val(rank, k);
    MPI_Count len = gathered(v, want);
    poison(recv, len);
    if (!v && form == BLOCKING)
        MT_MPI(MPI_Allgather_c(send, N, MPI_INT, recv, N, MPI_INT, comm));
    else if (!v && form == NONBLOCKING)
        MT_MPI(MPI_Iallgather_c(send, N, MPI_INT, recv, N, MPI_INT, comm, &req));
    else if (!v)
        MT_MPI(MPI_Allgather_init_c(send, N, MPI_INT, recv, N, MPI_INT, comm, MPI_INFO_NULL,
                                    &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Allgatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, comm));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Iallgatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, comm, &req));
    else
        MT_MPI(MPI_Allgatherv_init_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, comm,
                                     MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(recv, len, want, v ? "MPI_Allgatherv_c" : "MPI_Allgather_c", form);
    free(recv);
    free(want);
    free(counts);
    free(displs);
}

/* ------------------------------------------------------------------------------------------ */
/* Alltoall(v,w), on MPI_COMM_WORLD or (neighborhood forms) a distributed graph               */

/* Element k of the block `from` sends to its peer number `slot` (a rank of the world, or the
 * index in from's destination list). */
static int a2a_val(int from, int slot, MPI_Count k)
{
    return from * 1000 + slot * 10 + (int)k;
}

/* Alltoallv blocks: pair (from, slot) moves a2a_count elements. */
static MPI_Count a2a_count(int from, int slot)
{
    return (from + slot) % 3 + 1;
}

/* Which collective an alltoall test runs: plain, v or w. */
enum variant { PLAIN, VECTOR, WIDE };

/* The peers of this rank in an exchange: the world, or the graph in which rank r sends to
 * r+1 and r+2 and receives from r-1 and r-2 (source i sends to us as its destination i). */
struct peers {
    MPI_Comm comm;
    int n;
    int src[2], dst[2];
    int neighbor;
};

static int peer_src(const struct peers *p, int i)
{
    return p->neighbor ? p->src[i] : i;
}

/* The slot under which source i addresses us. */
static int peer_slot(const struct peers *p, int i)
{
    return p->neighbor ? i : rank;
}

static void run_alltoall(const struct peers *p, enum variant var, enum form form,
                         const void *send, const MPI_Count *sc, const MPI_Aint *sd,
                         const MPI_Datatype *st, void *recv, const MPI_Count *rc,
                         const MPI_Aint *rd, const MPI_Datatype *rt)
{
    MPI_Comm c = p->comm;
    MPI_Info in = MPI_INFO_NULL;
    MPI_Request req;
    int nb = p->neighbor;
    if (var == PLAIN && !nb) {
        if (form == BLOCKING)
            MT_MPI(MPI_Alltoall_c(send, N, MPI_INT, recv, N, MPI_INT, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ialltoall_c(send, N, MPI_INT, recv, N, MPI_INT, c, &req));
        else
            MT_MPI(MPI_Alltoall_init_c(send, N, MPI_INT, recv, N, MPI_INT, c, in, &req));
    } else if (var == PLAIN) {
        if (form == BLOCKING)
            MT_MPI(MPI_Neighbor_alltoall_c(send, N, MPI_INT, recv, N, MPI_INT, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ineighbor_alltoall_c(send, N, MPI_INT, recv, N, MPI_INT, c, &req));
        else
            MT_MPI(MPI_Neighbor_alltoall_init_c(send, N, MPI_INT, recv, N, MPI_INT, c, in,
                                                &req));
    } else if (var == VECTOR && !nb) {
        if (form == BLOCKING)
            MT_MPI(MPI_Alltoallv_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ialltoallv_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c, &req));
        else
            MT_MPI(MPI_Alltoallv_init_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c, in,
                                        &req));
    } else if (var == VECTOR) {
        if (form == BLOCKING)
            MT_MPI(MPI_Neighbor_alltoallv_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ineighbor_alltoallv_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c,
                                             &req));
        else
            MT_MPI(MPI_Neighbor_alltoallv_init_c(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, c,
                                                 in, &req));
    } else if (!nb) {
        if (form == BLOCKING)
            MT_MPI(MPI_Alltoallw_c(send, sc, sd, st, recv, rc, rd, rt, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ialltoallw_c(send, sc, sd, st, recv, rc, rd, rt, c, &req));
        else
            MT_MPI(MPI_Alltoallw_init_c(send, sc, sd, st, recv, rc, rd, rt, c, in, &req));
    } else {
        if (form == BLOCKING)
            MT_MPI(MPI_Neighbor_alltoallw_c(send, sc, sd, st, recv, rc, rd, rt, c));
        else if (form == NONBLOCKING)
            MT_MPI(MPI_Ineighbor_alltoallw_c(send, sc, sd, st, recv, rc, rd, rt, c, &req));
        else
            MT_MPI(MPI_Neighbor_alltoallw_init_c(send, sc, sd, st, recv, rc, rd, rt, c, in,
                                                 &req));
    }
    complete(form, &req);
}

/* Block layout of one side: block i has counts[i] elements at displs[i] (in ints), one unused
 * int after each; w forms take the displacements in bytes. Returns the total length. */
static MPI_Count a2a_layout(enum variant var, int n, int from_me, const struct peers *p,
                            MPI_Count *counts, MPI_Aint *displs, MPI_Aint *bytes)
{
    MPI_Count at = 0;
    for (int i = 0; i < n; i++) {
        if (var == PLAIN)
            counts[i] = N;
        else if (from_me)
            counts[i] = a2a_count(rank, i);
        else
            counts[i] = a2a_count(peer_src(p, i), peer_slot(p, i));
        displs[i] = at;
        bytes[i] = at * (MPI_Aint)sizeof(int);
        at += counts[i] + (var == PLAIN ? 0 : 1);
    }
    return at;
}

static void test_alltoall(const struct peers *p, enum variant var, enum form form)
{
    static const char *const names[2][3] = {
        {"MPI_Alltoall_c", "MPI_Alltoallv_c", "MPI_Alltoallw_c"},
        {"MPI_Neighbor_alltoall_c", "MPI_Neighbor_alltoallv_c", "MPI_Neighbor_alltoallw_c"}};
    int n = p->n;
    size_t cap = (size_t)(n * (N + 1) + 1);
    MPI_Count sc[64], rc[64];
    MPI_Aint sd[64], rd[64], sb[64], rb[64];
    MPI_Datatype types[64];
    int *send = mt_malloc(sizeof(int) * cap), *recv = mt_malloc(sizeof(int) * cap);
    int *want = mt_malloc(sizeof(int) * cap);
    MPI_Count slen = a2a_layout(var, n, 1, p, sc, sd, sb);
    MPI_Count rlen = a2a_layout(var, n, 0, p, rc, rd, rb);
    poison(send, slen);
    poison(recv, rlen);
    poison(want, rlen);
    for (int i = 0; i < n; i++) {
        types[i] = MPI_INT;
        for (MPI_Count k = 0; k < sc[i]; k++)
            send[sd[i] + k] = a2a_val(rank, i, k);
        for (MPI_Count k = 0; k < rc[i]; k++)
            want[rd[i] + k] = a2a_val(peer_src(p, i), peer_slot(p, i), k);
    }
    run_alltoall(p, var, form, send, sc, var == WIDE ? sb : sd, types, recv, rc,
                 var == WIDE ? rb : rd, types);
    expect(recv, rlen, want, names[p->neighbor][var], form);
    free(send);
    free(recv);
    free(want);
}

/* Neighbor_allgather(v)_c: source i's whole send block lands in slot i. */
static void test_neighbor_allgather(const struct peers *p, int v, enum form form)
{
    int send[N], recv[2 * (N + 1)], want[2 * (N + 1)];
    MPI_Count counts[2], n = v ? vcount(rank) : N, len = 0;
    MPI_Aint displs[2];
    MPI_Comm c = p->comm;
    MPI_Request req;
    for (MPI_Count k = 0; k < n; k++)
        send[k] = val(rank, k);
    poison(recv, 2 * (N + 1));
    poison(want, 2 * (N + 1));
    for (int i = 0; i < 2; i++) {
        counts[i] = v ? vcount(p->src[i]) : N;
        displs[i] = len;
        for (MPI_Count k = 0; k < counts[i]; k++)
            want[len + k] = val(p->src[i], k);
        len += counts[i] + (v ? 1 : 0);
    }
    if (!v && form == BLOCKING)
        MT_MPI(MPI_Neighbor_allgather_c(send, N, MPI_INT, recv, N, MPI_INT, c));
    else if (!v && form == NONBLOCKING)
        MT_MPI(MPI_Ineighbor_allgather_c(send, N, MPI_INT, recv, N, MPI_INT, c, &req));
    else if (!v)
        MT_MPI(MPI_Neighbor_allgather_init_c(send, N, MPI_INT, recv, N, MPI_INT, c,
                                             MPI_INFO_NULL, &req));
    else if (form == BLOCKING)
        MT_MPI(MPI_Neighbor_allgatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, c));
    else if (form == NONBLOCKING)
        MT_MPI(MPI_Ineighbor_allgatherv_c(send, n, MPI_INT, recv, counts, displs, MPI_INT, c,
                                          &req));
    else
        MT_MPI(MPI_Neighbor_allgatherv_init_c(send, n, MPI_INT, recv, counts, displs, MPI_INT,
                                              c, MPI_INFO_NULL, &req));
    complete(form, &req);
    expect(recv, len, want, v ? "MPI_Neighbor_allgatherv_c" : "MPI_Neighbor_allgather_c", form);
}

/* ------------------------------------------------------------------------------------------ */
/* Argument errors: the _c forms raise the classes of the int forms (every rank passes the same
 * bad argument, so none blocks)                                                                */

static void test_errors(void)
{
    MPI_Comm comm;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    mt_set_errors_return(comm);
    int a[N] = {0}, b[N] = {0}, *big = mt_malloc(sizeof(int) * (size_t)size);
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *displs = mt_malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Request req;
    for (int r = 0; r < size; r++) {
        counts[r] = 1;
        displs[r] = r;
    }
    MT_CHECK_ERRCLASS(MPI_Bcast_c(a, -1, MPI_INT, 0, comm), MPI_ERR_COUNT, "Bcast_c count -1");
    MT_CHECK_ERRCLASS(MPI_Ibcast_c(a, 1, MPI_INT, size, comm, &req), MPI_ERR_ROOT,
                      "Ibcast_c root = size");
    MT_CHECK_ERRCLASS(MPI_Allreduce_c(a, b, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP,
                      "Allreduce_c MPI_OP_NULL");
    MT_CHECK_ERRCLASS(MPI_Allgather_c(a, 1, MPI_DATATYPE_NULL, big, 1, MPI_INT, comm),
                      MPI_ERR_TYPE, "Allgather_c MPI_DATATYPE_NULL");
    counts[size - 1] = -1;
    MT_CHECK_ERRCLASS(MPI_Alltoallv_c(big, counts, displs, MPI_INT, big, counts, displs, MPI_INT,
                                      comm),
                      MPI_ERR_COUNT, "Alltoallv_c count -1");
    MT_CHECK_ERRCLASS(MPI_Reduce_scatter_init_c(big, a, counts, MPI_INT, MPI_SUM, comm,
                                                MPI_INFO_NULL, &req),
                      MPI_ERR_COUNT, "Reduce_scatter_init_c recvcount -1");
    MT_MPI(MPI_Comm_free(&comm));
    free(big);
    free(counts);
    free(displs);
}

/* ------------------------------------------------------------------------------------------ */
/* Counts > INT_MAX of an empty datatype: every blocking _c form accepts them and runs (nothing
 * moves, so this is cheap at any rank count; the 2 GiB broadcast below moves real data)        */

static void empty_op(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)type;
}

static void test_empty_huge_counts(void)
{
    const MPI_Count big = (MPI_Count)INT_MAX + 9;
    MPI_Datatype empty;
    MPI_Op op;
    MT_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    MT_MPI(MPI_Type_commit(&empty));
    MT_MPI(MPI_Op_create_c(empty_op, 1, &op));
    int s[1], r[1];
    MPI_Count *counts = mt_malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *displs = mt_malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Datatype *types = mt_malloc(sizeof(MPI_Datatype) * (size_t)size);
    for (int i = 0; i < size; i++) {
        counts[i] = big;
        displs[i] = 0;
        types[i] = empty;
    }
    MPI_Comm w = MPI_COMM_WORLD;
    MT_MPI(MPI_Bcast_c(s, big, empty, 0, w));
    MT_MPI(MPI_Reduce_c(s, r, big, empty, op, 0, w));
    MT_MPI(MPI_Allreduce_c(s, r, big, empty, op, w));
    MT_MPI(MPI_Scan_c(s, r, big, empty, op, w));
    MT_MPI(MPI_Exscan_c(s, r, big, empty, op, w));
    if (!mt_library_is("MPICH")) { /* 4.0.2 truncates them: "Negative count -2147483640" */
        MT_MPI(MPI_Reduce_scatter_c(s, r, counts, empty, op, w));
        MT_MPI(MPI_Reduce_scatter_block_c(s, r, big, empty, op, w));
    }
    MT_MPI(MPI_Gather_c(s, big, empty, r, big, empty, 0, w));
    MT_MPI(MPI_Gatherv_c(s, big, empty, r, counts, displs, empty, 0, w));
    MT_MPI(MPI_Scatter_c(s, big, empty, r, big, empty, 0, w));
    MT_MPI(MPI_Scatterv_c(s, counts, displs, empty, r, big, empty, 0, w));
    MT_MPI(MPI_Allgather_c(s, big, empty, r, big, empty, w));
    MT_MPI(MPI_Allgatherv_c(s, big, empty, r, counts, displs, empty, w));
    MT_MPI(MPI_Alltoall_c(s, big, empty, r, big, empty, w));
    MT_MPI(MPI_Alltoallv_c(s, counts, displs, empty, r, counts, displs, empty, w));
    MT_MPI(MPI_Alltoallw_c(s, counts, displs, types, r, counts, displs, types, w));
    MT_MPI(MPI_Op_free(&op));
    MT_MPI(MPI_Type_free(&empty));
    free(counts);
    free(displs);
    free(types);
}

/* ------------------------------------------------------------------------------------------ */
/* A real count > INT_MAX                                                                       */

#define HUGE_COUNT ((MPI_Count)INT_MAX + 9) /* 2^31 + 8 */
#define HUGE_STRIDE 1048573                 /* a prime near 1 MiB: sampled bytes */

static unsigned char huge_val(MPI_Count i)
{
    return (unsigned char)(i % 251 + 1);
}

/* The sampled bytes: every HUGE_STRIDE-th, and the last 64. */
static int huge_sampled(MPI_Count i)
{
    return i % HUGE_STRIDE == 0 || i >= HUGE_COUNT - 64;
}

static MPI_Count huge_next(MPI_Count i)
{
    return i + HUGE_STRIDE < HUGE_COUNT - 64 ? i + HUGE_STRIDE
                                             : (i < HUGE_COUNT - 64 ? HUGE_COUNT - 64 : i + 1);
}

/* Rank 0 broadcasts 2^31 + 8 bytes to rank 1 with one MPI_Bcast_c. To stay cheap only the
 * sampled bytes are written at the root (the rest of its fresh allocation reads as zero without
 * being touched); the receiver poisons each sampled byte and the unsampled byte after it, so
 * both show a real copy. The only 2 GiB of page faults are the receiver's, during the copy. */
static void test_huge_bcast(void)
{
    unsigned char *buf = malloc((size_t)HUGE_COUNT);
    int ok = buf != NULL, all_ok = 0;
    MT_MPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (!all_ok) {
        if (rank == 0)
            printf("skipping the 2 GiB MPI_Bcast_c: out of memory\n");
        free(buf);
        return;
    }
    for (MPI_Count i = 0; i < HUGE_COUNT; i = huge_next(i)) {
        buf[i] = rank == 0 ? huge_val(i) : 0xEE;
        if (i + 1 < HUGE_COUNT && !huge_sampled(i + 1))
            buf[i + 1] = rank == 0 ? 0 : 0xEE;
    }
    MT_MPI(MPI_Bcast_c(buf, HUGE_COUNT, MPI_BYTE, 0, MPI_COMM_WORLD));
    long bad = 0, checked = 0;
    MPI_Count first = -1;
    for (MPI_Count i = 0; i < HUGE_COUNT; i = huge_next(i)) {
        checked++;
        if (buf[i] != huge_val(i) && bad++ == 0)
            first = i;
        if (i + 1 == HUGE_COUNT || huge_sampled(i + 1))
            continue;
        checked++;
        if (buf[i + 1] != 0 && bad++ == 0)
            first = i + 1;
    }
    MT_CHECK(bad == 0, "MPI_Bcast_c of %lld bytes: %ld of %ld checked bytes wrong, first at %lld",
             (long long)HUGE_COUNT, bad, checked, (long long)first);
    free(buf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2); /* with 1 rank the graph lists rank 0 twice: order left to MPIs */
    rank = mt_rank;
    size = mt_size;
    if (mt_library_is("MPICH"))
        persistent_starts = 1;

    struct peers world = {.comm = MPI_COMM_WORLD, .n = size, .neighbor = 0};
    struct peers graph = {.n = 2, .neighbor = 1};
    for (int i = 0; i < 2; i++) {
        graph.dst[i] = (rank + i + 1) % size;
        graph.src[i] = ((rank - i - 1) % size + size) % size;
    }
    int weights[2] = {1, 1}; /* (MPI_UNWEIGHTED trips gcc's -Wstringop-overread) */
    MT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, graph.src, weights, 2, graph.dst,
                                          weights, MPI_INFO_NULL, 0, &graph.comm));
    MT_ASSERT(size <= 64, "at most 64 ranks");

    test_reduce_local();
    for (int f = BLOCKING; f <= PERSISTENT; f++) {
        enum form form = (enum form)f;
        test_bcast(form);
        test_reduce(form);
        for (int which = 0; which < 3; which++)
            test_allreduce_like(which, form);
        test_reduce_scatter(0, form);
        test_reduce_scatter(1, form);
        for (int v = 0; v < 2; v++) {
            test_gather(v, form);
            test_scatter(v, form);
            test_allgather(v, form);
            test_neighbor_allgather(&graph, v, form);
        }
        for (int var = PLAIN; var <= WIDE; var++) {
            test_alltoall(&world, (enum variant)var, form);
            test_alltoall(&graph, (enum variant)var, form);
        }
    }
    MT_MPI(MPI_Comm_free(&graph.comm));
    test_errors();
    test_empty_huge_counts();

    if (size == 2)
        test_huge_bcast();
    return mt_finish();
}
