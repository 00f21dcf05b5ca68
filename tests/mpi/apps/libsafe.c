/* libsafe.c - the classic "library safety" example: a library keeps a private duplicate of
 * the caller's communicator, created on first use with MPI_Comm_dup and cached as an attribute
 * (MPI_Comm_create_keyval with copy/delete callbacks), so its wildcard receives never steal the
 * caller's messages and the caller's pending MPI_ANY_SOURCE/MPI_ANY_TAG receive never steals the
 * library's. Checks the cache (one dup per communicator), copy callbacks on MPI_Comm_dup
 * (not copied / MPI_COMM_DUP_FN), delete callbacks on MPI_Comm_free and MPI_Comm_delete_attr,
 * predefined attributes, and error handling: MPI_ERRORS_RETURN with the error classes of a bad
 * rank, tag, count and root; a user error handler (also inherited by MPI_Comm_dup and invoked by
 * MPI_Comm_call_errhandler); a library error class/code/string (MPI_Add_error_*). Also
 * MPI_Comm_compare, MPI_Comm_split_type, MPI_Initialized/MPI_Finalized/MPI_Query_thread. Needs no
 * particular number of ranks. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs, myrank, np;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL libsafe.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

/* ---------------------------------------------------------------- the library */

struct lib_state { MPI_Comm private_comm; int calls; };
static int lib_keyval = MPI_KEYVAL_INVALID;
static int lib_dups, lib_deletes, lib_copies;
static int lib_errclass, lib_errcode;

static int lib_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval; (void)extra; (void)in; (void)out;
    lib_copies++;
    *flag = 0; /* a duplicate gets its own private communicator when first used */
    return MPI_SUCCESS;
}

static int lib_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    struct lib_state *s = attr;
    (void)comm; (void)keyval;
    if (extra != &lib_keyval)
        return MPI_ERR_OTHER;
    MPI_Comm_free(&s->private_comm);
    free(s);
    lib_deletes++;
    return MPI_SUCCESS;
}

static MPI_Comm lib_comm(MPI_Comm comm)
{
    struct lib_state *s;
    int flag;
    if (lib_keyval == MPI_KEYVAL_INVALID) {
        MPI_Comm_create_keyval(lib_copy, lib_delete, &lib_keyval, &lib_keyval);
        MPI_Add_error_class(&lib_errclass);
        MPI_Add_error_code(lib_errclass, &lib_errcode);
        MPI_Add_error_string(lib_errcode, "ringlib: the ring is broken");
    }
    MPI_Comm_get_attr(comm, lib_keyval, &s, &flag);
    if (!flag) {
        s = malloc(sizeof *s);
        s->calls = 0;
        MPI_Comm_dup(comm, &s->private_comm);
        MPI_Comm_set_attr(comm, lib_keyval, s);
        lib_dups++;
    }
    s->calls++;
    return s->private_comm;
}

/* Sum of `value` over the ring, passed hop by hop with wildcard receives. */
static int lib_ring_sum(MPI_Comm comm, int value)
{
    MPI_Comm pc = lib_comm(comm);
    int me, n, acc = value, got;
    MPI_Comm_rank(pc, &me);
    MPI_Comm_size(pc, &n);
    for (int hop = 1; hop < n; hop++) {
        MPI_Status st;
        MPI_Request r;
        MPI_Isend(&value, 1, MPI_INT, (me + 1) % n, hop, pc, &r);
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, pc, &st);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (st.MPI_SOURCE != (me + n - 1) % n || st.MPI_TAG != hop)
            return -1;
        value = got;
        acc += got;
    }
    return acc;
}

/* ---------------------------------------------------------------- the application */

static int handler_calls, handler_class;
static MPI_Comm handler_comm;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    int cls;
    MPI_Error_class(*code, &cls);
    handler_calls++;
    handler_class = cls;
    handler_comm = *comm;
}

static void check_class(int rc, int want, const char *what)
{
    int cls = -1, len = 0;
    char str[MPI_MAX_ERROR_STRING];
    if (rc == MPI_SUCCESS) {
        fail(__LINE__, "%s succeeded, expected error class %d", what, want);
        return;
    }
    MPI_Error_class(rc, &cls);
    CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
    MPI_Error_string(rc, str, &len);
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(str) == len,
          "%s: error string of length %d", what, len);
}

static void library_safety(void)
{
    MPI_Comm ucomm, dup;
    int left, right, sum = np * (np - 1) / 2;
    MPI_Comm_dup(MPI_COMM_WORLD, &ucomm);
    MPI_Comm_rank(ucomm, &right);
    left = (right + np - 1) % np;
    right = (right + 1) % np;

    /* the user's wildcard receive is pending while the library talks */
    int umsg = -1, magic = 777000 + myrank;
    MPI_Request ureq;
    MPI_Status ust;
    MPI_Irecv(&umsg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, ucomm, &ureq);
    int s1 = lib_ring_sum(ucomm, myrank);
    CHECK(s1 == sum, "library ring sum %d, expected %d", s1, sum);
    int s2 = lib_ring_sum(ucomm, myrank);
    CHECK(s2 == sum, "second library ring sum %d, expected %d", s2, sum);
    MPI_Send(&magic, 1, MPI_INT, right, 5, ucomm);
    MPI_Wait(&ureq, &ust);
    CHECK(umsg == 777000 + left && ust.MPI_SOURCE == left && ust.MPI_TAG == 5,
          "user receive got %d from %d tag %d (library message stolen?)", umsg, ust.MPI_SOURCE,
          ust.MPI_TAG);
    CHECK(lib_dups == 1, "library duplicated the communicator %d times", lib_dups);

    /* a second keyval whose value is copied by MPI_COMM_DUP_FN */
    static int shared_value = 4242;
    int kv2, flag;
    void *v;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv2, NULL);
    MPI_Comm_set_attr(ucomm, kv2, &shared_value);
    MPI_Comm_dup(ucomm, &dup);
    CHECK(lib_copies == 1, "library copy callback ran %d times", lib_copies);
    MPI_Comm_get_attr(dup, lib_keyval, &v, &flag);
    CHECK(!flag, "library attribute was copied although its copy callback said no");
    MPI_Comm_get_attr(dup, kv2, &v, &flag);
    CHECK(flag && v == &shared_value, "MPI_COMM_DUP_FN attribute: flag %d value %p", flag, v);
    int s3 = lib_ring_sum(dup, 2 * myrank);
    CHECK(s3 == 2 * sum && lib_dups == 2, "ring sum on the duplicate %d, %d dups", s3, lib_dups);

    /* delete callbacks: explicit delete, then communicator frees */
    MPI_Comm_delete_attr(dup, lib_keyval);
    CHECK(lib_deletes == 1, "MPI_Comm_delete_attr ran %d delete callbacks", lib_deletes);
    MPI_Comm_get_attr(dup, lib_keyval, &v, &flag);
    CHECK(!flag, "attribute still there after MPI_Comm_delete_attr");
    {   /* a duplicate is congruent, not identical; a shared-memory split of one node is all */
        int res, ssize;
        MPI_Comm node;
        MPI_Comm_compare(ucomm, dup, &res);
        CHECK(res == MPI_CONGRUENT, "MPI_Comm_compare(comm, dup) = %d, expected congruent", res);
        MPI_Comm_compare(ucomm, ucomm, &res);
        CHECK(res == MPI_IDENT, "MPI_Comm_compare(comm, comm) = %d, expected ident", res);
        MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &ssize);
        CHECK(ssize == np, "MPI_COMM_TYPE_SHARED split has %d of %d ranks (one node)", ssize, np);
        MPI_Comm_free(&node);
    }
    MPI_Comm_free(&dup);
    CHECK(dup == MPI_COMM_NULL && lib_deletes == 1, "freeing the duplicate: deletes %d",
          lib_deletes);
    MPI_Comm_free(&ucomm);
    CHECK(lib_deletes == 2, "freeing the user communicator ran %d delete callbacks in total",
          lib_deletes);
    MPI_Comm_free_keyval(&kv2);
    CHECK(kv2 == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval did not reset the keyval");

    /* predefined attributes */
    int *tag_ub, *wtg;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    CHECK(flag && *tag_ub >= 32767, "MPI_TAG_UB: flag %d value %d", flag, flag ? *tag_ub : 0);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &wtg, &flag);
    CHECK(!flag || *wtg == 0 || *wtg == 1, "MPI_WTIME_IS_GLOBAL = %d", *wtg);
}

static void error_handling(void)
{
    int x = 1, rc;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_RANK, "MPI_Send to rank = size");
    rc = MPI_Recv(&x, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check_class(rc, MPI_ERR_RANK, "MPI_Recv from rank -5");
    rc = MPI_Send(&x, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_TAG, "MPI_Send with tag -3");
    rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_COUNT, "MPI_Send with count -1");
    rc = MPI_Bcast(&x, 1, MPI_INT, np + 1, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_ROOT, "MPI_Bcast with root size + 1");
    /* the communicator still works after errors were returned */
    rc = MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS && x == np, "Allreduce after errors: rc %d, sum %d", rc, x);

    /* a user handler, inherited by a duplicate */
    MPI_Errhandler eh;
    MPI_Comm c1, c2;
    MPI_Comm_create_errhandler(my_handler, &eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &c1);
    MPI_Comm_set_errhandler(c1, eh);
    MPI_Errhandler_free(&eh); /* still attached to c1 */
    MPI_Comm_dup(c1, &c2);
    rc = MPI_Send(&x, 1, MPI_INT, np + 7, 0, c2);
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_RANK && handler_comm == c2,
          "user handler: %d calls, class %d, right comm %d (rc %d)", handler_calls,
          handler_class, handler_comm == c2, rc);
    MPI_Comm_call_errhandler(c1, lib_errcode);
    CHECK(handler_calls == 2 && handler_class == lib_errclass && handler_comm == c1,
          "MPI_Comm_call_errhandler: %d calls, class %d (expected %d)", handler_calls,
          handler_class, lib_errclass);
    {
        char str[MPI_MAX_ERROR_STRING];
        int len = 0, cls = -1;
        MPI_Error_string(lib_errcode, str, &len);
        MPI_Error_class(lib_errcode, &cls);
        CHECK(!strcmp(str, "ringlib: the ring is broken") && cls == lib_errclass,
              "library error code: string '%s', class %d (expected %d)", str, cls, lib_errclass);
        int *last, flag;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
        CHECK(flag && *last >= lib_errclass, "MPI_LASTUSEDCODE %d < class %d", flag ? *last : -1,
              lib_errclass); /* codes may be encoded above it (MPICH) */
    }
    MPI_Comm_free(&c2);
    MPI_Comm_free(&c1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int flag = 0, provided = -1;
    MPI_Initialized(&flag);
    if (flag) {
        fprintf(stderr, "FAIL: MPI_Initialized is true before MPI_Init\n");
        return 1;
    }
    MPI_Init(&argc, &argv);
    MPI_Initialized(&flag);
    MPI_Query_thread(&provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(flag && provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
          "MPI_Initialized %d, MPI_Query_thread %d", flag, provided);
    library_safety();
    error_handling();
    MPI_Comm_free_keyval(&lib_keyval);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    MPI_Finalized(&flag);
    if (!flag) {
        fprintf(stderr, "FAIL: MPI_Finalized is false after MPI_Finalize\n");
        return 1;
    }
    return total != 0;
}
