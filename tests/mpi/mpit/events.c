/* events: the MPI_T event interface (src/mpi/mpit_event.c). Every event type's info is
 * well-formed (names found again by MPI_T_event_get_index, displacements ascending from 0, each
 * type in exactly one category), the one source is ordered and its clock moves forward; bad
 * indices, names, handles and safety levels get their MPI_T_ERR_* class. Then real events:
 *  - nodempi_p2p_unexpected bound to a duplicate of MPI_COMM_WORLD: rank 1 (or rank 0 itself
 *    when alone) sends three messages before rank 0 posts a receive (small, above the inline
 *    size, a rendezvous); the callback, run at the end of the MPI call that queued them, sees
 *    source, tag, size, protocol and one context, reads each element and the whole copy alike,
 *    timestamps never decrease and are not in the future, and the instance handle is dead
 *    once the callback returned; traffic on MPI_COMM_WORLD is not reported to it;
 *  - the least restrictive callback of a handle is the one called, with MPI_T_CB_REQUIRE_NONE;
 *  - a handle whose buffer holds 2 instances (info nodempi_event_buffer) gets 2 callbacks and
 *    the dropped handler the count of the others;
 *  - nodempi_coll_path for MPI_Barrier and MPI_Allreduce on that communicator;
 *  - nodempi_shm_hybrid_ring_open registered before MPI_Init (no object), seen for a peer that
 *    was sent more than 8 records (NODEMPI_QUEUE=hybrid runs only);
 *  - MPI_T_event_handle_free: its free callback has run when it returns, with its user data,
 *    and no callback follows; a callback that frees its own handle gets the free callback at
 *    the end of the next MPI call.
 * The skew events are tests/mpi/mpit/events_skew.c's, threads events_threads.c's. */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

enum { TAG = 40, NMSG = 3, BIG = 1 << 20 };

static int event_index(const char *name)
{
    int index = -1;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_index(name, &index), name);
    return index;
}

/* ---- info, categories, source, error classes ----------------------------------------------- */

static void check_types(void)
{
    int num = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_num(&num), "event_get_num");
    MT_CHECK(num >= 5, "only %d event types", num);
    int *seen = calloc((size_t)num, sizeof(int));
    for (int i = 0; i < num; i++) {
        char name[128], desc[2048];
        int name_len = 0, desc_len = 0, verbosity, bind, n = 0;
        MPI_T_enum enumtype;
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_get_info(i, NULL, &name_len, &verbosity, NULL, NULL, &n,
                                          &enumtype, NULL, NULL, &desc_len, &bind),
                     "event_get_info lengths");
        MT_CHECK(name_len > 1 && name_len <= (int)sizeof(name), "name length %d", name_len);
        MT_CHECK(desc_len > 1 && desc_len <= (int)sizeof(desc), "desc length %d", desc_len);
        MT_CHECK(n > 0 && n <= 16, "event %d has %d elements", i, n);
        MT_CHECK(bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM, "bind %d", bind);
        MPI_Datatype types[16];
        MPI_Aint disps[16];
        MPI_Info info = (MPI_Info)1;
        name_len = sizeof(name);
        desc_len = sizeof(desc);
        int n2 = 16;
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_get_info(i, name, &name_len, &verbosity, types, disps, &n2,
                                          &enumtype, &info, desc, &desc_len, &bind),
                     "event_get_info");
        MT_CHECK_INT(n, n2, "element count");
        MT_CHECK_INT((long long)strlen(name) + 1, name_len, "name_len");
        MT_CHECK(info == MPI_INFO_NULL, "event_get_info gives no info object");
        MT_CHECK_INT(i, event_index(name), "event_get_index gives the index back");
        MT_CHECK_INT(0, (long long)disps[0], "first displacement");
        for (int e = 0; e < n; e++) {
            int size = 0;
            MT_CHECK_INT(MPI_SUCCESS, MPI_Type_size(types[e], &size), "element type");
            MT_CHECK(size == 4 || size == 8, "%s element %d: %d bytes", name, e, size);
            if (e > 0)
                MT_CHECK(disps[e] > disps[e - 1], "%s: displacements ascend", name);
        }
        /* a short array gets the first elements only */
        int one = 1;
        types[1] = MPI_DATATYPE_NULL;
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_get_info(i, NULL, NULL, NULL, types, disps, &one, NULL, NULL,
                                          NULL, NULL, NULL),
                     "event_get_info, room for one element");
        MT_CHECK_INT(n, one, "element count with room for one");
        MT_CHECK(n == 1 || types[1] == MPI_DATATYPE_NULL, "wrote past the room given");
    }
    int ncat = 0;
    MPI_T_category_get_num(&ncat);
    for (int c = 0; c < ncat; c++) {
        int nev = -1, list[32];
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_num_events(c, &nev), "num_events");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_category_get_events(c, 32, list), "get_events");
        for (int k = 0; k < nev && k < 32; k++)
            if (list[k] >= 0 && list[k] < num)
                seen[list[k]]++;
    }
    for (int i = 0; i < num; i++)
        MT_CHECK_INT(1, seen[i], "event type in exactly one category");
    free(seen);

    int nsrc = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_source_get_num(&nsrc), "source_get_num");
    MT_CHECK_INT(1, nsrc, "one event source");
    char name[64];
    int name_len = sizeof(name);
    MPI_T_source_order order;
    MPI_Count ticks = 0, max_ticks = 0, t1 = 0, t2 = 0;
    MPI_Info info;
    MT_CHECK_INT(MPI_SUCCESS,
                 MPI_T_source_get_info(0, name, &name_len, NULL, NULL, &order, &ticks,
                                       &max_ticks, &info),
                 "source_get_info");
    MT_CHECK(order == MPI_T_SOURCE_ORDERED, "the source is ordered");
    MT_CHECK(ticks == 1000000000, "nanoseconds: %lld ticks/s", (long long)ticks);
    MT_CHECK(max_ticks > 0, "max_ticks");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_source_get_timestamp(0, &t1), "source_get_timestamp");
    mt_sleep(0.001);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_source_get_timestamp(0, &t2), "source_get_timestamp");
    MT_CHECK(t2 - t1 >= 1000000, "1 ms is %lld ticks", (long long)(t2 - t1));

    /* error classes */
    MPI_T_event_registration reg;
    MPI_T_event_registration forged = (MPI_T_event_registration)&num;
    MPI_T_event_instance inst = (MPI_T_event_instance)&num;
    MPI_Count ts;
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_source_get_info(1, NULL, NULL, NULL, NULL, NULL,
                                                                NULL, NULL, NULL),
                 "source_get_info(1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_source_get_timestamp(-1, &ts), "timestamp(-1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_event_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL),
                 "event_get_info past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_event_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL),
                 "event_get_info(-1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_NAME, MPI_T_event_get_index("no_such_event", &num),
                 "event_get_index of an unknown name");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_event_get_num(NULL), "event_get_num(NULL)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_event_handle_alloc(num, NULL, MPI_INFO_NULL, &reg),
                 "handle_alloc past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_event_handle_alloc(-1, NULL, MPI_INFO_NULL, &reg),
                 "handle_alloc(-1)");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_handle_alloc(event_index("nodempi_p2p_unexpected"), NULL,
                                          MPI_INFO_NULL, &reg),
                 "a communicator-bound type with no communicator");
    MPI_Comm null_comm = MPI_COMM_NULL;
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_handle_alloc(event_index("nodempi_coll_path"), &null_comm,
                                          MPI_INFO_NULL, &reg),
                 "bound to MPI_COMM_NULL");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_set_info(forged, MPI_INFO_NULL),
                 "handle_set_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_get_info(forged, &info),
                 "handle_get_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_register_callback(forged, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                               NULL, NULL),
                 "register_callback");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_callback_get_info(forged, MPI_T_CB_REQUIRE_NONE, &info),
                 "callback_get_info");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_set_dropped_handler(forged, NULL),
                 "set_dropped_handler");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_free(forged, NULL, NULL),
                 "handle_free");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_read(inst, 0, name), "event_read");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_copy(inst, name), "event_copy");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_timestamp(inst, &ts), "timestamp");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_source(inst, &num), "get_source");
}

/* ---- unexpected messages -------------------------------------------------------------------- */

struct unexpected {
    int source, tag, world_source, protocol;
    MPI_Count bytes;
    unsigned context;
    MPI_Count timestamp;
};

static struct {
    int calls, wrong_level, in_call;
    struct unexpected ev[64];
    MPI_T_event_instance saved;
    MPI_Count last_ts;
} seen;
static int strict_calls; /* the ASYNC_SIGNAL_SAFE callback of the same handle */

static void read_unexpected(MPI_T_event_instance inst, struct unexpected *u)
{
    int index = event_index("nodempi_p2p_unexpected"), n = 6;
    MPI_Datatype types[6];
    MPI_Aint disps[6];
    MPI_T_event_get_info(index, NULL, NULL, NULL, types, disps, &n, NULL, NULL, NULL, NULL,
                         NULL);
    unsigned char copy[64], one[8];
    memset(copy, 0xEE, sizeof(copy));
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_copy(inst, copy), "event_copy");
    for (int e = 0; e < n; e++) {
        int size;
        MPI_Type_size(types[e], &size);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_read(inst, e, one), "event_read");
        MT_CHECK(memcmp(copy + disps[e], one, (size_t)size) == 0,
                 "element %d: event_read and event_copy differ", e);
    }
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_event_read(inst, n, one), "element past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX, MPI_T_event_read(inst, -1, one), "element -1");
    memcpy(&u->source, copy + disps[0], sizeof(int));
    memcpy(&u->tag, copy + disps[1], sizeof(int));
    memcpy(&u->bytes, copy + disps[2], sizeof(MPI_Count));
    memcpy(&u->context, copy + disps[3], sizeof(unsigned));
    memcpy(&u->world_source, copy + disps[4], sizeof(int));
    memcpy(&u->protocol, copy + disps[5], sizeof(int));
    int src = -1;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_source(inst, &src), "get_source");
    MT_CHECK_INT(0, src, "source index");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_timestamp(inst, &u->timestamp), "get_timestamp");
}

static void on_unexpected(MPI_T_event_instance inst, MPI_T_event_registration reg,
                          MPI_T_cb_safety level, void *user_data)
{
    (void)reg;
    MT_CHECK(user_data == &seen, "user data");
    if (level != MPI_T_CB_REQUIRE_NONE)
        seen.wrong_level++;
    MT_CHECK(!seen.in_call, "callback called inside itself");
    seen.in_call = 1;
    struct unexpected u;
    read_unexpected(inst, &u);
    MPI_Count now;
    MPI_T_source_get_timestamp(0, &now);
    MT_CHECK(u.timestamp >= seen.last_ts, "timestamps decrease: %lld after %lld",
             (long long)u.timestamp, (long long)seen.last_ts);
    MT_CHECK(u.timestamp <= now, "timestamp in the future");
    seen.last_ts = u.timestamp;
    if (seen.calls < 64)
        seen.ev[seen.calls] = u;
    seen.calls++;
    seen.saved = inst;
    seen.in_call = 0;
}

static void on_unexpected_strict(MPI_T_event_instance inst, MPI_T_event_registration reg,
                                 MPI_T_cb_safety level, void *user_data)
{
    (void)inst, (void)reg, (void)level, (void)user_data;
    strict_calls++;
}

/* Rank `from` sends NMSG messages on comm that rank 0 has not asked for yet, all while rank 0
 * is in one MPI call (MPI_Probe for the last: the others are queued on the way), so that their
 * callbacks run together at its end. Alone, rank 0 starts them all in one MPI_Startall. */
static void send_unasked(MPI_Comm comm, int from, unsigned char *buf)
{
    const int sizes[NMSG] = {16, 1000, BIG};
    MPI_Request req[NMSG];
    if (mt_rank == from)
        for (int i = 0; i < NMSG; i++) {
            mt_fill(buf + (size_t)i * BIG, (size_t)sizes[i], (uint64_t)(i + 1));
            MPI_Send_init(buf + (size_t)i * BIG, sizes[i], MPI_BYTE, 0, TAG + i, comm, &req[i]);
        }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == from && from != 0)
        mt_sleep(0.02); /* rank 0 is in MPI_Probe by then */
    if (mt_rank == from)
        MPI_Startall(NMSG, req);
    if (mt_rank == 0 && from != 0)
        MPI_Probe(from, TAG + NMSG - 1, comm, MPI_STATUS_IGNORE);
    if (mt_rank == 0)
        for (int i = 0; i < NMSG; i++) {
            unsigned char *r = malloc((size_t)sizes[i]);
            MPI_Recv(r, sizes[i], MPI_BYTE, from, TAG + i, comm, MPI_STATUS_IGNORE);
            MT_VERIFY(r, (size_t)sizes[i], (uint64_t)(i + 1), "message");
            free(r);
        }
    if (mt_rank == from) {
        MPI_Waitall(NMSG, req, MPI_STATUSES_IGNORE);
        for (int i = 0; i < NMSG; i++)
            MPI_Request_free(&req[i]);
    }
}

static int dropped_calls;
static MPI_Count dropped_count;
static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source,
                       MPI_T_cb_safety level, void *user_data)
{
    (void)reg;
    MT_CHECK_INT(0, source, "dropped: source index");
    MT_CHECK(level == MPI_T_CB_REQUIRE_NONE, "dropped: safety level");
    MT_CHECK(user_data == &dropped_calls, "dropped: the callback's user data");
    dropped_calls++;
    dropped_count += count;
}
static int small_calls;
static void on_small(MPI_T_event_instance inst, MPI_T_event_registration reg,
                     MPI_T_cb_safety level, void *user_data)
{
    (void)inst, (void)reg, (void)level, (void)user_data;
    small_calls++;
}

static int free_calls;
static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety level, void *user_data)
{
    (void)reg;
    MT_CHECK(level == MPI_T_CB_REQUIRE_NONE, "free: safety level");
    MT_CHECK(user_data == &free_calls, "free: user data");
    free_calls++;
}

static MPI_T_event_registration self_freeing;
static int self_freeing_calls;
static void on_event_free_self(MPI_T_event_instance inst, MPI_T_event_registration reg,
                               MPI_T_cb_safety level, void *user_data)
{
    (void)inst, (void)level, (void)user_data;
    self_freeing_calls++;
    if (self_freeing_calls == 1) {
        MT_CHECK(reg == self_freeing, "the callback's registration");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(reg, &free_calls, on_free),
                     "handle_free inside its callback");
    }
}

static void check_unexpected(MPI_Comm comm, unsigned char *buf)
{
    int from = mt_size > 1 ? 1 : 0;
    int index = event_index("nodempi_p2p_unexpected");
    MPI_T_event_registration reg, world_reg, world_reg2, small;
    int small_before = 0;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "nodempi_event_buffer", "2");
    if (mt_rank == 0) {
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, &comm, MPI_INFO_NULL, &reg),
                     "handle_alloc on a communicator");
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                                   MPI_INFO_NULL, NULL, on_unexpected_strict),
                     "register ASYNC_SIGNAL_SAFE");
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                                   &seen, on_unexpected),
                     "register NONE");
        MT_CHECK_INT(MPI_T_ERR_INVALID,
                     MPI_T_event_register_callback(reg, (MPI_T_cb_safety)7, MPI_INFO_NULL,
                                                   NULL, on_unexpected),
                     "register with a safety level that does not exist");
        /* MPI_COMM_WORLD through a pointer, as the standard says, and as the handle itself */
        MPI_Comm world = MPI_COMM_WORLD;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, &world, MPI_INFO_NULL,
                                                           &world_reg),
                     "handle_alloc on &MPI_COMM_WORLD");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, (void *)MPI_COMM_WORLD,
                                                           MPI_INFO_NULL, &world_reg2),
                     "handle_alloc on MPI_COMM_WORLD itself");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(world_reg2, NULL, NULL), "free");
        /* a small buffer: 2 instances held, the rest dropped and counted */
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, &comm, info, &small),
                     "handle_alloc with nodempi_event_buffer");
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_register_callback(small, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                                   MPI_INFO_NULL, &dropped_calls, on_small),
                     "register THREAD_SAFE");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_set_dropped_handler(small, on_dropped),
                     "set_dropped_handler");
        MPI_Info used;
        char value[16];
        int flag = 0;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_get_info(small, &used), "handle_get_info");
        MPI_Info_get(used, "nodempi_event_buffer", sizeof(value) - 1, value, &flag);
        MT_CHECK(flag && strcmp(value, "2") == 0, "the handle's info keeps its key");
        MPI_Info_set(used, "another_key", "x");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_set_info(small, used), "handle_set_info");
        MPI_Info_free(&used);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_get_info(small, &used), "handle_get_info");
        int nkeys = 0;
        MPI_Info_get_nkeys(used, &nkeys);
        MT_CHECK_INT(2, nkeys, "keys after handle_set_info");
        MPI_Info_free(&used);
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_callback_set_info(small, MPI_T_CB_REQUIRE_THREAD_SAFE, info),
                     "callback_set_info");
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_callback_get_info(small, MPI_T_CB_REQUIRE_THREAD_SAFE, &used),
                     "callback_get_info");
        MPI_Info_get_nkeys(used, &nkeys);
        MT_CHECK_INT(1, nkeys, "keys after callback_set_info");
        MPI_Info_free(&used);
        MT_CHECK_INT(MPI_T_ERR_INVALID,
                     MPI_T_event_callback_get_info(small, MPI_T_CB_REQUIRE_NONE, &used),
                     "callback_get_info of a level with no callback");
    }
    MPI_Info_free(&info);

    send_unasked(comm, from, buf);
    if (mt_rank == 0) {
        MT_CHECK_INT(NMSG, seen.calls, "unexpected messages seen on the communicator");
        MT_CHECK_INT(0, seen.wrong_level, "callbacks not called with MPI_T_CB_REQUIRE_NONE");
        MT_CHECK_INT(0, strict_calls, "the stricter callback of the handle was called");
        const int sizes[NMSG] = {16, 1000, BIG};
        for (int i = 0; i < NMSG && i < seen.calls; i++) {
            struct unexpected *u = &seen.ev[i];
            MT_CHECK_INT(from, u->source, "source");
            MT_CHECK_INT(from, u->world_source, "world source");
            MT_CHECK_INT(TAG + i, u->tag, "tag");
            MT_CHECK_INT(sizes[i], u->bytes, "bytes");
            MT_CHECK_INT(seen.ev[0].context, u->context, "one context id");
            MT_CHECK(u->context % 2 == 0, "a point-to-point context id is even: %u",
                     u->context);
            if (from == 0)
                MT_CHECK_INT(i == 2 ? 2 : 0, u->protocol, "protocol (self: small ones copied)");
            else
                MT_CHECK_INT(i == 2 ? 1 : 0, u->protocol, "protocol (eager 0, rendezvous 1)");
        }
        MPI_Count ts;
        small_before = small_calls;
        MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_timestamp(seen.saved, &ts),
                     "an instance handle after its callback returned");
        MT_CHECK_INT(2, small_calls, "callbacks of a handle that holds 2 instances");
        MT_CHECK_INT(1, dropped_calls, "dropped handler calls");
        MT_CHECK_INT(NMSG - 2, dropped_count, "dropped instances");
    }
    /* the world handle sees MPI_COMM_WORLD's traffic, not comm's */
    if (mt_rank == 0) {
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_register_callback(world_reg, MPI_T_CB_REQUIRE_NONE,
                                                                MPI_INFO_NULL, &seen,
                                                                on_unexpected),
                     "register on the world handle");
        seen.calls = 0;
    }
    send_unasked(MPI_COMM_WORLD, from, buf);
    if (mt_rank == 0) {
        MT_CHECK(seen.calls >= NMSG, "world traffic: %d events", seen.calls); /* and barriers' */
        int found = 0;
        for (int i = 0; i < seen.calls && i < 64; i++)
            found += seen.ev[i].tag >= TAG && seen.ev[i].tag < TAG + NMSG &&
                     seen.ev[i].context == 0;
        MT_CHECK_INT(NMSG, found, "world messages (context 0) seen by the world handle");
        MT_CHECK_INT(small_before, small_calls, "the comm handles saw no world traffic");
        free_calls = 0;
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(reg, &free_calls, on_free),
                     "handle_free");
        MT_CHECK_INT(1, free_calls, "the free callback ran by the end of handle_free");
        MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_get_info(reg, &info),
                     "a freed handle");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(small, NULL, NULL), "free small");
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(world_reg, NULL, NULL), "free world");
        seen.calls = 0;
        /* a handle that frees itself from its callback */
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, &comm, MPI_INFO_NULL,
                                                           &self_freeing),
                     "handle_alloc");
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_event_register_callback(self_freeing, MPI_T_CB_REQUIRE_NONE,
                                                   MPI_INFO_NULL, NULL, on_event_free_self),
                     "register");
        free_calls = 0;
    }
    send_unasked(comm, from, buf);
    if (mt_rank == 0) {
        MT_CHECK_INT(0, seen.calls, "callbacks after MPI_T_event_handle_free");
        MT_CHECK_INT(1, self_freeing_calls, "callbacks of a handle freed by its first one");
        MPI_Barrier(MPI_COMM_SELF); /* one more MPI call: the free callback's turn */
        MT_CHECK_INT(1, free_calls, "free callback of the handle freed inside its callback");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- collectives ---------------------------------------------------------------------------- */

static int coll_calls, coll_kind[16], coll_path[16], coll_alg[16], coll_size[16];
static void on_coll(MPI_T_event_instance inst, MPI_T_event_registration reg,
                    MPI_T_cb_safety level, void *user_data)
{
    (void)reg, (void)level, (void)user_data;
    if (coll_calls < 16) {
        MPI_T_event_read(inst, 0, &coll_kind[coll_calls]);
        MPI_T_event_read(inst, 1, &coll_path[coll_calls]);
        MPI_T_event_read(inst, 2, &coll_alg[coll_calls]);
        MPI_T_event_read(inst, 3, &coll_size[coll_calls]);
    }
    coll_calls++;
}

static void check_coll(MPI_Comm comm)
{
    MPI_T_event_registration reg;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(event_index("nodempi_coll_path"), &comm,
                                                       MPI_INFO_NULL, &reg),
                 "handle_alloc coll_path");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                                            MPI_INFO_NULL, NULL, on_coll),
                 "register coll_path");
    MPI_Barrier(MPI_COMM_WORLD); /* another communicator: not seen */
    MT_CHECK_INT(0, coll_calls, "a collective on another communicator");
    MPI_Barrier(comm);
    int in = 1, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm);
    MT_CHECK_INT(mt_size, out, "allreduce");
    double big[4096] = {0}, bigout[4096];
    MPI_Allreduce(big, bigout, 4096, MPI_DOUBLE, MPI_SUM, comm);
    /* the barrier first; a first shared-memory barrier also broadcasts its setup (reported:
     * nodempi runs it on this communicator) */
    MT_CHECK(coll_calls >= 3 && coll_calls <= 16, "collective calls seen: %d", coll_calls);
    int allreduces = 0;
    for (int i = 0; i < coll_calls && i < 16; i++) {
        allreduces += coll_kind[i] == 3;
        MT_CHECK(coll_kind[i] >= 0 && coll_kind[i] <= 21, "collective %d", coll_kind[i]);
        MT_CHECK(coll_path[i] >= 0 && coll_path[i] <= 10, "path %d", coll_path[i]);
        MT_CHECK(coll_path[i] == 8 ? coll_alg[i] >= 0 : coll_alg[i] == -1,
                 "algorithm %d with path %d", coll_alg[i], coll_path[i]);
        MT_CHECK_INT(mt_size, coll_size[i], "communicator size");
    }
    MT_CHECK_INT(0, coll_kind[0], "the barrier first");
    MT_CHECK_INT(2, allreduces, "allreduce calls seen");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(reg, NULL, NULL), "free coll_path");
}

/* ---- hybrid rings, watched from before MPI_Init ---------------------------------------------- */

static int ring_calls, ring_peer[64];
static MPI_Count ring_records[64], ring_bytes[64];
static void on_ring(MPI_T_event_instance inst, MPI_T_event_registration reg,
                    MPI_T_cb_safety level, void *user_data)
{
    (void)reg, (void)level, (void)user_data;
    if (ring_calls < 64) {
        MPI_T_event_read(inst, 0, &ring_peer[ring_calls]);
        MPI_T_event_read(inst, 1, &ring_records[ring_calls]);
        MPI_T_event_read(inst, 2, &ring_bytes[ring_calls]);
    }
    ring_calls++;
}

static void check_hybrid(MPI_T_event_registration reg)
{
    const char *queue = getenv("NODEMPI_QUEUE");
    int hybrid = queue && strcmp(queue, "hybrid") == 0;
    if (mt_rank == 0)
        for (int i = 0; i < 12; i++)
            MPI_Send(&i, 1, MPI_INT, mt_size - 1, TAG, MPI_COMM_WORLD);
    if (mt_rank == mt_size - 1)
        for (int i = 0; i < 12; i++)
            MPI_Recv(&i, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    int opened_to_last = 0;
    for (int i = 0; i < ring_calls && i < 64; i++) {
        MT_CHECK(ring_peer[i] >= 0 && ring_peer[i] < mt_size && ring_peer[i] != mt_rank,
                 "ring peer %d", ring_peer[i]);
        MT_CHECK(ring_records[i] >= 8 || ring_bytes[i] >= 1024,
                 "ring opened after %lld records, by one of %lld bytes",
                 (long long)ring_records[i], (long long)ring_bytes[i]);
        opened_to_last += ring_peer[i] == mt_size - 1;
    }
    MT_CHECK(opened_to_last <= 1, "a ring opened %d times", opened_to_last);
    if (!hybrid || mt_size == 1)
        MT_CHECK_INT(0, ring_calls, "ring events without NODEMPI_QUEUE=hybrid");
    else if (mt_rank == 0)
        MT_CHECK_INT(1, opened_to_last, "rank 0's ring to the last rank opened");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(reg, NULL, NULL), "free ring");
}

int main(int argc, char **argv)
{
    int provided;
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    /* before MPI_Init: an unbound type can be registered, a bound one not yet */
    MPI_T_event_registration ring;
    int ring_index = event_index("nodempi_shm_hybrid_ring_open");
    MPI_Comm world = MPI_COMM_WORLD;
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_event_handle_alloc(event_index("nodempi_coll_path"), &world,
                                          MPI_INFO_NULL, &ring),
                 "a communicator-bound handle before MPI_Init");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(ring_index, NULL, MPI_INFO_NULL, &ring),
                 "handle_alloc before MPI_Init");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_register_callback(ring, MPI_T_CB_REQUIRE_NONE,
                                                            MPI_INFO_NULL, NULL, on_ring),
                 "register before MPI_Init");
    mt_init(&argc, &argv);
    check_types();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    unsigned char *buf = malloc((size_t)NMSG * BIG);
    check_unexpected(comm, buf);
    check_coll(comm);
    check_hybrid(ring);
    free(buf);
    MPI_Comm_free(&comm);
    int rc = mt_finish();
    MPI_T_finalize();
    return rc;
}
