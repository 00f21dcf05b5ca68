/* misc.c - API: memory for one-sided and message buffers (MPI_Alloc_mem / MPI_Free_mem) and
 * MPI_Pcontrol. Alloc_mem hands out cache-line-aligned heap memory; it must stay free()-able by
 * Free_mem alone (no header before the block). */
#include <stdlib.h>

#include "mpi/comm_api.h"

/* A cache line: blocks that start on one never share a line with other data. */
enum { ALLOC_MEM_ALIGNMENT = 64 };

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Alloc_mem";
    struct core_info *hints;
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && size < 0)
        rc = core_error_raise(NULL, MPI_ERR_SIZE, fn, "invalid size %ld", (long)size);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &hints, fn); /* no hint changes where memory comes from */
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, baseptr, "baseptr", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    void *memory = NULL;
    if (posix_memalign(&memory, ALLOC_MEM_ALIGNMENT, size > 0 ? (size_t)size : 1) != 0)
        return core_error_raise(NULL, MPI_ERR_NO_MEM, fn, "cannot allocate %ld bytes",
                                (long)size);
    *(void **)baseptr = memory;
    return MPI_SUCCESS;
}
#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem

int PMPI_Free_mem(void *base)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Free_mem");
    if (rc == MPI_SUCCESS)
        free(base);
    return rc;
}
#pragma weak MPI_Free_mem = PMPI_Free_mem

/* Profiling control: the standard's default is to do nothing; a profiling library that wraps
 * MPI_Pcontrol sees the call through the PMPI interface. */
int PMPI_Pcontrol(const int level, ...)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)level;
    return MPI_SUCCESS;
}
#pragma weak MPI_Pcontrol = PMPI_Pcontrol
