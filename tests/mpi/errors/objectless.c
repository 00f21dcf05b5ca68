/* objectless: the error of a call with no communicator, window or file (here
 * MPI_Type_contiguous with a negative count, MPI_Group_free of MPI_GROUP_NULL) goes to
 * MPI_COMM_WORLD's handler while the program has chosen one for MPI_COMM_WORLD and none for
 * MPI_COMM_SELF (the MPI-3 rule, which Open MPI 4.1 and MPICH 4.0 follow and MPI-3 era
 * programs rely on), and to MPI_COMM_SELF's once the program chooses that (MPI-4.0's rule).
 * The handler gets the error code, the call returns it, and the other handler is not called. */
#include "../common/mpitest.h"

static int world_calls, self_calls, last_code;

static void on_world(MPI_Comm *comm, int *code, ...)
{
    MT_CHECK(*comm == MPI_COMM_WORLD, "MPI_COMM_WORLD's handler called with another communicator");
    world_calls++;
    last_code = *code;
}

static void on_self(MPI_Comm *comm, int *code, ...)
{
    MT_CHECK(*comm == MPI_COMM_SELF, "MPI_COMM_SELF's handler called with another communicator");
    self_calls++;
    last_code = *code;
}

/* Two object-less errors; want_world / want_self: calls each handler should get. */
static void provoke(const char *when, int want_world, int want_self)
{
    world_calls = self_calls = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int rc = MPI_Type_contiguous(-1, MPI_INT, &type);
    MT_CHECK(mt_errclass(rc) == MPI_ERR_COUNT, "%s: MPI_Type_contiguous(-1) returned class %s",
             when, mt_errclass_name(mt_errclass(rc)));
    MT_CHECK(rc == last_code, "%s: the handler got code %d, the call returned %d", when,
             last_code, rc);
    MPI_Group group = MPI_GROUP_NULL;
    rc = MPI_Group_free(&group);
    MT_CHECK(rc != MPI_SUCCESS, "%s: MPI_Group_free(MPI_GROUP_NULL) succeeded", when);
    MT_CHECK(world_calls == 2 * want_world && self_calls == 2 * want_self,
             "%s: MPI_COMM_WORLD's handler called %d times, MPI_COMM_SELF's %d; want %d and %d",
             when, world_calls, self_calls, 2 * want_world, 2 * want_self);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Errhandler world_eh, self_eh;
    MPI_Comm_create_errhandler(on_world, &world_eh);
    MPI_Comm_create_errhandler(on_self, &self_eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_eh);
    provoke("handler chosen for MPI_COMM_WORLD only", 1, 0);

    MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh);
    /* Open MPI 4.1 and MPICH 4.0 keep MPI-3's rule: the check is nodempi's. */
    if (mt_library_is("nodempi"))
        provoke("handlers chosen for both", 0, 1);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&world_eh);
    MPI_Errhandler_free(&self_eh);
    return mt_finish();
}
