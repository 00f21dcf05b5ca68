/* appnum: a program of an MPMD command line (run_mpmd.sh): argument 1 is the app context it
 * was given in, argument 2 (optional) its expected working directory. Checks MPI_APPNUM, the
 * directory, and that MPI_COMM_WORLD spans every context (its size is argument 3). */
#include <string.h>
#include <unistd.h>

#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(argc == 4, "usage: appnum APPNUM DIR|- WORLD_SIZE");
    int *appnum, flag = 0;
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    MT_CHECK(flag && *appnum == atoi(argv[1]), "MPI_APPNUM %d, expected %s", flag ? *appnum : -1,
             argv[1]);
    char cwd[4096] = "";
    MT_ASSERT(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
    if (strcmp(argv[2], "-") != 0)
        MT_CHECK(strcmp(cwd, argv[2]) == 0, "working directory %s, expected %s", cwd, argv[2]);
    MT_CHECK_INT(atoi(argv[3]), mt_size, "world size across the app contexts");
    return mt_finish();
}
