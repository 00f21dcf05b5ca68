/* info.h - MPI_Info objects: ordered (key, value) string pairs, and the predefined MPI_INFO_ENV
 * describing how the program was started. Keys keep the order of their first MPI_Info_set (the
 * order MPI_Info_get_nthkey reports). Length limits are the API layer's checks. */
#ifndef NODEMPI_CORE_INFO_H
#define NODEMPI_CORE_INFO_H

#include <mpi.h>

struct core_info_entry {
    char *key;
    char *value;
};

struct core_info {
    int predefined;     /* MPI_INFO_ENV */
    int nkeys;
    int capacity;
    struct core_info_entry *entries;
};

/* Handle <-> object; MPI_INFO_ENV is built on first use. NULL for MPI_INFO_NULL/invalid. */
struct core_info *core_info_from_handle(MPI_Info handle);
MPI_Info core_info_to_handle(const struct core_info *info);

struct core_info *core_info_new(void);                 /* NULL when out of memory */
void core_info_free(struct core_info *info);           /* no-op for MPI_INFO_ENV */
int core_info_dup(const struct core_info *info, struct core_info **out);

/* Set (replacing the value of an existing key in place), look up, delete. */
int core_info_set(struct core_info *info, const char *key, const char *value);
const char *core_info_get(const struct core_info *info, const char *key); /* NULL if absent */
int core_info_delete(struct core_info *info, const char *key);   /* MPI_ERR_INFO_NOKEY */

/* Free MPI_INFO_ENV's contents at MPI_Finalize. */
void core_info_finalize(void);

#endif
