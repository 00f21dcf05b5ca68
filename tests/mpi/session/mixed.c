/* mixed: sessions beside the world model, in both orders (SESSION_ORDER=init_first or
 * session_first). The runtime is shared and reference-counted: whichever of MPI_Finalize and
 * MPI_Session_finalize comes last stops it, and MPI_Initialized/MPI_Finalized keep describing
 * the world model only. init_first also uses the session after MPI_Finalize and (not on MPICH
 * 4.0.2, which crashes there) starts a new session once everything has ended. */
#include "mpitest.h"

static void check_world_flags(int initialized, int finalized, const char *when)
{
    int flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(initialized, flag, when);
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK_INT(finalized, flag, when);
}

static MPI_Comm comm_from_pset(MPI_Session session, const char *pset, const char *tag)
{
    MPI_Group group;
    MPI_Comm comm = MPI_COMM_NULL;
    MT_MPI(MPI_Group_from_session_pset(session, pset, &group));
    MT_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    MT_MPI(MPI_Group_free(&group));
    return comm;
}

/* Sum of (rank + salt) over comm, checked against the closed form. */
static void check_allreduce(MPI_Comm comm, int salt, const char *what)
{
    int rank, size, sum = -1, mine;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    mine = rank + salt;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm));
    MT_CHECK_INT(size * (size - 1) / 2 + size * salt, sum, what);
}

/* The session's mpi://WORLD communicator and MPI_COMM_WORLD hold the same processes in the
 * same order, yet are separate communication spaces: the same (source, tag) on both must not
 * cross. */
static void check_against_world(MPI_Comm scomm)
{
    MPI_Group world_group, session_group;
    int result = -1;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Comm_group(scomm, &session_group);
    MPI_Group_compare(world_group, session_group, &result);
    MT_CHECK_INT(MPI_IDENT, result, "group of mpi://WORLD vs MPI_COMM_WORLD");
    MPI_Group_free(&world_group);
    MPI_Group_free(&session_group);

    int on_world = -1, on_session = -1;
    int out_world = 1000 + mt_rank, out_session = 2000 + mt_rank;
    MPI_Request reqs[4];
    MPI_Irecv(&on_session, 1, MPI_INT, mt_left(), 5, scomm, &reqs[0]);
    MPI_Irecv(&on_world, 1, MPI_INT, mt_left(), 5, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&out_world, 1, MPI_INT, mt_right(), 5, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&out_session, 1, MPI_INT, mt_right(), 5, scomm, &reqs[3]);
    MT_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(1000 + mt_left(), on_world, "message on MPI_COMM_WORLD");
    MT_CHECK_INT(2000 + mt_left(), on_session, "message on the session communicator");
}

/* Failures of all ranks, summed over comm (every rank prints its own as well). */
static long total_errors(MPI_Comm comm)
{
    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, comm);
    return total;
}

static long init_first(void)
{
    MPI_Init(NULL, NULL);
    mt_setup();
    check_world_flags(1, 0, "after MPI_Init");
    MPI_Info info; /* an empty info: MPICH 4.0.2 crashes on MPI_INFO_NULL here */
    MT_MPI(MPI_Info_create(&info));
    MPI_Session session;
    MT_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Info_free(&info));
    MPI_Comm scomm = comm_from_pset(session, "mpi://WORLD", "mixed.init_first");
    check_allreduce(scomm, 1, "session allreduce while the world model is up");
    check_against_world(scomm);
    MPI_Finalize();
    check_world_flags(1, 1, "after MPI_Finalize with a session open");

    /* The session still holds the runtime. */
    check_allreduce(scomm, 2, "session allreduce after MPI_Finalize");
    MPI_Comm self = comm_from_pset(session, "mpi://SELF", "mixed.self");
    int self_size = 0;
    MPI_Comm_size(self, &self_size);
    MT_CHECK_INT(1, self_size, "size of the mpi://SELF communicator");
    long errors = total_errors(scomm);
    MT_MPI(MPI_Comm_free(&self));
    MT_MPI(MPI_Comm_free(&scomm));
    MT_MPI(MPI_Session_finalize(&session));
    check_world_flags(1, 1, "after the last MPI_Session_finalize");

    if (!mt_library_is("MPICH")) { /* MPI-4: a session may start after MPI_Finalize */
        MT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
        scomm = comm_from_pset(session, "mpi://WORLD", "mixed.after_everything");
        check_allreduce(scomm, 3, "session allreduce after everything had ended");
        errors = total_errors(scomm);
        MT_MPI(MPI_Comm_free(&scomm));
        MT_MPI(MPI_Session_finalize(&session));
        check_world_flags(1, 1, "after a session started after MPI_Finalize");
    }
    return errors;
}

static long session_first(void)
{
    MPI_Info info; /* an empty info: MPICH 4.0.2 crashes on MPI_INFO_NULL here */
    MT_MPI(MPI_Info_create(&info));
    MPI_Session session;
    MT_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Info_free(&info));
    check_world_flags(0, 0, "with a session open, before MPI_Init");
    MPI_Comm scomm = comm_from_pset(session, "mpi://WORLD", "mixed.session_first");
    check_allreduce(scomm, 4, "session allreduce before MPI_Init");

    MPI_Init(NULL, NULL);
    mt_setup();
    check_world_flags(1, 0, "after MPI_Init with a session open");
    check_against_world(scomm);
    MT_MPI(MPI_Comm_free(&scomm));
    MT_MPI(MPI_Session_finalize(&session));

    /* The world model still holds the runtime. */
    check_world_flags(1, 0, "after MPI_Session_finalize, before MPI_Finalize");
    check_allreduce(MPI_COMM_WORLD, 5, "world allreduce after MPI_Session_finalize");
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    long errors = total_errors(MPI_COMM_WORLD);
    MPI_Finalize();
    check_world_flags(1, 1, "after MPI_Finalize");
    return errors;
}

int main(void)
{
    const char *order = getenv("SESSION_ORDER");
    int first = order && strcmp(order, "session_first") == 0;
    long total = first ? session_first() : init_first();
    if (mt_rank == 0) {
        if (total == 0 && mt_errors == 0)
            printf("No errors\n");
        else
            fprintf(stderr, "FAILED: %ld check(s) failed in total\n", total);
    }
    return mt_errors ? 1 : 0;
}
