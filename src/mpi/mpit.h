/* mpit.h - what the three files of the MPI tool information interface share: mpit.c (init and
 * finalize, control variables, enumerations, categories), mpit_pvar.c (performance variables
 * and their sessions) and mpit_event.c (event types, sources, registrations, callbacks).
 * MPI_T functions return their error class directly: the standard gives them no error
 * handler. */
#ifndef NODEMPI_MPI_MPIT_H
#define NODEMPI_MPI_MPIT_H

#include <mpi.h>

#include "core/state.h"

/* Categories, in index order (mpit.c lists their names and descriptions). */
enum mpit_category {
    MPIT_CAT_ROOT,        /* "nodempi": the five below */
    MPIT_CAT_P2P,
    MPIT_CAT_COLL,
    MPIT_CAT_RMA,
    MPIT_CAT_SHM,
    MPIT_CAT_TOPOLOGY,
    MPIT_CATEGORIES
};

static inline int mpit_check_initialized(void)
{
    return nodempi.tool_users > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
}

/* The standard's convention for returned strings (MPI-4.1 §15.3.3): at most *len - 1
 * characters and a terminating null go to buf; *len becomes strlen(text) + 1. A NULL len
 * means nothing is returned; a NULL buf or a zero *len return the length alone. */
void mpit_copy_string(const char *text, char *buf, int *len);

/* mpit_pvar.c */
int mpit_pvar_count(void);
enum mpit_category mpit_pvar_category(int index);
void mpit_pvar_free_all(void); /* the last MPI_T_finalize: every session and handle */

/* mpit_event.c */
int mpit_event_count(void);
enum mpit_category mpit_event_category(int index);
void mpit_event_free_all(void); /* the last MPI_T_finalize: every registration */

#endif
