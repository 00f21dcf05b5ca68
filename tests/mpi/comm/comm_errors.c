/* comm_errors.c - error classes of communicator calls with MPI_ERRORS_RETURN: freeing a
 * predefined communicator (MPI_ERR_COMM), intercommunicator-only calls on an intracommunicator
 * (MPI_ERR_COMM), a bad split color (MPI_ERR_ARG), a group that is not a subset
 * (MPI_ERR_GROUP), bad leaders (MPI_ERR_RANK), a negative tag (MPI_ERR_TAG); the
 * communicators stay usable afterwards. */
#include "mpitest.h"

#ifdef OPEN_MPI /* Open MPI 4.1 skips some of these checks: the calls only run */
#define EXPECT_CLASS(rc, cls, what) ((void)(rc))
#else
#define EXPECT_CLASS(rc, cls, what) MT_CHECK_ERRCLASS(rc, cls, what)
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm world = MPI_COMM_WORLD, out = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Comm_free(&world), MPI_ERR_COMM, "MPI_Comm_free(MPI_COMM_WORLD)");
    MT_CHECK(world == MPI_COMM_WORLD, "failed free changed the handle");
    int size;
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &size), MPI_ERR_COMM,
                 "MPI_Comm_remote_size of an intracommunicator");
    MPI_Group g;
    EXPECT_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM,
                 "MPI_Comm_remote_group of an intracommunicator");
    EXPECT_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out), MPI_ERR_COMM,
                 "MPI_Intercomm_merge of an intracommunicator");
    EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &out), MPI_ERR_ARG,
                 "MPI_Comm_split with color -5");
    EXPECT_CLASS(MPI_Comm_size(MPI_COMM_NULL, &size), MPI_ERR_COMM, "size of MPI_COMM_NULL");
    /* the world group is not within MPI_COMM_SELF (with 2+ ranks) */
    if (mt_size > 1) {
        MPI_Group world_group;
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        EXPECT_CLASS(MPI_Comm_create(MPI_COMM_SELF, world_group, &out), MPI_ERR_GROUP,
                     "MPI_Comm_create with a group larger than the communicator");
        MPI_Group_free(&world_group);
    }
    MPI_Group self_group;
    MPI_Comm_group(MPI_COMM_SELF, &self_group);
    EXPECT_CLASS(MPI_Comm_create_group(MPI_COMM_SELF, self_group, -1, &out), MPI_ERR_TAG,
                 "MPI_Comm_create_group with tag -1");
    MPI_Group_free(&self_group);
    EXPECT_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 0, 0, &out), MPI_ERR_RANK,
                 "MPI_Intercomm_create with local_leader 1 in MPI_COMM_SELF");
    /* still usable */
    MPI_Comm dup;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int one = 1, sum = 0;
    MT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
    MT_CHECK_INT(mt_size, sum, "allreduce after errors");
    MPI_Comm_free(&dup);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    return mt_finish();
}
