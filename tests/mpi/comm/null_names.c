/* null_names: MPI-4.1 lets MPI_Comm_get_name and MPI_Type_get_name take the null handles and
 * return "MPI_COMM_NULL" / "MPI_DATATYPE_NULL" (found by mpi4py's test_comm/test_datatype:
 * nodempi raised MPI_ERR_COMM / MPI_ERR_TYPE). */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MT_MPI(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
    MT_CHECK(strcmp(name, "MPI_COMM_NULL") == 0, "MPI_COMM_NULL is named \"%s\"", name);
    MT_CHECK_INT((long long)strlen("MPI_COMM_NULL"), len, "MPI_COMM_NULL name length");
    len = -1;
    MT_MPI(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    MT_CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0, "MPI_DATATYPE_NULL is named \"%s\"", name);
    MT_CHECK_INT((long long)strlen("MPI_DATATYPE_NULL"), len, "MPI_DATATYPE_NULL name length");
    /* Setting a name on a null handle stays an error. */
    MT_CHECK(MPI_Comm_set_name(MPI_COMM_NULL, "x") != MPI_SUCCESS, "named MPI_COMM_NULL");
    MT_CHECK(MPI_Type_set_name(MPI_DATATYPE_NULL, "x") != MPI_SUCCESS, "named MPI_DATATYPE_NULL");
#endif
    return mt_finish();
}
