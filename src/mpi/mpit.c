/* mpit.c - API: the MPI tool information interface (MPI-4.1 ch. 15) but performance variables
 * (mpit_pvar.c) and events (mpit_event.c): MPI_T_init_thread/finalize (reference counted,
 * before MPI_Init and after MPI_Finalize too), control variables = the NODEMPI_* table of
 * src/core/config.c in table order, its choice settings as enumerations, and categories, which
 * list the control and performance variables and the event types of each layer. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/init.h"
#include "core/state.h"
#include "mpi/api.h"
#include "mpi/mpit.h"
#include "p2p/p2p.h"

_Static_assert(sizeof(size_t) == sizeof(unsigned long), "size tunables are MPI_UNSIGNED_LONG");

void mpit_copy_string(const char *text, char *buf, int *len)
{
    if (!len)
        return;
    int full = (int)strlen(text) + 1;
    if (buf && *len > 0) {
        int n = full <= *len ? full - 1 : *len - 1;
        memcpy(buf, text, (size_t)n);
        buf[n] = '\0';
    }
    *len = full;
}

/* ---- init and finalize -------------------------------------------------------------------- */

struct mpit_cvar_handle {
    struct mpit_cvar_handle *next;
    const struct core_config_entry *entry;
};
static struct mpit_cvar_handle *cvar_handles; /* every live handle: a handle is valid if here */

int PMPI_T_init_thread(int required, int *provided)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
        required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    if (!provided)
        return MPI_T_ERR_INVALID;
    /* The table is read now so that variables are there before MPI_Init; writes made before
     * MPI_Init survive it (MPI_Init loads the table only once). */
    core_config_load_once();
    nodempi.tool_users++;
    /* As MPI_Init_thread: every level is provided; MULTIPLE turns the big lock on for the
     * process (core/thread.c), MPI_T calls from several threads included (MPICH
     * threads/mpi_t/mpit_threading). */
    *provided = core_thread_level_grant(required);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_init_thread = PMPI_T_init_thread

int PMPI_T_finalize(void)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (nodempi.tool_users == 0)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (--nodempi.tool_users > 0)
        return MPI_SUCCESS;
    while (cvar_handles) {
        struct mpit_cvar_handle *h = cvar_handles;
        cvar_handles = h->next;
        free(h);
    }
    mpit_pvar_free_all();
    mpit_event_free_all();
    return MPI_SUCCESS;
}
#pragma weak MPI_T_finalize = PMPI_T_finalize

/* ---- enumerations: one per choice setting (NODEMPI_QUEUE: auto|pair|orq|cor|hybrid, ...) ---- */

/* Handles point into this array, entry i standing for config entry i when it is a choice. */
static struct mpit_enum {
    const struct core_config_entry *entry;
} enums[64];

static const struct core_config_entry *config_entry(int index)
{
    size_t count;
    const struct core_config_entry *table = core_config_table(&count);
    return index >= 0 && (size_t)index < count ? &table[index] : NULL;
}

static int config_count(void)
{
    size_t count;
    core_config_table(&count);
    return (int)count;
}

static MPI_T_enum enum_of(int index)
{
    const struct core_config_entry *e = config_entry(index);
    if (!e || e->kind != CORE_CONFIG_CHOICE || index >= (int)(sizeof(enums) / sizeof(enums[0])))
        return MPI_T_ENUM_NULL;
    enums[index].entry = e;
    return (MPI_T_enum)&enums[index];
}

static const struct core_config_entry *enum_entry(MPI_T_enum handle)
{
    uintptr_t first = (uintptr_t)&enums[0], p = (uintptr_t)handle;
    if (p < first || p >= (uintptr_t)&enums[sizeof(enums) / sizeof(enums[0])] ||
        (p - first) % sizeof(enums[0]) != 0)
        return NULL;
    return ((struct mpit_enum *)handle)->entry;
}

static int choice_count(const char *choices)
{
    int n = 1;
    for (const char *p = choices; *p; p++)
        n += *p == '|';
    return n;
}

/* Item n of "a|b|c" into buf (NUL-terminated, truncated to size). */
static void choice_name(const char *choices, int n, char *buf, size_t size)
{
    const char *p = choices;
    for (int i = 0; i < n; i++)
        p = strchr(p, '|') + 1;
    size_t len = strcspn(p, "|");
    if (len >= size)
        len = size - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
}

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    const struct core_config_entry *e = enum_entry(enumtype);
    if (!e)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = choice_count(e->choices);
    char lower[64];
    size_t i = 0;
    for (; e->name[i] && i < sizeof(lower) - 1; i++)
        lower[i] = (char)tolower((unsigned char)e->name[i]);
    lower[i] = '\0';
    mpit_copy_string(lower, name, name_len);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_enum_get_info = PMPI_T_enum_get_info

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    const struct core_config_entry *e = enum_entry(enumtype);
    if (!e)
        return MPI_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= choice_count(e->choices))
        return MPI_T_ERR_INVALID_ITEM;
    if (!value)
        return MPI_T_ERR_INVALID;
    *value = index; /* the setting's value is its position in the list */
    char item[64];
    choice_name(e->choices, index, item, sizeof(item));
    mpit_copy_string(item, name, name_len);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_enum_get_item = PMPI_T_enum_get_item

/* ---- control variables --------------------------------------------------------------------- */

/* Category and verbosity of a tunable: the everyday ones (README's list) are for users, the
 * collective algorithms for tuners, the rest tuner detail. A tunable missing here still shows,
 * in the root category. */
static const struct {
    const char *name;
    enum mpit_category category;
    int verbosity;
} cvar_meta[] = {
    {"NODEMPI_SINGLE_COPY", MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_EAGER_LIMIT", MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_PIPELINE_CHUNK", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_SKEW", MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_SKEW_EAGER_LIMIT", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_SPLIT_COPY", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_SPLIT_COPY_MIN", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_RECV_IN_PLACE", MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_DETAIL},
    {"NODEMPI_WAIT", MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_SPIN_ROUNDS", MPIT_CAT_SHM, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_YIELD_ROUNDS", MPIT_CAT_SHM, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_QUEUE", MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_FASTBOX", MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_DETAIL},
    {"NODEMPI_FASTBOX_PACK", MPIT_CAT_SHM, MPI_T_VERBOSITY_TUNER_DETAIL},
    {"NODEMPI_STREAM_COPY", MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_DETAIL},
    {"NODEMPI_CMA_THRESHOLD", MPIT_CAT_TOPOLOGY, MPI_T_VERBOSITY_USER_BASIC},
    {"NODEMPI_PROFILE", MPIT_CAT_TOPOLOGY, MPI_T_VERBOSITY_USER_DETAIL},
};

static void cvar_meta_of(const struct core_config_entry *e, enum mpit_category *category,
                         int *verbosity)
{
    if (strncmp(e->name, "NODEMPI_COLL_", 13) == 0) {
        *category = MPIT_CAT_COLL;
        *verbosity = MPI_T_VERBOSITY_TUNER_BASIC;
        return;
    }
    for (size_t i = 0; i < sizeof(cvar_meta) / sizeof(cvar_meta[0]); i++) {
        if (strcmp(cvar_meta[i].name, e->name) == 0) {
            *category = cvar_meta[i].category;
            *verbosity = cvar_meta[i].verbosity;
            return;
        }
    }
    *category = MPIT_CAT_ROOT;
    *verbosity = MPI_T_VERBOSITY_TUNER_DETAIL;
}

static MPI_Datatype cvar_type(const struct core_config_entry *e)
{
    switch (e->kind) {
    case CORE_CONFIG_SIZE:
        return MPI_UNSIGNED_LONG;
    case CORE_CONFIG_UNSIGNED:
        return MPI_UNSIGNED;
    case CORE_CONFIG_CHOICE:
        return MPI_INT;
    case CORE_CONFIG_STRING:
        return MPI_CHAR;
    }
    return MPI_DATATYPE_NULL;
}

static int cvar_scope(const struct core_config_entry *e)
{
    switch (e->change) {
    case CORE_CONFIG_RUNTIME_LOCAL:
        return MPI_T_SCOPE_LOCAL;
    case CORE_CONFIG_RUNTIME_ALL_EQUAL:
        return MPI_T_SCOPE_ALL_EQ;
    case CORE_CONFIG_AT_INIT:
        break;
    }
    return MPI_T_SCOPE_READONLY;
}

static const char *const change_text[] = {
    [CORE_CONFIG_AT_INIT] = "Read-only: set from the environment at MPI_Init.",
    [CORE_CONFIG_RUNTIME_LOCAL] = "Writable at run time on one rank alone; a write takes effect "
                                  "at this rank's next message or wait.",
    [CORE_CONFIG_RUNTIME_ALL_EQUAL] = "Writable at run time; write the same value on every rank "
                                      "before the next collective call, which uses it.",
};

int PMPI_T_cvar_get_num(int *num_cvar)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_cvar)
        return MPI_T_ERR_INVALID;
    *num_cvar = config_count();
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_get_num = PMPI_T_cvar_get_num

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                         int *desc_len, int *bind, int *scope)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    const struct core_config_entry *e = config_entry(cvar_index);
    if (!e)
        return MPI_T_ERR_INVALID_INDEX;
    enum mpit_category category;
    int level;
    cvar_meta_of(e, &category, &level);
    mpit_copy_string(e->name, name, name_len);
    if (verbosity)
        *verbosity = level;
    if (datatype)
        *datatype = cvar_type(e);
    if (enumtype)
        *enumtype = enum_of(cvar_index);
    if (desc_len) {
        char text[1024];
        snprintf(text, sizeof(text), "%s (default %s). %s", e->meaning, e->default_value,
                 change_text[e->change]);
        mpit_copy_string(text, desc, desc_len);
    }
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = cvar_scope(e);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_get_info = PMPI_T_cvar_get_info

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !cvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < config_count(); i++) {
        if (strcmp(config_entry(i)->name, name) == 0) {
            *cvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
#pragma weak MPI_T_cvar_get_index = PMPI_T_cvar_get_index

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)obj_handle; /* every control variable is bound to no object */
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    const struct core_config_entry *e = config_entry(cvar_index);
    if (!e)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    struct mpit_cvar_handle *h = malloc(sizeof(*h));
    if (!h)
        return MPI_T_ERR_MEMORY;
    h->entry = e;
    h->next = cvar_handles;
    cvar_handles = h;
    /* A string is read-only and fixed at MPI_Init: its length now is its length for good. */
    *count = e->kind == CORE_CONFIG_STRING ? (int)strlen(*(const char **)e->target) + 1 : 1;
    *handle = (MPI_T_cvar_handle)h;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_handle_alloc = PMPI_T_cvar_handle_alloc

static struct mpit_cvar_handle **find_cvar_handle(MPI_T_cvar_handle handle)
{
    for (struct mpit_cvar_handle **p = &cvar_handles; *p; p = &(*p)->next)
        if ((MPI_T_cvar_handle)*p == handle)
            return p;
    return NULL;
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!handle)
        return MPI_T_ERR_INVALID;
    struct mpit_cvar_handle **link = find_cvar_handle(*handle);
    if (!link)
        return MPI_T_ERR_INVALID_HANDLE;
    struct mpit_cvar_handle *h = *link;
    *link = h->next;
    free(h);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_handle_free = PMPI_T_cvar_handle_free

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpit_cvar_handle **link = find_cvar_handle(handle);
    if (!link)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const struct core_config_entry *e = (*link)->entry;
    switch (e->kind) {
    case CORE_CONFIG_SIZE:
        *(unsigned long *)buf = *(const size_t *)e->target;
        break;
    case CORE_CONFIG_UNSIGNED:
        *(unsigned *)buf = *(const unsigned *)e->target;
        break;
    case CORE_CONFIG_CHOICE:
        *(int *)buf = *(const int *)e->target;
        break;
    case CORE_CONFIG_STRING:
        strcpy(buf, *(const char **)e->target);
        break;
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_read = PMPI_T_cvar_read

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpit_cvar_handle **link = find_cvar_handle(handle);
    if (!link)
        return MPI_T_ERR_INVALID_HANDLE;
    const struct core_config_entry *e = (*link)->entry;
    if (e->change == CORE_CONFIG_AT_INIT)
        return MPI_T_ERR_CVAR_SET_NEVER;
    if (!buf)
        return MPI_T_ERR_INVALID;
    size_t size;
    if (e->kind == CORE_CONFIG_SIZE) { /* the buffer holds an unsigned long (MPI_UNSIGNED_LONG) */
        size = *(const unsigned long *)buf;
        buf = &size;
    }
    if (core_config_set(e, buf) != MPI_SUCCESS)
        return MPI_T_ERR_INVALID; /* not one of the enumeration's values */
    p2p_config_changed(); /* the owners of LOCAL settings pick them up (no-op before MPI_Init) */
    return MPI_SUCCESS;
}
#pragma weak MPI_T_cvar_write = PMPI_T_cvar_write

/* ---- categories ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    const char *desc;
} categories[MPIT_CATEGORIES] = {
    [MPIT_CAT_ROOT] = {"nodempi", "All of nodempi's variables, by layer (the categories below)"},
    [MPIT_CAT_P2P] = {"nodempi_p2p", "Point-to-point messaging: protocols, their switch points, "
                                     "messages sent by protocol, matching queues, unexpected "
                                     "messages and the skew watch (events)"},
    [MPIT_CAT_COLL] = {"nodempi_collectives",
                       "Collective operations: forced algorithms, operations started, the "
                       "path each call took (event)"},
    [MPIT_CAT_RMA] = {"nodempi_rma", "One-sided communication: windows"},
    [MPIT_CAT_SHM] = {"nodempi_shm", "Shared-memory transport: queue design, fastboxes, "
                                     "streaming copies, how waiting ranks spin, yield or sleep, "
                                     "hybrid rings opening (event)"},
    [MPIT_CAT_TOPOLOGY] = {"nodempi_topology",
                           "Hardware topology: the per-host profile and the single-copy "
                           "threshold it sets per distance class"},
};

static int valid_category(int cat_index)
{
    return cat_index >= 0 && cat_index < MPIT_CATEGORIES;
}

/* Indices of the control variables (what = 'c'), performance variables ('p'), event types
 * ('e') or categories ('k') in category cat, at most len of them into indices (may be NULL);
 * returns the count. */
static int category_members(int cat, char what, int len, int indices[])
{
    int n = 0;
    if (what == 'k') {
        for (int k = 1; cat == MPIT_CAT_ROOT && k < MPIT_CATEGORIES; k++, n++)
            if (indices && n < len)
                indices[n] = k;
        return n;
    }
    int total = what == 'c' ? config_count() : what == 'p' ? mpit_pvar_count()
                                                            : mpit_event_count();
    for (int i = 0; i < total; i++) {
        enum mpit_category c;
        int verbosity;
        if (what == 'c')
            cvar_meta_of(config_entry(i), &c, &verbosity);
        else if (what == 'p')
            c = mpit_pvar_category(i);
        else
            c = mpit_event_category(i);
        if ((int)c != cat)
            continue;
        if (indices && n < len)
            indices[n] = i;
        n++;
    }
    return n;
}

int PMPI_T_category_get_num(int *num_cat)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_cat)
        return MPI_T_ERR_INVALID;
    *num_cat = MPIT_CATEGORIES;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_category_get_num = PMPI_T_category_get_num

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                             int *desc_len, int *num_cvars, int *num_pvars, int *num_categories)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    mpit_copy_string(categories[cat_index].name, name, name_len);
    mpit_copy_string(categories[cat_index].desc, desc, desc_len);
    if (num_cvars)
        *num_cvars = category_members(cat_index, 'c', 0, NULL);
    if (num_pvars)
        *num_pvars = category_members(cat_index, 'p', 0, NULL);
    if (num_categories)
        *num_categories = category_members(cat_index, 'k', 0, NULL);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_category_get_info = PMPI_T_category_get_info

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !cat_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < MPIT_CATEGORIES; i++) {
        if (strcmp(categories[i].name, name) == 0) {
            *cat_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
#pragma weak MPI_T_category_get_index = PMPI_T_category_get_index

static int category_list(int cat_index, char what, int len, int indices[])
{
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    category_members(cat_index, what, len, indices);
    return MPI_SUCCESS;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return category_list(cat_index, 'c', len, indices);
}
#pragma weak MPI_T_category_get_cvars = PMPI_T_category_get_cvars

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return category_list(cat_index, 'p', len, indices);
}
#pragma weak MPI_T_category_get_pvars = PMPI_T_category_get_pvars

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return category_list(cat_index, 'k', len, indices);
}
#pragma weak MPI_T_category_get_categories = PMPI_T_category_get_categories

int PMPI_T_category_changed(int *update_number)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!update_number)
        return MPI_T_ERR_INVALID;
    *update_number = 0; /* variables and categories never come or go */
    return MPI_SUCCESS;
}
#pragma weak MPI_T_category_changed = PMPI_T_category_changed

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = category_members(cat_index, 'e', 0, NULL);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return category_list(cat_index, 'e', len, indices);
}
#pragma weak MPI_T_category_get_events = PMPI_T_category_get_events
