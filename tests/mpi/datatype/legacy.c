/* legacy: the MPI-1 names MPI-3.0 removed, which nodempi keeps for old programs
 * (include/mpi-legacy.tsv): MPI_Address, MPI_Type_extent/lb/ub, MPI_Type_hvector/hindexed/struct,
 * the bound markers MPI_LB / MPI_UB with the sticky bounds of MPI-2.2 section 4.1.6 (several
 * markers, nested types, next to MPI_Type_create_resized), a count > 1 exchange whose extent an
 * MPI_UB sets, envelope/contents round trips, MPI_Errhandler_create/set/get with a handler that
 * is called, MPI_DUP_FN / MPI_NULL_COPY_FN / MPI_NULL_DELETE_FN, and bad arguments. */
#include "../common/mpitest.h"

static void check_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint ub, int size, const char *what)
{
    MPI_Aint got_lb = -1, got_ub = -1, extent = -1, get_lb = -1, get_extent = -1;
    int got_size = -1;
    MT_MPI(MPI_Type_lb(t, &got_lb));
    MT_MPI(MPI_Type_ub(t, &got_ub));
    MT_MPI(MPI_Type_extent(t, &extent));
    MT_MPI(MPI_Type_get_extent(t, &get_lb, &get_extent));
    MT_MPI(MPI_Type_size(t, &got_size));
    char label[128];
    snprintf(label, sizeof label, "%s: lb", what);
    MT_CHECK_INT(lb, got_lb, label);
    snprintf(label, sizeof label, "%s: ub", what);
    MT_CHECK_INT(ub, got_ub, label);
    snprintf(label, sizeof label, "%s: extent", what);
    MT_CHECK_INT(ub - lb, extent, label);
    snprintf(label, sizeof label, "%s: size", what);
    MT_CHECK_INT(size, got_size, label);
    MT_CHECK(get_lb == got_lb && get_extent == extent,
             "%s: MPI_Type_get_extent gives lb %ld extent %ld", what, (long)get_lb,
             (long)get_extent);
}

static MPI_Datatype make_struct(int n, const int *lens, const MPI_Aint *displs,
                                const MPI_Datatype *types)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MT_MPI(MPI_Type_struct(n, lens, displs, types, &t));
    return t;
}

static void test_address(void)
{
    struct { char c; double d[3]; } s = {0};
    MPI_Aint a_old = 0, a_new = 0, b_old = 0;
    MT_MPI(MPI_Address(&s.d[1], &a_old));
    MT_MPI(MPI_Get_address(&s.d[1], &a_new));
    MT_CHECK(a_old == a_new, "MPI_Address %ld != MPI_Get_address %ld", (long)a_old,
             (long)a_new);
    MT_MPI(MPI_Address(&s.c, &b_old));
    MT_CHECK_INT((char *)&s.d[1] - &s.c, a_old - b_old, "MPI_Address difference");
    MT_CHECK_ERRCLASS(MPI_Address(&s, NULL), MPI_ERR_ARG, "MPI_Address(NULL)");
}

static void test_markers_alone(void)
{
    check_bounds(MPI_LB, 0, 0, 0, "MPI_LB");
    check_bounds(MPI_UB, 0, 0, 0, "MPI_UB");
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0, ni, na, nd, combiner = -1;
    MT_MPI(MPI_Type_get_name(MPI_LB, name, &len));
    MT_CHECK(strcmp(name, "MPI_LB") == 0, "name of MPI_LB: %s", name);
    MT_MPI(MPI_Type_get_name(MPI_UB, name, &len));
    MT_CHECK(strcmp(name, "MPI_UB") == 0, "name of MPI_UB: %s", name);
    MT_MPI(MPI_Type_get_envelope(MPI_UB, &ni, &na, &nd, &combiner));
    MT_CHECK_INT(MPI_COMBINER_NAMED, combiner, "combiner of MPI_UB");
    MPI_Datatype copy = MPI_LB;
    MT_CHECK_ERRCLASS(MPI_Type_free(&copy), MPI_ERR_TYPE, "MPI_Type_free(MPI_LB)");
    MT_CHECK(copy == MPI_LB, "MPI_Type_free(MPI_LB) changed the handle");
    /* Usable like a predefined type: commit is a no-op, Fortran round trip keeps the value. */
    copy = MPI_UB;
    MT_MPI(MPI_Type_commit(&copy));
    MT_CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_LB)) == MPI_LB, "MPI_LB through c2f/f2c");
    MT_CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_UB)) == MPI_UB, "MPI_UB through toint");
    /* The constants stay outside the ABI's combiners (101..117). */
    MT_CHECK(MPI_COMBINER_HVECTOR_INTEGER > 117 && MPI_COMBINER_HINDEXED_INTEGER > 117 &&
                 MPI_COMBINER_STRUCT_INTEGER > 117 &&
                 MPI_COMBINER_HVECTOR_INTEGER != MPI_COMBINER_HINDEXED_INTEGER &&
                 MPI_COMBINER_HINDEXED_INTEGER != MPI_COMBINER_STRUCT_INTEGER,
             "MPI_COMBINER_*_INTEGER values");
}

static void test_marker_bounds(void)
{
    /* Markers win over the data, in both directions. */
    MPI_Datatype t = make_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){-8, 0, 20},
                                 (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB});
    check_bounds(t, -8, 20, 4, "{LB -8, int 0, UB 20}");
    MPI_Aint true_lb = -1, true_extent = -1;
    MT_MPI(MPI_Type_get_true_extent(t, &true_lb, &true_extent));
    MT_CHECK(true_lb == 0 && true_extent == 4, "true extent %ld %ld", (long)true_lb,
             (long)true_extent);
    MPI_Datatype t2;
    MT_MPI(MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){-8, 0, 20},
                                  (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB}, &t2));
    check_bounds(t2, -8, 20, 4, "the same with MPI_Type_create_struct");
    MT_MPI(MPI_Type_free(&t2));

    /* Several markers: lb is the least LB, ub the greatest UB; data outside stays outside. */
    MPI_Datatype many = make_struct(
        5, (int[]){1, 1, 1, 1, 1}, (MPI_Aint[]){4, -2, 10, 30, 40},
        (MPI_Datatype[]){MPI_LB, MPI_LB, MPI_UB, MPI_UB, MPI_DOUBLE});
    check_bounds(many, -2, 30, 8, "two LBs, two UBs, a double past the UB");
    MT_MPI(MPI_Type_free(&many));

    /* Only an UB: no alignment padding; only an LB: ub from the data. */
    MPI_Datatype ub_only = make_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 3},
                                       (MPI_Datatype[]){MPI_INT, MPI_UB});
    check_bounds(ub_only, 0, 3, 4, "{int 0, UB 3}");
    MT_MPI(MPI_Type_free(&ub_only));
    MPI_Datatype lb_only = make_struct(2, (int[]){1, 2}, (MPI_Aint[]){-4, 0},
                                       (MPI_Datatype[]){MPI_LB, MPI_INT});
    check_bounds(lb_only, -4, 8, 8, "{LB -4, 2 ints 0}");
    MT_MPI(MPI_Type_free(&lb_only));

    /* Nested: markers of t (lb -8, ub 20, extent 28) propagate through every constructor. */
    MPI_Datatype contig, vec, outer, resized, around;
    MT_MPI(MPI_Type_contiguous(3, t, &contig)); /* copies at 0, 28, 56 */
    check_bounds(contig, -8, 76, 12, "contiguous(3) of it");
    MT_MPI(MPI_Type_hvector(2, 1, 100, t, &vec)); /* copies at 0, 100 */
    check_bounds(vec, -8, 120, 8, "hvector(2, 1, 100) of it");
    outer = make_struct(2, (int[]){2, 1}, (MPI_Aint[]){100, 0},
                        (MPI_Datatype[]){t, MPI_CHAR}); /* copies at 100, 128; char at 0 */
    check_bounds(outer, 92, 148, 9, "struct {2 of it at 100, char at 0}");
    /* MPI_Type_create_resized replaces the markers; an enclosing struct sees the new ones. */
    MT_MPI(MPI_Type_create_resized(t, 0, 8, &resized));
    check_bounds(resized, 0, 8, 4, "resized(0, 8) of it");
    around = make_struct(2, (int[]){3, 1}, (MPI_Aint[]){16, 64},
                         (MPI_Datatype[]){resized, MPI_UB}); /* copies at 16, 24, 32 */
    check_bounds(around, 16, 64, 12, "struct {3 of resized at 16, UB 64}");
    MPI_Type_free(&around);
    MPI_Type_free(&resized);
    MPI_Type_free(&outer);
    MPI_Type_free(&vec);
    MPI_Type_free(&contig);
    MPI_Type_free(&t);
}

/* A {int, double} record whose extent MPI_UB makes 32 bytes: count 3 moves 3 records at a
 * 32-byte stride and leaves the bytes between them alone. */
static void test_exchange(void)
{
    MPI_Datatype rec = make_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 8, 32},
                                   (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_UB});
    MT_MPI(MPI_Type_commit(&rec));
    check_bounds(rec, 0, 32, 12, "record");
    unsigned char send[3 * 32], recv[3 * 32];
    memset(send, 0x11, sizeof send);
    memset(recv, 0x77, sizeof recv);
    for (int i = 0; i < 3; i++) {
        int v = 1000 * mt_rank + i;
        double d = mt_rank + 0.25 * i;
        memcpy(send + 32 * i, &v, sizeof v);
        memcpy(send + 32 * i + 8, &d, sizeof d);
    }
    int to = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    MPI_Status st;
    MT_MPI(MPI_Sendrecv(send, 3, rec, to, 7, recv, 3, rec, from, 7, MPI_COMM_WORLD, &st));
    int count = -1;
    MT_MPI(MPI_Get_count(&st, rec, &count));
    MT_CHECK_INT(3, count, "MPI_Get_count of the records");
    for (int i = 0; i < 3; i++) {
        int v;
        double d;
        memcpy(&v, recv + 32 * i, sizeof v);
        memcpy(&d, recv + 32 * i + 8, sizeof d);
        MT_CHECK(v == 1000 * from + i && d == from + 0.25 * i, "record %d: %d %g", i, v, d);
        for (int k = 4; k < 8; k++)
            MT_CHECK(recv[32 * i + k] == 0x77, "record %d: gap byte %d written", i, k);
        for (int k = 16; k < 32; k++)
            MT_CHECK(recv[32 * i + k] == 0x77, "record %d: byte %d past the data written", i, k);
    }
    MT_MPI(MPI_Type_free(&rec));
}

static void check_contents(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                           const MPI_Aint *addrs, int nd, const MPI_Datatype *types,
                           const char *what)
{
    int gi = -1, ga = -1, gd = -1, gc = -1;
    MT_MPI(MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc));
    if (!MT_CHECK_INT(combiner, gc, what) || !MT_CHECK_INT(ni, gi, what) ||
        !MT_CHECK_INT(na, ga, what) || !MT_CHECK_INT(nd, gd, what))
        return;
    int ri[16];
    MPI_Aint ra[8];
    MPI_Datatype rt[8];
    MT_MPI(MPI_Type_get_contents(t, 16, 8, 8, ri, ra, rt));
    for (int i = 0; i < ni; i++)
        MT_CHECK(ri[i] == ints[i], "%s: integer %d is %d, expected %d", what, i, ri[i], ints[i]);
    for (int i = 0; i < na; i++)
        MT_CHECK(ra[i] == addrs[i], "%s: address %d is %ld, expected %ld", what, i, (long)ra[i],
                 (long)addrs[i]);
    for (int i = 0; i < nd; i++)
        MT_CHECK(rt[i] == types[i], "%s: datatype %d differs", what, i);
}

static void test_contents(void)
{
    MPI_Datatype t, rebuilt;
    MT_MPI(MPI_Type_hvector(3, 2, -40, MPI_DOUBLE, &t));
    check_contents(t, MPI_COMBINER_HVECTOR, 2, (int[]){3, 2}, 1, (MPI_Aint[]){-40}, 1,
                   (MPI_Datatype[]){MPI_DOUBLE}, "MPI_Type_hvector");
    check_bounds(t, -80, 16, 48, "MPI_Type_hvector(3, 2, -40, double)");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_hindexed(2, (int[]){1, 3}, (MPI_Aint[]){16, -8}, MPI_INT, &t));
    check_contents(t, MPI_COMBINER_HINDEXED, 3, (int[]){2, 1, 3}, 2, (MPI_Aint[]){16, -8}, 1,
                   (MPI_Datatype[]){MPI_INT}, "MPI_Type_hindexed");
    check_bounds(t, -8, 20, 16, "MPI_Type_hindexed");
    MT_MPI(MPI_Type_free(&t));

    /* The struct's contents hand back MPI_LB and MPI_UB themselves; rebuilt from them with
     * MPI_Type_create_struct, the type has the same bounds. */
    MPI_Datatype types[3] = {MPI_LB, MPI_SHORT, MPI_UB};
    t = make_struct(3, (int[]){1, 4, 1}, (MPI_Aint[]){-6, 2, 24}, types);
    check_contents(t, MPI_COMBINER_STRUCT, 4, (int[]){3, 1, 4, 1}, 3,
                   (MPI_Aint[]){-6, 2, 24}, 3, types, "MPI_Type_struct");
    int ri[4];
    MPI_Aint ra[3];
    MPI_Datatype rt[3];
    MT_MPI(MPI_Type_get_contents(t, 4, 3, 3, ri, ra, rt));
    MT_MPI(MPI_Type_create_struct(ri[0], ri + 1, ra, rt, &rebuilt));
    check_bounds(rebuilt, -6, 24, 8, "struct rebuilt from the contents");
    MT_MPI(MPI_Type_free(&rebuilt));
    MT_MPI(MPI_Type_free(&t));
}

static int handler_calls;
static MPI_Comm handler_comm;
static int handler_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_comm = *comm;
    MPI_Error_class(*code, &handler_class);
}

static void test_errhandler(void)
{
    MPI_Comm comm;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Handler_function *fn = count_errors;
    MT_MPI(MPI_Errhandler_create(fn, &eh));
    MT_MPI(MPI_Errhandler_set(comm, eh));
    MT_MPI(MPI_Errhandler_get(comm, &got));
    MT_CHECK(got == eh, "MPI_Errhandler_get returned another handler");
    MT_MPI(MPI_Errhandler_free(&got));
    int rc = MPI_Send(NULL, 0, MPI_INT, mt_size + 5, 0, comm);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_RANK, "MPI_Send to a bad rank (the handler returns)");
    MT_CHECK_INT(1, handler_calls, "user handler calls");
    MT_CHECK(handler_comm == comm, "the handler was called for another communicator");
    MT_CHECK_INT(MPI_ERR_RANK, handler_class, "error class the handler saw");
    /* The MPI-2 calls see the same handler. */
    MT_MPI(MPI_Comm_get_errhandler(comm, &got));
    MT_CHECK(got == eh, "MPI_Comm_get_errhandler differs from MPI_Errhandler_set's");
    MT_MPI(MPI_Errhandler_free(&got));
    MT_MPI(MPI_Errhandler_set(comm, MPI_ERRORS_RETURN));
    MT_MPI(MPI_Errhandler_free(&eh));
    MT_CHECK_ERRCLASS(MPI_Errhandler_set(comm, MPI_ERRHANDLER_NULL), MPI_ERR_ARG,
                      "MPI_Errhandler_set(MPI_ERRHANDLER_NULL)");
    MT_CHECK_ERRCLASS(MPI_Errhandler_get(MPI_COMM_NULL, &got), MPI_ERR_COMM,
                      "MPI_Errhandler_get(MPI_COMM_NULL)");
    MT_CHECK_ERRCLASS(MPI_Errhandler_get(comm, NULL), MPI_ERR_ARG, "MPI_Errhandler_get(NULL)");
    MT_CHECK_ERRCLASS(MPI_Errhandler_create(NULL, &got), MPI_ERR_ARG,
                      "MPI_Errhandler_create(NULL)");
    MT_MPI(MPI_Comm_free(&comm));
}

static int deletes;

static int count_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)extra;
    deletes += (int)(intptr_t)value;
    return MPI_SUCCESS;
}

/* The predefined MPI-1 callbacks: MPI_DUP_FN copies, MPI_NULL_COPY_FN does not,
 * MPI_NULL_DELETE_FN does nothing. */
static void test_predefined_callbacks(void)
{
    int key_dup, key_null, flag = 0;
    void *value = NULL;
    MPI_Comm a, b;
    MT_MPI(MPI_Keyval_create(MPI_DUP_FN, count_delete, &key_dup, NULL));
    MT_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key_null, NULL));
    MT_MPI(MPI_Comm_dup(MPI_COMM_SELF, &a));
    MT_MPI(MPI_Attr_put(a, key_dup, (void *)(intptr_t)5));
    MT_MPI(MPI_Attr_put(a, key_null, (void *)(intptr_t)9));
    MT_MPI(MPI_Comm_dup(a, &b));
    MT_MPI(MPI_Attr_get(b, key_dup, &value, &flag));
    MT_CHECK(flag && (intptr_t)value == 5, "MPI_DUP_FN copy: flag %d value %ld", flag,
             (long)(intptr_t)value);
    MT_MPI(MPI_Attr_get(b, key_null, &value, &flag));
    MT_CHECK_INT(0, flag, "MPI_NULL_COPY_FN copied the attribute");
    MT_MPI(MPI_Attr_delete(a, key_null));
    MT_MPI(MPI_Comm_free(&b));
    MT_MPI(MPI_Comm_free(&a));
    MT_CHECK_INT(10, deletes, "delete callbacks (5 from each communicator)");
    MT_MPI(MPI_Keyval_free(&key_dup));
    MT_MPI(MPI_Keyval_free(&key_null));
}

static void test_bad_arguments(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Aint v;
    MT_CHECK_ERRCLASS(MPI_Type_extent(MPI_DATATYPE_NULL, &v), MPI_ERR_TYPE,
                      "MPI_Type_extent(MPI_DATATYPE_NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_lb(MPI_DATATYPE_NULL, &v), MPI_ERR_TYPE,
                      "MPI_Type_lb(MPI_DATATYPE_NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_ub(MPI_DATATYPE_NULL, &v), MPI_ERR_TYPE,
                      "MPI_Type_ub(MPI_DATATYPE_NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_extent(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_extent(NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_lb(NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_ub(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_ub(NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT,
                      "MPI_Type_hvector(count -1)");
    MT_CHECK_ERRCLASS(MPI_Type_hvector(2, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
                      "MPI_Type_hvector(MPI_DATATYPE_NULL)");
    MT_CHECK_ERRCLASS(MPI_Type_hindexed(2, NULL, NULL, MPI_INT, &t), MPI_ERR_ARG,
                      "MPI_Type_hindexed(NULL arrays)");
    MT_CHECK_ERRCLASS(MPI_Type_hindexed(1, (int[]){-2}, (MPI_Aint[]){0}, MPI_INT, &t),
                      MPI_ERR_ARG, "MPI_Type_hindexed(blocklength -2)");
    MT_CHECK_ERRCLASS(MPI_Type_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                                      (MPI_Datatype[]){MPI_INT, MPI_DATATYPE_NULL}, &t),
                      MPI_ERR_TYPE, "MPI_Type_struct with MPI_DATATYPE_NULL");
    MT_CHECK_ERRCLASS(MPI_Type_struct(1, (int[]){1}, (MPI_Aint[]){0}, (MPI_Datatype[]){MPI_LB},
                                      NULL),
                      MPI_ERR_ARG, "MPI_Type_struct(newtype NULL)");
    MT_CHECK(t == MPI_DATATYPE_NULL, "a failed constructor set the new type");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    test_address();
    test_markers_alone();
    test_marker_bounds();
    test_exchange();
    test_contents();
    test_errhandler();
    test_predefined_callbacks();
    test_bad_arguments();
    return mt_finish();
}
