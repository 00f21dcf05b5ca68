/* remove_errors: MPI-4.1 removal of user-defined error classes, codes and strings. A code or
 * class that still has a string, and a class that still has codes, cannot be removed; after
 * MPI_Remove_error_string they can, and a second removal fails. (Found by mpi4py's
 * test_errorcode: nodempi removed codes that still had strings.) */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    int errclass, code1, code2;
    MT_MPI(MPI_Add_error_class(&errclass));
    MT_MPI(MPI_Add_error_string(errclass, "error class"));
    MT_MPI(MPI_Add_error_code(errclass, &code1));
    MT_MPI(MPI_Add_error_string(code1, "error code 1"));
    MT_MPI(MPI_Add_error_code(errclass, &code2));

    MT_CHECK(MPI_Remove_error_class(errclass) != MPI_SUCCESS, "removed a class with codes");
    MT_CHECK(MPI_Remove_error_code(errclass) != MPI_SUCCESS, "removed a class as a code");
    MT_CHECK(MPI_Remove_error_code(code1) != MPI_SUCCESS, "removed a code with a string");
    MT_MPI(MPI_Remove_error_code(code2)); /* no string: fine */
    MT_CHECK(MPI_Remove_error_code(code2) != MPI_SUCCESS, "removed a code twice");

    MT_MPI(MPI_Remove_error_string(code1));
    int len = -1;
    char text[MPI_MAX_ERROR_STRING];
    MT_MPI(MPI_Error_string(code1, text, &len));
    MT_CHECK_INT(0, len, "string length after MPI_Remove_error_string");
    MT_MPI(MPI_Remove_error_code(code1));

    MT_CHECK(MPI_Remove_error_class(errclass) != MPI_SUCCESS, "removed a class with a string");
    MT_MPI(MPI_Remove_error_string(errclass));
    MT_MPI(MPI_Remove_error_class(errclass));
    MT_CHECK(MPI_Remove_error_class(errclass) != MPI_SUCCESS, "removed a class twice");
    MT_CHECK(MPI_Remove_error_class(MPI_ERR_OTHER) != MPI_SUCCESS, "removed a predefined class");
#endif
    return mt_finish();
}
