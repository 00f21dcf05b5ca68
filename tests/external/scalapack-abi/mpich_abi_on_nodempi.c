/* mpich_abi_on_nodempi.c - a libmpich.so.12 that runs MPICH-4.0-ABI binaries on nodempi, for
 * tests/external/scalapack.sh only. Not part of nodempi.
 *
 * Why: Debian's mirror here serves ScaLAPACK's binary packages but not its source, so the
 * test programs can only be run as Debian built them: linked against libscalapack-mpich.so.2.2,
 * whose BLACS calls MPICH's ABI (int handles, MPICH's constants and status layout). nodempi
 * has the MPI-5.0 standard ABI. This library takes MPICH's names and translates handles,
 * constants and statuses to nodempi's, covering only the 40 calls that
 * libscalapack-mpich.so.2.2 and the BLACS testers' helper library make.
 *
 * nodempi is loaded with RTLD_LOCAL | RTLD_DEEPBIND: its own MPI_* symbols stay out of the
 * global scope (where this library's MPICH-ABI MPI_* live) and nodempi's internal calls bind
 * to nodempi, never to these wrappers. NODEMPI_LIB names libnodempi.so.
 *
 * The C declarations from nodempi's mpi.h are used only through __typeof__; every exported
 * MPICH-ABI function has another C name and its MPI_* symbol name by an asm label. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h" /* nodempi's */
#include "mpich_values.h"

/* MPICH's handles and constants that are not in the generated list (MPICH 4.0 mpi.h). */
enum {
    M_COMM_NULL = 0x04000000, M_COMM_WORLD = 0x44000000, M_COMM_SELF = 0x44000001,
    M_GROUP_NULL = 0x08000000, M_GROUP_EMPTY = 0x48000000,
    M_DATATYPE_NULL = 0x0c000000, M_OP_NULL = 0x18000000, M_REQUEST_NULL = 0x2c000000,
    M_PROC_NULL = -1, M_ANY_SOURCE = -2, M_ROOT = -3, M_ANY_TAG = -1, M_UNDEFINED = -32766,
    M_TAG_UB = 0x64400001, M_HOST = 0x64400003, M_IO = 0x64400005,
    M_WTIME_IS_GLOBAL = 0x64400007, M_UNIVERSE_SIZE = 0x64400009, M_APPNUM = 0x6440000b,
    M_TYPECLASS_REAL = 1, M_TYPECLASS_INTEGER = 2, M_TYPECLASS_COMPLEX = 3,
    /* handles this library hands out: kind bits as MPICH's, index in the low bits, above
     * the values MPICH gives its predefined pair types (MPI_FLOAT_INT is 0x8c000000) */
    M_COMM_BASE = (int)0x84100000, M_GROUP_BASE = (int)0x88100000,
    M_TYPE_BASE = (int)0x8c100000, M_OP_BASE = (int)0x98100000,
    M_REQUEST_BASE = (int)0xac100000,
};
#define M_IN_PLACE ((void *)-1)
#define M_STATUS_IGNORE ((m_status *)1)

typedef struct {
    int count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR;
} m_status;
typedef void m_user_function(void *in, void *inout, int *len, int *datatype);

#define NODEMPI_CALLS                                                                          \
    X(MPI_Init) X(MPI_Initialized) X(MPI_Finalize) X(MPI_Abort) X(MPI_Wtime) X(MPI_Barrier)    \
    X(MPI_Bcast) X(MPI_Allreduce) X(MPI_Reduce) X(MPI_Comm_create) X(MPI_Comm_dup)             \
    X(MPI_Comm_free) X(MPI_Comm_get_attr) X(MPI_Comm_group) X(MPI_Comm_rank) X(MPI_Comm_size)  \
    X(MPI_Comm_split) X(MPI_Error_class) X(MPI_Group_free) X(MPI_Group_incl) X(MPI_Irecv)       \
    X(MPI_Isend) X(MPI_Op_create) X(MPI_Op_free) X(MPI_Pack) X(MPI_Pack_size) X(MPI_Unpack)    \
    X(MPI_Recv) X(MPI_Rsend) X(MPI_Send) X(MPI_Sendrecv) X(MPI_Testall) X(MPI_Waitall)         \
    X(MPI_Type_commit) X(MPI_Type_create_struct) X(MPI_Type_free) X(MPI_Type_indexed)          \
    X(MPI_Type_match_size) X(MPI_Type_vector) X(MPI_Type_size) X(MPI_Get_count)

#define X(f) static __typeof__(f) *n_##f;
NODEMPI_CALLS
#undef X

static void die(const char *what, const char *name)
{
    fprintf(stderr, "mpich_abi_on_nodempi: %s %s\n", what, name);
    abort();
}

__attribute__((constructor)) static void load_nodempi(void)
{
    const char *path = getenv("NODEMPI_LIB");
    void *lib = dlopen(path ? path : "libnodempi.so", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!lib)
        die("cannot load nodempi:", dlerror());
#define X(f)                                                                                   \
    if (!(n_##f = (__typeof__(n_##f))dlsym(lib, #f)))                                          \
        die("nodempi lacks", #f);
    NODEMPI_CALLS
#undef X
}

/* ---- handle tables: MPICH int <-> nodempi handle ---- */

#define TABLE_SIZE 65536
typedef struct {
    void *slot[TABLE_SIZE];
    int next; /* slots below are used or on the free list */
    int free[TABLE_SIZE];
    int nfree;
} table;

static int table_put(table *t, int base, void *h)
{
    int i = t->nfree ? t->free[--t->nfree] : t->next++;
    if (i >= TABLE_SIZE)
        die("handle table full", "");
    t->slot[i] = h;
    return base + i;
}

static void *table_get(table *t, int base, int m)
{
    unsigned i = (unsigned)(m - base);
    if (i >= (unsigned)t->next)
        die("unknown MPICH handle", "");
    return t->slot[i];
}

static void table_drop(table *t, int base, int m)
{
    t->free[t->nfree++] = m - base;
}

static table comms, groups, types, requests;

static MPI_Comm comm_in(int m)
{
    if (m == M_COMM_WORLD)
        return MPI_COMM_WORLD;
    if (m == M_COMM_SELF)
        return MPI_COMM_SELF;
    if (m == M_COMM_NULL)
        return MPI_COMM_NULL;
    return (MPI_Comm)table_get(&comms, M_COMM_BASE, m);
}

static int comm_out(MPI_Comm c)
{
    return c == MPI_COMM_NULL ? M_COMM_NULL : table_put(&comms, M_COMM_BASE, (void *)c);
}

static MPI_Group group_in(int m)
{
    if (m == M_GROUP_EMPTY)
        return MPI_GROUP_EMPTY;
    if (m == M_GROUP_NULL)
        return MPI_GROUP_NULL;
    return (MPI_Group)table_get(&groups, M_GROUP_BASE, m);
}

static const struct {
    int m;
    MPI_Datatype n;
} predefined_types[] = {
#define X(name) {MPICH_##name, name},
    MPICH_DATATYPES
#undef X
};

static MPI_Datatype type_in(int m)
{
    for (size_t i = 0; i < sizeof predefined_types / sizeof *predefined_types; i++)
        if (predefined_types[i].m == m)
            return predefined_types[i].n;
    if (m == M_DATATYPE_NULL)
        return MPI_DATATYPE_NULL;
    return (MPI_Datatype)table_get(&types, M_TYPE_BASE, m);
}

/* A nodempi datatype back to MPICH's handle: predefined ones by the list, derived ones by
 * searching what this library handed out (only user reduction functions need this). */
static int type_out(MPI_Datatype n)
{
    for (size_t i = 0; i < sizeof predefined_types / sizeof *predefined_types; i++)
        if (predefined_types[i].n == n)
            return predefined_types[i].m;
    for (int i = 0; i < types.next; i++)
        if (types.slot[i] == (void *)n)
            return M_TYPE_BASE + i;
    return M_DATATYPE_NULL;
}

static const struct {
    int m;
    MPI_Op n;
} predefined_ops[] = {
#define X(name) {MPICH_##name, name},
    MPICH_OPS
#undef X
};

/* User reduction functions: nodempi calls a trampoline that knows its slot, which gives the
 * MPICH-ABI function and lets it see an MPICH datatype handle. */
#define USER_OPS 32
static m_user_function *user_fn[USER_OPS];
static MPI_Op user_op[USER_OPS];

#define TRAMPOLINE(k)                                                                          \
    static void trampoline_##k(void *in, void *inout, int *len, MPI_Datatype *dt)              \
    {                                                                                          \
        int m = type_out(*dt);                                                                 \
        user_fn[k](in, inout, len, &m);                                                        \
    }
#define FOR_USER_OPS(M)                                                                        \
    M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)      \
    M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29)        \
    M(30) M(31)
FOR_USER_OPS(TRAMPOLINE)
#define TRAMPOLINE_NAME(k) trampoline_##k,
static MPI_User_function *const trampolines[USER_OPS] = {FOR_USER_OPS(TRAMPOLINE_NAME)};

static MPI_Op op_in(int m)
{
    for (size_t i = 0; i < sizeof predefined_ops / sizeof *predefined_ops; i++)
        if (predefined_ops[i].m == m)
            return predefined_ops[i].n;
    if (m == M_OP_NULL)
        return MPI_OP_NULL;
    unsigned k = (unsigned)(m - M_OP_BASE);
    if (k >= USER_OPS || !user_fn[k])
        die("unknown MPICH op", "");
    return user_op[k];
}

static MPI_Request request_in(int m)
{
    return m == M_REQUEST_NULL ? MPI_REQUEST_NULL
                               : (MPI_Request)table_get(&requests, M_REQUEST_BASE, m);
}

static const void *buf_in(const void *p)
{
    return p == M_IN_PLACE ? MPI_IN_PLACE : p;
}

static int rank_in(int r)
{
    switch (r) {
    case M_PROC_NULL: return MPI_PROC_NULL;
    case M_ANY_SOURCE: return MPI_ANY_SOURCE;
    case M_ROOT: return MPI_ROOT;
    default: return r;
    }
}

static int rank_out(int r)
{
    if (r == MPI_PROC_NULL)
        return M_PROC_NULL;
    if (r == MPI_ANY_SOURCE)
        return M_ANY_SOURCE;
    return r;
}

static int tag_in(int t)
{
    return t == M_ANY_TAG ? MPI_ANY_TAG : t;
}

static void status_out(m_status *m, MPI_Status *n)
{
    if (!m || m == M_STATUS_IGNORE)
        return;
    int bytes = 0;
    n_MPI_Get_count(n, MPI_BYTE, &bytes);
    m->count_lo = bytes;
    m->count_hi_and_cancelled = 0;
    m->MPI_SOURCE = rank_out(n->MPI_SOURCE);
    m->MPI_TAG = n->MPI_TAG == MPI_ANY_TAG ? M_ANY_TAG : n->MPI_TAG;
    m->MPI_ERROR = n->MPI_ERROR;
}

/* ---- the MPICH-ABI entry points ---- */

#define EXPORT(cname, mpiname) __attribute__((visibility("default"))) cname __asm__(mpiname)

int EXPORT(m_init(int *argc, char ***argv), "MPI_Init");
int m_init(int *argc, char ***argv) { return n_MPI_Init(argc, argv); }

int EXPORT(m_initialized(int *flag), "MPI_Initialized");
int m_initialized(int *flag) { return n_MPI_Initialized(flag); }

int EXPORT(m_finalize(void), "MPI_Finalize");
int m_finalize(void) { return n_MPI_Finalize(); }

int EXPORT(m_abort(int comm, int code), "MPI_Abort");
int m_abort(int comm, int code) { return n_MPI_Abort(comm_in(comm), code); }

double EXPORT(m_wtime(void), "MPI_Wtime");
double m_wtime(void) { return n_MPI_Wtime(); }

int EXPORT(m_error_class(int code, int *cls), "MPI_Error_class");
int m_error_class(int code, int *cls) { return n_MPI_Error_class(code, cls); }

int EXPORT(m_barrier(int comm), "MPI_Barrier");
int m_barrier(int comm) { return n_MPI_Barrier(comm_in(comm)); }

int EXPORT(m_bcast(void *buf, int count, int type, int root, int comm), "MPI_Bcast");
int m_bcast(void *buf, int count, int type, int root, int comm)
{
    return n_MPI_Bcast(buf, count, type_in(type), rank_in(root), comm_in(comm));
}

int EXPORT(m_allreduce(const void *s, void *r, int count, int type, int op, int comm),
           "MPI_Allreduce");
int m_allreduce(const void *s, void *r, int count, int type, int op, int comm)
{
    return n_MPI_Allreduce(buf_in(s), r, count, type_in(type), op_in(op), comm_in(comm));
}

int EXPORT(m_reduce(const void *s, void *r, int count, int type, int op, int root, int comm),
           "MPI_Reduce");
int m_reduce(const void *s, void *r, int count, int type, int op, int root, int comm)
{
    return n_MPI_Reduce(buf_in(s), r, count, type_in(type), op_in(op), rank_in(root),
                        comm_in(comm));
}

int EXPORT(m_comm_rank(int comm, int *rank), "MPI_Comm_rank");
int m_comm_rank(int comm, int *rank) { return n_MPI_Comm_rank(comm_in(comm), rank); }

int EXPORT(m_comm_size(int comm, int *size), "MPI_Comm_size");
int m_comm_size(int comm, int *size) { return n_MPI_Comm_size(comm_in(comm), size); }

int EXPORT(m_comm_dup(int comm, int *newcomm), "MPI_Comm_dup");
int m_comm_dup(int comm, int *newcomm)
{
    MPI_Comm n;
    int rc = n_MPI_Comm_dup(comm_in(comm), &n);
    *newcomm = comm_out(n);
    return rc;
}

int EXPORT(m_comm_create(int comm, int group, int *newcomm), "MPI_Comm_create");
int m_comm_create(int comm, int group, int *newcomm)
{
    MPI_Comm n;
    int rc = n_MPI_Comm_create(comm_in(comm), group_in(group), &n);
    *newcomm = comm_out(n);
    return rc;
}

int EXPORT(m_comm_split(int comm, int color, int key, int *newcomm), "MPI_Comm_split");
int m_comm_split(int comm, int color, int key, int *newcomm)
{
    MPI_Comm n;
    int rc = n_MPI_Comm_split(comm_in(comm), color == M_UNDEFINED ? MPI_UNDEFINED : color, key,
                              &n);
    *newcomm = comm_out(n);
    return rc;
}

int EXPORT(m_comm_free(int *comm), "MPI_Comm_free");
int m_comm_free(int *comm)
{
    MPI_Comm n = comm_in(*comm);
    int rc = n_MPI_Comm_free(&n);
    table_drop(&comms, M_COMM_BASE, *comm);
    *comm = M_COMM_NULL;
    return rc;
}

int EXPORT(m_comm_get_attr(int comm, int keyval, void *value, int *flag), "MPI_Comm_get_attr");
int m_comm_get_attr(int comm, int keyval, void *value, int *flag)
{
    int n;
    switch (keyval) {
    case M_TAG_UB: n = MPI_TAG_UB; break;
    case M_HOST: n = MPI_HOST; break;
    case M_IO: n = MPI_IO; break;
    case M_WTIME_IS_GLOBAL: n = MPI_WTIME_IS_GLOBAL; break;
    case M_UNIVERSE_SIZE: n = MPI_UNIVERSE_SIZE; break;
    case M_APPNUM: n = MPI_APPNUM; break;
    default: die("attribute keyval not translated", "");
    }
    return n_MPI_Comm_get_attr(comm_in(comm), n, value, flag);
}

int EXPORT(m_comm_group(int comm, int *group), "MPI_Comm_group");
int m_comm_group(int comm, int *group)
{
    MPI_Group g;
    int rc = n_MPI_Comm_group(comm_in(comm), &g);
    *group = g == MPI_GROUP_EMPTY ? M_GROUP_EMPTY : table_put(&groups, M_GROUP_BASE, (void *)g);
    return rc;
}

int EXPORT(m_group_incl(int group, int n, const int ranks[], int *newgroup), "MPI_Group_incl");
int m_group_incl(int group, int n, const int ranks[], int *newgroup)
{
    MPI_Group g;
    int rc = n_MPI_Group_incl(group_in(group), n, ranks, &g);
    *newgroup = g == MPI_GROUP_EMPTY ? M_GROUP_EMPTY
                                     : table_put(&groups, M_GROUP_BASE, (void *)g);
    return rc;
}

int EXPORT(m_group_free(int *group), "MPI_Group_free");
int m_group_free(int *group)
{
    MPI_Group g = group_in(*group);
    int rc = n_MPI_Group_free(&g);
    if (*group != M_GROUP_EMPTY)
        table_drop(&groups, M_GROUP_BASE, *group);
    *group = M_GROUP_NULL;
    return rc;
}

int EXPORT(m_send(const void *buf, int count, int type, int dest, int tag, int comm),
           "MPI_Send");
int m_send(const void *buf, int count, int type, int dest, int tag, int comm)
{
    return n_MPI_Send(buf, count, type_in(type), rank_in(dest), tag, comm_in(comm));
}

int EXPORT(m_rsend(const void *buf, int count, int type, int dest, int tag, int comm),
           "MPI_Rsend");
int m_rsend(const void *buf, int count, int type, int dest, int tag, int comm)
{
    return n_MPI_Rsend(buf, count, type_in(type), rank_in(dest), tag, comm_in(comm));
}

int EXPORT(m_recv(void *buf, int count, int type, int src, int tag, int comm, m_status *st),
           "MPI_Recv");
int m_recv(void *buf, int count, int type, int src, int tag, int comm, m_status *st)
{
    MPI_Status n;
    int rc = n_MPI_Recv(buf, count, type_in(type), rank_in(src), tag_in(tag), comm_in(comm), &n);
    status_out(st, &n);
    return rc;
}

int EXPORT(m_sendrecv(const void *sbuf, int scount, int stype, int dest, int stag, void *rbuf,
                      int rcount, int rtype, int src, int rtag, int comm, m_status *st),
           "MPI_Sendrecv");
int m_sendrecv(const void *sbuf, int scount, int stype, int dest, int stag, void *rbuf,
               int rcount, int rtype, int src, int rtag, int comm, m_status *st)
{
    MPI_Status n;
    int rc = n_MPI_Sendrecv(sbuf, scount, type_in(stype), rank_in(dest), stag, rbuf, rcount,
                            type_in(rtype), rank_in(src), tag_in(rtag), comm_in(comm), &n);
    status_out(st, &n);
    return rc;
}

int EXPORT(m_isend(const void *buf, int count, int type, int dest, int tag, int comm, int *req),
           "MPI_Isend");
int m_isend(const void *buf, int count, int type, int dest, int tag, int comm, int *req)
{
    MPI_Request n;
    int rc = n_MPI_Isend(buf, count, type_in(type), rank_in(dest), tag, comm_in(comm), &n);
    *req = table_put(&requests, M_REQUEST_BASE, (void *)n);
    return rc;
}

int EXPORT(m_irecv(void *buf, int count, int type, int src, int tag, int comm, int *req),
           "MPI_Irecv");
int m_irecv(void *buf, int count, int type, int src, int tag, int comm, int *req)
{
    MPI_Request n;
    int rc = n_MPI_Irecv(buf, count, type_in(type), rank_in(src), tag_in(tag), comm_in(comm), &n);
    *req = table_put(&requests, M_REQUEST_BASE, (void *)n);
    return rc;
}

/* After Waitall/Testall: a request nodempi completed (set to MPI_REQUEST_NULL) gives back its
 * slot and becomes MPICH's MPI_REQUEST_NULL. */
static void requests_out(int count, int reqs[], MPI_Request n[], m_status *st, MPI_Status *ns,
                         int done)
{
    for (int i = 0; i < count; i++) {
        if (n[i] == MPI_REQUEST_NULL && reqs[i] != M_REQUEST_NULL) {
            table_drop(&requests, M_REQUEST_BASE, reqs[i]);
            reqs[i] = M_REQUEST_NULL;
        }
        if (done && st != M_STATUS_IGNORE && st)
            status_out(&st[i], &ns[i]);
    }
}

int EXPORT(m_waitall(int count, int reqs[], m_status *st), "MPI_Waitall");
int m_waitall(int count, int reqs[], m_status *st)
{
    MPI_Request *n = malloc(sizeof *n * (size_t)(count + 1));
    MPI_Status *ns = malloc(sizeof *ns * (size_t)(count + 1));
    for (int i = 0; i < count; i++)
        n[i] = request_in(reqs[i]);
    int rc = n_MPI_Waitall(count, n, ns);
    requests_out(count, reqs, n, st, ns, 1);
    free(n);
    free(ns);
    return rc;
}

int EXPORT(m_testall(int count, int reqs[], int *flag, m_status *st), "MPI_Testall");
int m_testall(int count, int reqs[], int *flag, m_status *st)
{
    MPI_Request *n = malloc(sizeof *n * (size_t)(count + 1));
    MPI_Status *ns = malloc(sizeof *ns * (size_t)(count + 1));
    for (int i = 0; i < count; i++)
        n[i] = request_in(reqs[i]);
    int rc = n_MPI_Testall(count, n, flag, ns);
    requests_out(count, reqs, n, st, ns, *flag);
    free(n);
    free(ns);
    return rc;
}

int EXPORT(m_op_create(m_user_function *fn, int commute, int *op), "MPI_Op_create");
int m_op_create(m_user_function *fn, int commute, int *op)
{
    for (int k = 0; k < USER_OPS; k++)
        if (!user_fn[k]) {
            user_fn[k] = fn;
            *op = M_OP_BASE + k;
            return n_MPI_Op_create(trampolines[k], commute, &user_op[k]);
        }
    die("too many user ops", "");
    return 1;
}

int EXPORT(m_op_free(int *op), "MPI_Op_free");
int m_op_free(int *op)
{
    unsigned k = (unsigned)(*op - M_OP_BASE);
    int rc = n_MPI_Op_free(&user_op[k]);
    user_fn[k] = NULL;
    *op = M_OP_NULL;
    return rc;
}

int EXPORT(m_type_size(int type, int *size), "MPI_Type_size");
int m_type_size(int type, int *size) { return n_MPI_Type_size(type_in(type), size); }

int EXPORT(m_type_commit(int *type), "MPI_Type_commit");
int m_type_commit(int *type)
{
    MPI_Datatype n = type_in(*type);
    return n_MPI_Type_commit(&n);
}

int EXPORT(m_type_free(int *type), "MPI_Type_free");
int m_type_free(int *type)
{
    MPI_Datatype n = type_in(*type);
    int rc = n_MPI_Type_free(&n);
    types.slot[*type - M_TYPE_BASE] = NULL;
    table_drop(&types, M_TYPE_BASE, *type);
    *type = M_DATATYPE_NULL;
    return rc;
}

int EXPORT(m_type_vector(int count, int blocklen, int stride, int old, int *newtype),
           "MPI_Type_vector");
int m_type_vector(int count, int blocklen, int stride, int old, int *newtype)
{
    MPI_Datatype n;
    int rc = n_MPI_Type_vector(count, blocklen, stride, type_in(old), &n);
    *newtype = table_put(&types, M_TYPE_BASE, (void *)n);
    return rc;
}

int EXPORT(m_type_indexed(int count, const int blocklens[], const int disps[], int old,
                          int *newtype),
           "MPI_Type_indexed");
int m_type_indexed(int count, const int blocklens[], const int disps[], int old, int *newtype)
{
    MPI_Datatype n;
    int rc = n_MPI_Type_indexed(count, blocklens, disps, type_in(old), &n);
    *newtype = table_put(&types, M_TYPE_BASE, (void *)n);
    return rc;
}

int EXPORT(m_type_create_struct(int count, const int blocklens[], const MPI_Aint disps[],
                                const int old[], int *newtype),
           "MPI_Type_create_struct");
int m_type_create_struct(int count, const int blocklens[], const MPI_Aint disps[],
                         const int old[], int *newtype)
{
    MPI_Datatype *n_old = malloc(sizeof *n_old * (size_t)(count + 1)), n;
    for (int i = 0; i < count; i++)
        n_old[i] = type_in(old[i]);
    int rc = n_MPI_Type_create_struct(count, blocklens, disps, n_old, &n);
    free(n_old);
    *newtype = table_put(&types, M_TYPE_BASE, (void *)n);
    return rc;
}

int EXPORT(m_type_match_size(int typeclass, int size, int *type), "MPI_Type_match_size");
int m_type_match_size(int typeclass, int size, int *type)
{
    int n_class = typeclass == M_TYPECLASS_REAL      ? MPI_TYPECLASS_REAL
                  : typeclass == M_TYPECLASS_INTEGER ? MPI_TYPECLASS_INTEGER
                  : typeclass == M_TYPECLASS_COMPLEX ? MPI_TYPECLASS_COMPLEX
                                                     : typeclass;
    MPI_Datatype n;
    int rc = n_MPI_Type_match_size(n_class, size, &n);
    *type = type_out(n);
    return rc;
}

int EXPORT(m_pack(const void *in, int incount, int type, void *out, int outsize, int *pos,
                  int comm),
           "MPI_Pack");
int m_pack(const void *in, int incount, int type, void *out, int outsize, int *pos, int comm)
{
    return n_MPI_Pack(in, incount, type_in(type), out, outsize, pos, comm_in(comm));
}

int EXPORT(m_unpack(const void *in, int insize, int *pos, void *out, int outcount, int type,
                    int comm),
           "MPI_Unpack");
int m_unpack(const void *in, int insize, int *pos, void *out, int outcount, int type, int comm)
{
    return n_MPI_Unpack(in, insize, pos, out, outcount, type_in(type), comm_in(comm));
}

int EXPORT(m_pack_size(int incount, int type, int comm, int *size), "MPI_Pack_size");
int m_pack_size(int incount, int type, int comm, int *size)
{
    return n_MPI_Pack_size(incount, type_in(type), comm_in(comm), size);
}
