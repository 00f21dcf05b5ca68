/* cvar_write: writing control variables takes effect (src/mpi/mpit.c, src/p2p/tool.c).
 * NODEMPI_EAGER_LIMIT (scope LOCAL) written before MPI_Init survives MPI_Init, and written at run
 * time changes how this rank sends an 8 KiB message: eagerly (nodempi_p2p_sent_eager or
 * _eager_long, by the record size of the queue design) under a 64 KiB limit, by rendezvous (single copy or pipelined) under 4 KiB, seen through the send
 * counters. A collective algorithm (scope ALL_EQ), written on every rank, is used by the next
 * call (the result stays right). Read-only variables are MPI_T_ERR_CVAR_SET_NEVER; a value
 * outside an enumeration is MPI_T_ERR_INVALID and leaves the variable as it was. */
#include "mpitest.h"
#include "mt_mpit.h"

enum { MESSAGE = 8192 };

static MPI_T_pvar_session session;

/* Rank 0 sends one MESSAGE-byte message to rank 1; returns how rank 0's counters moved:
 * 'e' eager, 'r' rendezvous, '?' anything else. */
static char send_one(MPI_T_pvar_handle eager, MPI_T_pvar_handle eager_long,
                     MPI_T_pvar_handle cma, MPI_T_pvar_handle rndv)
{
    static char buf[MESSAGE];
    unsigned long long e = mt_pvar_read(session, eager) + mt_pvar_read(session, eager_long);
    unsigned long long c = mt_pvar_read(session, cma), r = mt_pvar_read(session, rndv);
    char how = '-';
    if (mt_rank == 0) {
        MPI_Send(buf, MESSAGE, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        e = mt_pvar_read(session, eager) + mt_pvar_read(session, eager_long) - e;
        c = mt_pvar_read(session, cma) - c;
        r = mt_pvar_read(session, rndv) - r;
        how = e == 1 && c + r == 0 ? 'e' : e == 0 && c + r == 1 ? 'r' : '?';
    } else if (mt_rank == 1) {
        MPI_Recv(buf, MESSAGE, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return how;
}

/* Rank 0 sends 1 MiB to rank 1: 1 when it went by single copy, 0 by the pipelined rendezvous,
 * -1 otherwise (on rank 0; other ranks return 0). */
static int send_large(MPI_T_pvar_handle cma, MPI_T_pvar_handle rndv)
{
    enum { LARGE = 1 << 20 };
    static char buf[LARGE];
    unsigned long long c = mt_pvar_read(session, cma), r = mt_pvar_read(session, rndv);
    int how = 0;
    if (mt_rank == 0) {
        MPI_Send(buf, LARGE, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        c = mt_pvar_read(session, cma) - c;
        r = mt_pvar_read(session, rndv) - r;
        how = c == 1 && r == 0 ? 1 : c == 0 && r == 1 ? 0 : -1;
    } else if (mt_rank == 1) {
        MPI_Recv(buf, LARGE, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return how;
}

int main(int argc, char **argv)
{
    int provided;
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    /* Before MPI_Init: a LOCAL variable can be written and MPI_Init keeps it. */
    MPI_T_cvar_handle eager = mt_cvar_handle("NODEMPI_EAGER_LIMIT");
    unsigned long limit = 65536, got = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(eager, &limit), "write before MPI_Init");
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_read(eager, &got), "read after MPI_Init");
    MT_CHECK_INT(65536, got, "a write before MPI_Init survives it");

    session = mt_pvar_session_create();
    MPI_T_pvar_handle eager1 = mt_pvar_counter(session, "nodempi_p2p_sent_eager");
    MPI_T_pvar_handle eager_long = mt_pvar_counter(session, "nodempi_p2p_sent_eager_long");
    MPI_T_pvar_handle cma = mt_pvar_counter(session, "nodempi_p2p_sent_single_copy");
    MPI_T_pvar_handle rndv = mt_pvar_counter(session, "nodempi_p2p_sent_rendezvous");

    char sent = send_one(eager1, eager_long, cma, rndv);
    if (mt_rank == 0)
        MT_CHECK(sent == 'e', "8 KiB under a 64 KiB eager limit: sent as '%c', not eager", sent);
    limit = 4096;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(eager, &limit), "write at run time");
    MPI_T_cvar_read(eager, &got);
    MT_CHECK_INT(4096, got, "read back");
    sent = send_one(eager1, eager_long, cma, rndv);
    if (mt_rank == 0)
        MT_CHECK(sent == 'r', "8 KiB over a 4 KiB eager limit: sent as '%c', not rendezvous", sent);
    limit = 65536;
    MPI_T_cvar_write(eager, &limit);
    sent = send_one(eager1, eager_long, cma, rndv);
    if (mt_rank == 0)
        MT_CHECK(sent == 'e', "eager limit raised again: sent as '%c', not eager", sent);
    limit = 4096;
    MPI_T_cvar_write(eager, &limit);

    /* NODEMPI_CMA_THRESHOLD (LOCAL): a 1 MiB message goes by single copy under the threshold
     * (when the kernel permits process_vm_readv at all), pipelined above it. */
    MPI_T_cvar_handle threshold = mt_cvar_handle("NODEMPI_CMA_THRESHOLD");
    unsigned long old_threshold, huge = 1ul << 30, small = 16384;
    MPI_T_cvar_read(threshold, &old_threshold);
    MPI_T_cvar_write(threshold, &small);
    int single_copy = send_large(cma, rndv);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(threshold, &huge), "threshold write");
    int how = send_large(cma, rndv);
    MT_CHECK_INT(0, how, "1 MiB over a 1 GiB single-copy threshold");
    MPI_T_cvar_write(threshold, &small);
    how = send_large(cma, rndv);
    MT_CHECK_INT(single_copy, how, "threshold lowered again");
    const char *copy = getenv("NODEMPI_SINGLE_COPY");
    if (copy && strcmp(copy, "none") == 0)
        MT_CHECK_INT(0, single_copy, "single copy used though NODEMPI_SINGLE_COPY=none");
    MPI_T_cvar_write(threshold, &old_threshold);
    MPI_T_cvar_handle_free(&threshold);

    /* ALL_EQ: every rank writes the same algorithm; the next bcast uses it and is right. */
    MPI_T_cvar_handle bcast = mt_cvar_handle("NODEMPI_COLL_BCAST");
    MPI_T_enum enumtype;
    int index, items, old, value = -1;
    MPI_T_cvar_get_index("NODEMPI_COLL_BCAST", &index);
    MPI_T_cvar_get_info(index, NULL, NULL, NULL, NULL, &enumtype, NULL, NULL, NULL, NULL);
    MPI_T_enum_get_info(enumtype, &items, NULL, NULL);
    MPI_T_cvar_read(bcast, &old);
    for (int alg = 0; alg < items; alg++) {
        char name[64];
        int len = sizeof(name);
        MPI_T_enum_get_item(enumtype, alg, &value, name, &len);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(bcast, &value), name);
        int now = -1;
        MPI_T_cvar_read(bcast, &now);
        MT_CHECK_INT(value, now, "algorithm read back");
        int data[100];
        for (int i = 0; i < 100; i++)
            data[i] = mt_rank == 1 ? i * 7 + alg : -1;
        MPI_Bcast(data, 100, MPI_INT, 1, MPI_COMM_WORLD);
        for (int i = 0; i < 100; i++)
            if (data[i] != i * 7 + alg) {
                MT_CHECK(0, "bcast with algorithm %s: data[%d] = %d", name, i, data[i]);
                break;
            }
    }
    value = items; /* one past the enumeration */
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_cvar_write(bcast, &value), "value outside the enum");
    value = -1;
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_cvar_write(bcast, &value), "negative enum value");
    int now = -1;
    MPI_T_cvar_read(bcast, &now);
    MT_CHECK_INT(items - 1, now, "a refused write leaves the value");
    MPI_T_cvar_write(bcast, &old);

    /* Read-only: set at MPI_Init. */
    MPI_T_cvar_handle queue = mt_cvar_handle("NODEMPI_QUEUE");
    int before, attempt = 1;
    MPI_T_cvar_read(queue, &before);
    MT_CHECK_INT(MPI_T_ERR_CVAR_SET_NEVER, MPI_T_cvar_write(queue, &attempt), "read-only write");
    MPI_T_cvar_read(queue, &attempt);
    MT_CHECK_INT(before, attempt, "read-only value unchanged");
    MPI_T_cvar_handle profile = mt_cvar_handle("NODEMPI_PROFILE");
    MT_CHECK_INT(MPI_T_ERR_CVAR_SET_NEVER, MPI_T_cvar_write(profile, "x"), "string write");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_cvar_write(eager, NULL), "write from NULL");

    /* An unsigned run-time variable. */
    MPI_T_cvar_handle spin = mt_cvar_handle("NODEMPI_SPIN_ROUNDS");
    unsigned rounds = 0, saved;
    MPI_T_cvar_read(spin, &saved);
    rounds = 123;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(spin, &rounds), "spin rounds");
    rounds = 0;
    MPI_T_cvar_read(spin, &rounds);
    MT_CHECK_INT(123, rounds, "spin rounds read back");
    MPI_T_cvar_write(spin, &saved);

    MPI_T_cvar_handle handles[] = {eager, bcast, queue, profile, spin};
    for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); i++)
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_handle_free(&handles[i]), "cvar_handle_free");
    return mt_finish_with_mpit(&session);
}
