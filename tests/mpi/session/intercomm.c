/* intercomm: MPI_Intercomm_create_from_groups without MPI_Init. The mpi://WORLD group is cut
 * into even and odd ranks; the two halves become an intercommunicator, exchange with each other
 * and merge back into one intracommunicator. Needs at least two processes. MPICH 4.0.2 asserts
 * that MPI_COMM_WORLD exists in MPI_Intercomm_create_from_groups (no sessions-only support):
 * there the test stops after the session's start and says so. */
#include "mpitest.h"

/* The members of group with my parity (want == my parity) or the other one. */
static MPI_Group half(MPI_Group world, int size, int parity)
{
    int ranks[64], n = 0;
    for (int r = parity; r < size && n < 64; r += 2)
        ranks[n++] = r;
    MPI_Group out;
    MT_MPI(MPI_Group_incl(world, n, ranks, &out));
    return out;
}

int main(void)
{
    MPI_Info info; /* an empty info: MPICH 4.0.2 crashes on MPI_INFO_NULL */
    MPI_Session session;
    MT_MPI(MPI_Info_create(&info));
    MT_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Info_free(&info));
    MPI_Group world;
    MT_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
    MPI_Group_size(world, &mt_size);
    MPI_Group_rank(world, &mt_rank);
    if (mt_size < 2 || mt_size > 64) {
        fprintf(stderr, "FAIL: intercomm needs 2..64 processes, got %d\n", mt_size);
        return 1;
    }
    if (mt_library_is("MPICH")) {
        MPI_Group_free(&world);
        MT_MPI(MPI_Session_finalize(&session));
        if (mt_rank == 0)
            printf("No errors (MPI_Intercomm_create_from_groups not tried on MPICH)\n");
        return mt_errors ? 1 : 0;
    }
    int parity = mt_rank % 2;
    MPI_Group mine = half(world, mt_size, parity), theirs = half(world, mt_size, 1 - parity);
    int local_size = 0, remote_size = 0;
    MPI_Group_size(mine, &local_size);
    MPI_Group_size(theirs, &remote_size);

    MPI_Comm inter = MPI_COMM_NULL;
    MT_MPI(MPI_Intercomm_create_from_groups(mine, 0, theirs, 0, "session.intercomm",
                                            MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter));
    int flag = 0, rsize = 0, lrank = -1;
    MPI_Comm_test_inter(inter, &flag);
    MT_CHECK_INT(1, flag, "MPI_Comm_test_inter");
    MPI_Comm_remote_size(inter, &rsize);
    MT_CHECK_INT(remote_size, rsize, "remote size");
    MPI_Comm_rank(inter, &lrank);
    MT_CHECK_INT(mt_rank / 2, lrank, "rank in my half");

    /* Each local rank i talks to remote rank i where it exists. */
    int peer = lrank < rsize ? lrank : MPI_PROC_NULL, out = 1000 * parity + lrank, in = -1;
    MT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, peer, 9, &in, 1, MPI_INT, peer, 9, inter,
                        MPI_STATUS_IGNORE));
    if (peer != MPI_PROC_NULL)
        MT_CHECK_INT(1000 * (1 - parity) + lrank, in, "value from the other half");

    /* Merge: evens first (odd ranks ask to go high). */
    MPI_Comm merged = MPI_COMM_NULL;
    MT_MPI(MPI_Intercomm_merge(inter, parity, &merged));
    int mrank = -1, msize = 0, sum = 0, value;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MT_CHECK_INT(mt_size, msize, "merged size");
    int evens = (mt_size + 1) / 2;
    MT_CHECK_INT(parity ? evens + mt_rank / 2 : mt_rank / 2, mrank, "rank after merge");
    value = mt_rank;
    MT_MPI(MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, merged));
    MT_CHECK_INT(mt_size * (mt_size - 1) / 2, sum, "allreduce over the merged communicator");

    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Group_free(&mine);
    MPI_Group_free(&theirs);
    MPI_Group_free(&world);
    MT_MPI(MPI_Session_finalize(&session));
    if (mt_rank == 0) {
        if (total == 0)
            printf("No errors\n");
        else
            fprintf(stderr, "FAILED: %ld check(s) failed in total\n", total);
    }
    return mt_errors ? 1 : 0;
}
