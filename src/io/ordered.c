/* ordered.c - the collective uses of the shared file pointer: ordered access (rank i's data
 * follows the data of ranks 0..i-1, all starting at the shared pointer) and seek_shared.
 * Everyone learns everyone's amount (an allgather), rank 0 moves the shared pointer once and
 * broadcasts where the group starts; the accesses themselves are independent. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "io/io.h"

/* Where this process starts: the group's base plus the etypes of lower ranks. */
static int ordered_position(struct io_file *file, MPI_Offset etypes, MPI_Offset *position)
{
    struct core_comm *comm = file->comm;
    struct dt_type *offset_type = dt_from_handle(MPI_INT64_T);
    int64_t *all = malloc((size_t)comm->size * sizeof(*all));
    if (!all)
        return MPI_ERR_NO_MEM;
    int64_t mine = etypes;
    int rc = coll_allgather(&mine, 1, offset_type, all, 1, offset_type, comm);
    int64_t before = 0, total = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++) {
        if (i < comm->rank)
            before += all[i];
        total += all[i];
    }
    free(all);
    int64_t base = 0;
    if (rc == MPI_SUCCESS && comm->rank == 0)
        base = io_shared_fetch_add(&file->shared, total);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(&base, 1, offset_type, 0, comm);
    *position = base + before;
    return rc;
}

int io_access_ordered(struct io_file *file, void *buf, MPI_Count count, struct dt_type *type,
                      int write, MPI_Count *bytes)
{
    MPI_Offset position;
    MPI_Offset etypes = io_etypes_of(file, dt_packed_size(type, count));
    *bytes = 0;
    int rc = ordered_position(file, etypes, &position);
    return rc == MPI_SUCCESS ? io_access(file, position, buf, count, type, write, bytes) : rc;
}

/* Barriers on both sides: shared-pointer accesses before the seek use the old value, those
 * after it the new one, in every process. */
int io_seek_shared(struct io_file *file, MPI_Offset value)
{
    int rc = coll_barrier(file->comm);
    if (rc == MPI_SUCCESS && file->comm->rank == 0)
        io_shared_set(&file->shared, value);
    return rc == MPI_SUCCESS ? coll_barrier(file->comm) : rc;
}
