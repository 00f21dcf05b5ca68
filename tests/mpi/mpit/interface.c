/* interface: the MPI tool information interface's life cycle and queries (src/mpi/mpit.c).
 * MPI_T works before MPI_Init and after MPI_Finalize and is reference counted; outside
 * MPI_T_init_thread..MPI_T_finalize every function is MPI_T_ERR_NOT_INITIALIZED. Control
 * variables are nodempi's NODEMPI_* table (names, types, enumerations, scopes); categories hold
 * every variable exactly once under the root "nodempi"; bad indices, names, handles and NULL
 * arguments get their MPI_T_ERR_* class, event functions' included (the event interface itself
 * is tests/mpi/mpit/events.c's). */
#include "mpitest.h"

static void check_not_initialized(const char *when)
{
    int n = -1, idx, len = 8, update;
    char name[8];
    MPI_T_cvar_handle cvar = MPI_T_CVAR_HANDLE_NULL;
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    MPI_Count ts;
    struct {
        int rc;
        const char *call;
    } calls[] = {
        {MPI_T_finalize(), "MPI_T_finalize"},
        {MPI_T_cvar_get_num(&n), "MPI_T_cvar_get_num"},
        {MPI_T_cvar_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
         "MPI_T_cvar_get_info"},
        {MPI_T_cvar_get_index("NODEMPI_EAGER_LIMIT", &idx), "MPI_T_cvar_get_index"},
        {MPI_T_cvar_handle_alloc(0, NULL, &cvar, &n), "MPI_T_cvar_handle_alloc"},
        {MPI_T_pvar_get_num(&n), "MPI_T_pvar_get_num"},
        {MPI_T_pvar_session_create(&session), "MPI_T_pvar_session_create"},
        {MPI_T_category_get_num(&n), "MPI_T_category_get_num"},
        {MPI_T_category_changed(&update), "MPI_T_category_changed"},
        {MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, name, &len), "MPI_T_enum_get_info"},
        {MPI_T_source_get_num(&n), "MPI_T_source_get_num"},
        {MPI_T_source_get_timestamp(0, &ts), "MPI_T_source_get_timestamp"},
        {MPI_T_event_get_num(&n), "MPI_T_event_get_num"},
        {MPI_T_event_get_index("x", &idx), "MPI_T_event_get_index"},
    };
    for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
        MT_CHECK(calls[i].rc == MPI_T_ERR_NOT_INITIALIZED,
                 "%s %s: expected MPI_T_ERR_NOT_INITIALIZED, got %d", calls[i].call, when,
                 calls[i].rc);
}

static int cvar_index(const char *name)
{
    int index = -1;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_index(name, &index), name);
    return index;
}

/* Every control variable: well-formed info, a handle, a readable value; the known ones with
 * their type, scope and enumeration. */
static void check_cvars(void)
{
    int num = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_num(&num), "cvar_get_num");
    MT_CHECK(num >= 33, "only %d control variables (nodempi-info --config lists 33)", num);
    for (int i = 0; i < num; i++) {
        char name[128], desc[1024];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity, bind, scope, count;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc,
                                         &desc_len, &bind, &scope),
                     "cvar_get_info");
        MT_CHECK(strncmp(name, "NODEMPI_", 8) == 0, "cvar %d is called %s", i, name);
        MT_CHECK_INT((int)strlen(name) + 1, name_len, "name_len is strlen + 1");
        MT_CHECK(desc_len > 20 && (strstr(desc, "Read-only") || strstr(desc, "Writable")),
                 "%s: description does not say whether it can be written: %s", name, desc);
        MT_CHECK_INT(MPI_T_BIND_NO_OBJECT, bind, name);
        MT_CHECK(scope == MPI_T_SCOPE_READONLY || scope == MPI_T_SCOPE_LOCAL ||
                     scope == MPI_T_SCOPE_ALL_EQ,
                 "%s: scope %d", name, scope);
        MT_CHECK((scope == MPI_T_SCOPE_READONLY) == (strstr(desc, "Read-only") != NULL),
                 "%s: scope %d but description '%s'", name, scope, desc);
        int index = -1;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_index(name, &index), name);
        MT_CHECK_INT(i, index, "cvar_get_index gives the index back");
        MPI_T_cvar_handle handle;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_handle_alloc(i, NULL, &handle, &count), name);
        union {
            int i;
            unsigned u;
            unsigned long ul;
            char s[4096];
        } value;
        MT_CHECK(count >= 1 && (type == MPI_CHAR ? count <= (int)sizeof(value.s) : count == 1),
                 "%s: count %d", name, count);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_read(handle, &value), name);
        if (type == MPI_INT) {
            MT_CHECK(enumtype != MPI_T_ENUM_NULL, "%s: MPI_INT without an enumeration", name);
            int items = 0, len = sizeof(name);
            char ename[128];
            MT_CHECK_INT(MPI_SUCCESS, MPI_T_enum_get_info(enumtype, &items, ename, &len), name);
            MT_CHECK(items >= 2 && value.i >= 0 && value.i < items, "%s: value %d of %d items",
                     name, value.i, items);
            for (int k = 0; k < items; k++) {
                int v = -1;
                len = sizeof(ename);
                MT_CHECK_INT(MPI_SUCCESS, MPI_T_enum_get_item(enumtype, k, &v, ename, &len),
                             "enum_get_item");
                MT_CHECK_INT(k, v, "enumeration item value");
            }
            MT_CHECK_INT(MPI_T_ERR_INVALID_ITEM, MPI_T_enum_get_item(enumtype, items, &items,
                                                                      ename, &len),
                         "enum item past the end");
        } else {
            MT_CHECK(enumtype == MPI_T_ENUM_NULL, "%s: enumeration on a non-MPI_INT", name);
            MT_CHECK(type == MPI_UNSIGNED || type == MPI_UNSIGNED_LONG || type == MPI_CHAR,
                     "%s: unexpected datatype", name);
        }
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_handle_free(&handle), name);
        MT_CHECK(handle == MPI_T_CVAR_HANDLE_NULL, "handle_free sets the handle to NULL");
    }

    /* Known ones. */
    int queue = cvar_index("NODEMPI_QUEUE"), eager = cvar_index("NODEMPI_EAGER_LIMIT");
    int coll = cvar_index("NODEMPI_COLL_BCAST");
    MPI_Datatype type;
    MPI_T_enum enumtype;
    int scope, count;
    MPI_T_cvar_get_info(queue, NULL, NULL, NULL, &type, &enumtype, NULL, NULL, NULL, &scope);
    MT_CHECK(type == MPI_INT && scope == MPI_T_SCOPE_READONLY, "NODEMPI_QUEUE type/scope");
    char item[32];
    int len = sizeof(item), value, items;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_enum_get_info(enumtype, &items, item, &len), "queue enum");
    MT_CHECK(strcmp(item, "nodempi_queue") == 0 && items == 5, "queue enum: %s, %d items",
             item, items);
    len = sizeof(item);
    MPI_T_enum_get_item(enumtype, 4, &value, item, &len);
    MT_CHECK(strcmp(item, "hybrid") == 0 && value == 4, "queue item 4: %s = %d", item, value);
    MPI_T_cvar_get_info(eager, NULL, NULL, NULL, &type, NULL, NULL, NULL, NULL, &scope);
    MT_CHECK(type == MPI_UNSIGNED_LONG && scope == MPI_T_SCOPE_LOCAL, "EAGER_LIMIT type/scope");
    MPI_T_cvar_get_info(coll, NULL, NULL, NULL, &type, NULL, NULL, NULL, NULL, &scope);
    MT_CHECK(type == MPI_INT && scope == MPI_T_SCOPE_ALL_EQ, "COLL_BCAST type/scope");
    MPI_T_cvar_handle handle;
    MPI_T_cvar_handle_alloc(eager, NULL, &handle, &count);
    unsigned long limit = 0;
    MPI_T_cvar_read(handle, &limit);
    const char *env = getenv("NODEMPI_EAGER_LIMIT");
    if (!env || !*env)
        MT_CHECK_INT(4096, limit, "NODEMPI_EAGER_LIMIT default");
    MPI_T_cvar_handle_free(&handle);

    /* Error cases. */
    char name[16];
    len = sizeof(name);
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_cvar_get_info(num, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                 "cvar_get_info past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_cvar_get_info(-1, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                 "cvar_get_info(-1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_cvar_handle_alloc(num, NULL, &handle, &count),
                 "cvar_handle_alloc past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_NAME, MPI_T_cvar_get_index("NODEMPI_NO_SUCH", &value),
                 "cvar_get_index of an unknown name");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_cvar_get_index(NULL, &value), "cvar_get_index(NULL)");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_cvar_get_num(NULL), "cvar_get_num(NULL)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &limit),
                 "cvar_read(NULL handle)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_cvar_write((MPI_T_cvar_handle)&limit, &limit),
                 "cvar_write(not a handle)");
    handle = MPI_T_CVAR_HANDLE_NULL;
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_cvar_handle_free(&handle),
                 "cvar_handle_free(NULL handle)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_enum_get_info((MPI_T_enum)&limit, &value, name,
                                                                &len),
                 "enum_get_info(not an enumeration)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_enum_get_info(MPI_T_ENUM_NULL, &value, name,
                                                                &len),
                 "enum_get_info(MPI_T_ENUM_NULL)");
}

/* The standard's string convention (MPI-4.1 §15.3.3), on the first cvar's name. */
static void check_strings(void)
{
    char full[128], name[8];
    int full_len = sizeof(full);
    MPI_T_cvar_get_info(0, full, &full_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    int len = 0;
    MPI_T_cvar_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    MT_CHECK_INT(full_len, len, "zero length returns the full length");
    len = 5;
    MPI_T_cvar_get_info(0, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    MT_CHECK_INT(full_len, len, "NULL buffer returns the full length");
    len = sizeof(name);
    memset(name, 'x', sizeof(name));
    MPI_T_cvar_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    MT_CHECK(name[7] == '\0' && strncmp(name, full, 7) == 0, "truncated to 7 chars + NUL");
    MT_CHECK_INT(full_len, len, "truncation still returns the full length");
    memset(name, 'x', sizeof(name));
    MPI_T_cvar_get_info(0, name, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    MT_CHECK(name[0] == 'x' && name[7] == 'x', "NULL length: buffer left alone");
}

/* Categories: a tree under "nodempi" that holds every variable exactly once. */
static void check_categories(void)
{
    int ncat = 0, ncvar = 0, npvar = 0;
    MPI_T_category_get_num(&ncat);
    MPI_T_cvar_get_num(&ncvar);
    MPI_T_pvar_get_num(&npvar);
    MT_CHECK_INT(6, ncat, "categories: nodempi + p2p, collectives, rma, shm, topology");
    int *cvar_seen = calloc((size_t)ncvar, sizeof(int)), *pvar_seen = calloc((size_t)npvar,
                                                                                sizeof(int));
    const char *expected[] = {"nodempi", "nodempi_p2p", "nodempi_collectives", "nodempi_rma",
                              "nodempi_shm", "nodempi_topology"};
    for (int c = 0; c < ncat; c++) {
        char name[64], desc[256];
        int name_len = sizeof(name), desc_len = sizeof(desc), nc, np, nk, index = -1;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_info(c, name, &name_len, desc, &desc_len,
                                                          &nc, &np, &nk),
                     "category_get_info");
        MT_CHECK(strcmp(name, expected[c]) == 0, "category %d is %s", c, name);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_index(name, &index), name);
        MT_CHECK_INT(c, index, "category_get_index gives the index back");
        MT_CHECK_INT(c == 0 ? 5 : 0, nk, "subcategories");
        MT_CHECK(c == 0 || nc + np > 0, "category %s is empty", name);
        int list[64];
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_cvars(c, 64, list), "get_cvars");
        for (int i = 0; i < nc && i < 64; i++)
            if (list[i] >= 0 && list[i] < ncvar)
                cvar_seen[list[i]]++;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_pvars(c, 64, list), "get_pvars");
        for (int i = 0; i < np && i < 64; i++)
            if (list[i] >= 0 && list[i] < npvar)
                pvar_seen[list[i]]++;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_categories(c, 64, list), "get_categories");
        for (int i = 0; i < nk; i++)
            MT_CHECK_INT(i + 1, list[i], "subcategory index");
        int nev = -1;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_num_events(c, &nev), "get_num_events");
        MT_CHECK(c == 0 ? nev == 0 : nev >= 0, "category %d: %d event types", c, nev);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_events(c, 0, NULL), "get_events");
    }
    for (int i = 0; i < ncvar; i++)
        MT_CHECK_INT(1, cvar_seen[i], "cvar in exactly one category");
    for (int i = 0; i < npvar; i++)
        MT_CHECK_INT(1, pvar_seen[i], "pvar in exactly one category");
    free(cvar_seen);
    free(pvar_seen);
    int list[4], update = -1;
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL,
                                                                  NULL, NULL, NULL),
                 "category_get_info past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_cvars(-1, 4, list),
                 "category_get_cvars(-1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_pvars(ncat, 4, list),
                 "category_get_pvars past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_categories(ncat, 4, list),
                 "category_get_categories past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_num_events(ncat, &update),
                 "category_get_num_events past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_NAME, MPI_T_category_get_index("no_such", &update),
                 "category_get_index of an unknown name");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_changed(&update), "category_changed");
}

/* Event types and one source; indices past them, and handles never allocated, are invalid. */
static void check_events(void)
{
    int n = -1, nev = -1, idx;
    char name[16];
    int len = sizeof(name);
    MPI_Count count;
    MPI_T_source_order order;
    MPI_Info info;
    MPI_T_event_registration reg = (MPI_T_event_registration)&n;
    MPI_T_event_instance inst = (MPI_T_event_instance)&n;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_num(&nev), "event_get_num");
    MT_CHECK(nev > 0, "event types: %d", nev);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_source_get_num(&n), "source_get_num");
    MT_CHECK_INT(1, n, "one event source");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_source_get_info(1, name, &len, NULL, NULL, &order, &count, &count, &info),
                 "source_get_info(1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_source_get_timestamp(1, &count),
                 "source_get_timestamp(1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_event_get_info(nev, name, &len, &n, NULL, NULL, &n, NULL, &info, NULL,
                                      NULL, &n),
                 "event_get_info past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_NAME, MPI_T_event_get_index("any", &idx), "event_get_index");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_event_handle_alloc(nev, NULL, MPI_INFO_NULL, &reg), "event_handle_alloc");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_set_info(reg, MPI_INFO_NULL),
                 "event_handle_set_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_get_info(reg, &info),
                 "event_handle_get_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                               NULL),
                 "event_register_callback");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL),
                 "event_callback_set_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info),
                 "event_callback_get_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_set_dropped_handler(reg, NULL),
                 "event_set_dropped_handler");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_free(reg, NULL, NULL),
                 "event_handle_free");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_read(inst, 0, name), "event_read");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_copy(inst, name), "event_copy");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_timestamp(inst, &count),
                 "event_get_timestamp");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_source(inst, &idx),
                 "event_get_source");
}

int main(int argc, char **argv)
{
    int provided = -1;
    check_not_initialized("before MPI_T_init_thread");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_init_thread(12345, &provided), "bad thread level");
    /* Before MPI_Init, twice (reference counted). */
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "T_init 1");
    MT_CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
                 provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "provided %d", provided);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_SERIALIZED, &provided), "T_init 2");
    MT_CHECK_INT(MPI_THREAD_SERIALIZED, provided, "provided for SERIALIZED");
    check_cvars();
    check_strings();
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_finalize(), "T_finalize 1 of 2");
    int n;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_num(&n), "still initialized after one finalize");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_finalize(), "T_finalize 2 of 2");
    check_not_initialized("after the last MPI_T_finalize");

    mt_init(&argc, &argv);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "T_init in MPI");
    check_cvars();
    check_categories();
    check_events();
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_finalize(), "T_finalize in MPI");

    /* After MPI_Finalize: still usable. */
    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided),
                 "T_init after MPI_Finalize");
    check_cvars();
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_finalize(), "T_finalize after MPI_Finalize");
    if (mt_rank == 0 && total == 0 && mt_errors == 0)
        printf("No errors\n");
    return mt_errors || total ? 1 : 0;
}
