/* info_queries: MPI_Get_processor_name (non-empty, length matches, < MPI_MAX_PROCESSOR_NAME,
 * stable), MPI_Get_version (plausible; >= 3), MPI_Get_library_version (non-empty,
 * length matches, < MPI_MAX_LIBRARY_VERSION_STRING). */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    char name[MPI_MAX_PROCESSOR_NAME], name2[MPI_MAX_PROCESSOR_NAME];
    int len = -1, len2 = -1;
    memset(name, 0x7f, sizeof name);
    MT_CHECK(MPI_Get_processor_name(name, &len) == MPI_SUCCESS, "MPI_Get_processor_name failed");
    MT_CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name length %d out of (0,%d)",
             len, MPI_MAX_PROCESSOR_NAME);
    if (len > 0 && len < MPI_MAX_PROCESSOR_NAME) {
        MT_CHECK(name[len] == '\0', "processor name not NUL terminated at resultlen %d", len);
        MT_CHECK_INT(len, strlen(name), "strlen(processor name) vs resultlen");
    }
    MPI_Get_processor_name(name2, &len2);
    MT_CHECK(len == len2 && strcmp(name, name2) == 0, "processor name not stable: '%s' / '%s'",
             name, name2);

    int ver = -1, sub = -1;
    MT_CHECK(MPI_Get_version(&ver, &sub) == MPI_SUCCESS, "MPI_Get_version failed");
    /* nodempi reports 5.0, MPICH 4.x 4.0, Open MPI 4.1 3.1 */
    MT_CHECK(ver >= 3 && ver <= 9, "MPI_Get_version version %d not plausible", ver);
    MT_CHECK(sub >= 0 && sub <= 9, "MPI_Get_version subversion %d not plausible", sub);
    MT_CHECK(ver > MPI_VERSION || (ver == MPI_VERSION && sub >= MPI_SUBVERSION),
             "MPI_Get_version %d.%d older than mpi.h MPI_VERSION %d.%d", ver, sub, MPI_VERSION,
             MPI_SUBVERSION);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int llen = -1;
    memset(lib, 0x7f, sizeof lib);
    MT_CHECK(MPI_Get_library_version(lib, &llen) == MPI_SUCCESS,
             "MPI_Get_library_version failed");
    MT_CHECK(llen > 0 && llen < MPI_MAX_LIBRARY_VERSION_STRING,
             "library version length %d out of (0,%d)", llen, MPI_MAX_LIBRARY_VERSION_STRING);
    if (llen > 0 && llen < MPI_MAX_LIBRARY_VERSION_STRING) {
        /* Known deviation: Open MPI 4.x counts the terminating NUL in resultlen
         * (the standard says resultlen excludes it, version[resultlen] == '\0'). */
        int ompi_nul = strncmp(lib, "Open MPI", 8) == 0 && llen == (int)strlen(lib) + 1;
        if (!ompi_nul) {
            MT_CHECK(lib[llen] == '\0', "library version not NUL terminated at resultlen %d",
                     llen);
            MT_CHECK_INT(llen, strlen(lib), "strlen(library version) vs resultlen");
        }
    }

    if (mt_rank == 0 && getenv("MT_VERBOSE"))
        printf("MPI %d.%d, processor '%s', library '%.60s'\n", ver, sub, name, lib);
    return mt_finish();
}
