/* errhandler: MPI_Comm_get_errhandler returns MPI_ERRORS_ARE_FATAL by default on
 * MPI_COMM_WORLD and MPI_COMM_SELF and then whatever MPI_Comm_set_errhandler installed
 * (MPI_ERRORS_RETURN, back to MPI_ERRORS_ARE_FATAL); MPI_Errhandler_free of the returned
 * handles sets them to MPI_ERRHANDLER_NULL and leaves the communicator's handler in place. */
#include "../common/mpitest.h"

static void expect_handler(MPI_Comm comm, MPI_Errhandler want, const char *what)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MT_CHECK(MPI_Comm_get_errhandler(comm, &eh) == MPI_SUCCESS, "%s: get failed", what);
    MT_CHECK(eh == want, "%s: MPI_Comm_get_errhandler returned a different handler", what);
    MT_CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS, "%s: MPI_Errhandler_free failed", what);
    MT_CHECK(eh == MPI_ERRHANDLER_NULL, "%s: MPI_Errhandler_free did not set MPI_ERRHANDLER_NULL",
             what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, "default handler of MPI_COMM_WORLD");
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL, "default handler of MPI_COMM_SELF");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, "MPI_COMM_WORLD after set(ERRORS_RETURN)");
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF unaffected");
    /* freeing the handle did not remove the handler: errors still return */
    {
        int x = 0;
        int rc = MPI_Send(&x, 1, MPI_INT, mt_size, 0, MPI_COMM_WORLD);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_RANK, "invalid rank after MPI_Errhandler_free of the handle");
    }
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_RETURN, "MPI_COMM_SELF after set(ERRORS_RETURN)");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD set back to FATAL");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF set back to FATAL");

    /* get twice, free both handles independently */
    {
        MPI_Errhandler a = MPI_ERRHANDLER_NULL, b = MPI_ERRHANDLER_NULL;
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &a);
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &b);
        MT_CHECK(a == b && a == MPI_ERRORS_ARE_FATAL, "two gets returned different handlers");
        MPI_Errhandler_free(&a);
        MPI_Errhandler_free(&b);
        MT_CHECK(a == MPI_ERRHANDLER_NULL && b == MPI_ERRHANDLER_NULL,
                 "MPI_Errhandler_free of two handles");
    }
    return mt_finish();
}
