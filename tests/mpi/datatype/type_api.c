/* type_api: the MPI_Type_* interface on one rank: predefined sizes/extents/names (pair types
 * with their real C layouts), every constructor's size, lb, extent and true extent against
 * values computed by hand, envelope/contents round trips, dup keeping the committed state,
 * names, match_size, addresses, Status_set_elements + Get_elements/Get_count on derived types,
 * and the error classes of bad arguments (with MPI_ERRORS_RETURN). Runs on any rank count;
 * every rank does the same local work. */
#include "../common/mpitest.h"

#include <stddef.h>

static void check_type(MPI_Datatype t, MPI_Count size, MPI_Aint lb, MPI_Aint extent,
                       MPI_Aint true_lb, MPI_Aint true_extent, const char *what)
{
    MPI_Count s = -1, lbx = -1, extx = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    int si = -1;
    char msg[200];
    MT_MPI(MPI_Type_size_x(t, &s));
    MT_MPI(MPI_Type_size(t, &si));
    MT_MPI(MPI_Type_get_extent(t, &l, &e));
    MT_MPI(MPI_Type_get_extent_x(t, &lbx, &extx));
    MT_MPI(MPI_Type_get_true_extent(t, &tl, &te));
    snprintf(msg, sizeof msg, "%s: size", what);
    MT_CHECK_INT(size, s, msg);
    MT_CHECK_INT(size, si, msg);
    snprintf(msg, sizeof msg, "%s: lb", what);
    MT_CHECK_INT(lb, l, msg);
    MT_CHECK_INT(lb, lbx, msg);
    snprintf(msg, sizeof msg, "%s: extent", what);
    MT_CHECK_INT(extent, e, msg);
    MT_CHECK_INT(extent, extx, msg);
    snprintf(msg, sizeof msg, "%s: true lb", what);
    MT_CHECK_INT(true_lb, tl, msg);
    snprintf(msg, sizeof msg, "%s: true extent", what);
    MT_CHECK_INT(true_extent, te, msg);
}

static void check_name(MPI_Datatype t, const char *expected)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MT_MPI(MPI_Type_get_name(t, name, &len));
    MT_CHECK(strcmp(name, expected) == 0 && len == (int)strlen(expected),
             "type name \"%s\" (len %d), expected \"%s\"", name, len, expected);
}

struct ldi { long double v; int i; };
struct di { double v; int i; };
struct si { short v; int i; };

static void test_predefined(void)
{
    check_type(MPI_INT, 4, 0, 4, 0, 4, "MPI_INT");
    check_type(MPI_LONG, sizeof(long), 0, sizeof(long), 0, sizeof(long), "MPI_LONG");
    check_type(MPI_LONG_DOUBLE, sizeof(long double), 0, sizeof(long double), 0,
               sizeof(long double), "MPI_LONG_DOUBLE");
    check_type(MPI_DOUBLE_INT, 12, 0, sizeof(struct di), 0, 12, "MPI_DOUBLE_INT");
    check_type(MPI_SHORT_INT, 6, 0, sizeof(struct si), 0, offsetof(struct si, i) + 4,
               "MPI_SHORT_INT");
    check_type(MPI_LONG_DOUBLE_INT, sizeof(long double) + 4, 0, sizeof(struct ldi), 0,
               offsetof(struct ldi, i) + 4, "MPI_LONG_DOUBLE_INT");
    check_type(MPI_2INT, 8, 0, 8, 0, 8, "MPI_2INT");
    check_type(MPI_C_DOUBLE_COMPLEX, 16, 0, 16, 0, 16, "MPI_C_DOUBLE_COMPLEX");
    check_type(MPI_INT64_T, 8, 0, 8, 0, 8, "MPI_INT64_T");
    check_type(MPI_INTEGER, 4, 0, 4, 0, 4, "MPI_INTEGER");
    check_type(MPI_DOUBLE_PRECISION, 8, 0, 8, 0, 8, "MPI_DOUBLE_PRECISION");
    check_type(MPI_DOUBLE_COMPLEX, 16, 0, 16, 0, 16, "MPI_DOUBLE_COMPLEX");
    check_type(MPI_AINT, sizeof(MPI_Aint), 0, sizeof(MPI_Aint), 0, sizeof(MPI_Aint),
               "MPI_AINT");
    check_name(MPI_INT, "MPI_INT");
    check_name(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    check_name(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG");
    check_name(MPI_C_BOOL, "MPI_C_BOOL");
    check_name(MPI_2INT, "MPI_2INT");

    int envelope[4] = {-1, -1, -1, -1};
    MT_MPI(MPI_Type_get_envelope(MPI_FLOAT, &envelope[0], &envelope[1], &envelope[2],
                                 &envelope[3]));
    MT_CHECK(envelope[0] == 0 && envelope[1] == 0 && envelope[2] == 0 &&
                 envelope[3] == MPI_COMBINER_NAMED,
             "envelope of MPI_FLOAT: %d %d %d combiner %d", envelope[0], envelope[1],
             envelope[2], envelope[3]);
}

/* Constructors: hand-computed layouts (x86_64 / LP64 sizes). */
static void test_constructors(void)
{
    MPI_Datatype t, u, v;

    MT_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
    check_type(t, 20, 0, 20, 0, 20, "contiguous(5, int)");
    MT_MPI(MPI_Type_free(&t));
    MT_CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not reset the handle");

    MT_MPI(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t)); /* blocks at 0, 32, 64 of 16 bytes */
    check_type(t, 48, 0, 80, 0, 80, "vector(3,2,4,double)");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &t)); /* ints at 0, -8, -16 */
    check_type(t, 12, -16, 20, -16, 20, "vector with negative stride");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_hvector(2, 1, 6, MPI_SHORT, &t));
    check_type(t, 4, 0, 8, 0, 8, "hvector(2,1,6 bytes,short)");
    MT_MPI(MPI_Type_free(&t));

    int lens[3] = {2, 1, 3}, displs[3] = {4, 0, 10};
    MT_MPI(MPI_Type_indexed(3, lens, displs, MPI_FLOAT, &t)); /* [16,24) [0,4) [40,52) */
    check_type(t, 24, 0, 52, 0, 52, "indexed");
    MT_MPI(MPI_Type_free(&t));

    MPI_Aint hdispls[3] = {-8, 100, 20};
    MT_MPI(MPI_Type_create_hindexed(3, lens, hdispls, MPI_CHAR, &t)); /* [-8,-6) [100] [20,23) */
    check_type(t, 6, -8, 109, -8, 109, "hindexed");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &t)); /* [16,24) [0,8) [40,48) */
    check_type(t, 24, 0, 48, 0, 48, "indexed_block");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_hindexed_block(3, 1, hdispls, MPI_DOUBLE, &t));
    /* [-8,0) [100,108) [20,28): the extent is rounded up to the alignment of double */
    check_type(t, 24, -8, 120, -8, 116, "hindexed_block");
    MT_MPI(MPI_Type_free(&t));

    /* struct { char c; double d; int i; } with the C layout: alignment pads the extent. */
    struct mixed { char c; double d; int i; };
    int slens[3] = {1, 1, 1};
    MPI_Aint sdispls[3] = {offsetof(struct mixed, c), offsetof(struct mixed, d),
                           offsetof(struct mixed, i)};
    MPI_Datatype stypes[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MT_MPI(MPI_Type_create_struct(3, slens, sdispls, stypes, &t));
    check_type(t, 13, 0, sizeof(struct mixed), 0, offsetof(struct mixed, i) + 4, "struct");

    MT_MPI(MPI_Type_create_resized(t, -4, 40, &u));
    check_type(u, 13, -4, 40, 0, offsetof(struct mixed, i) + 4, "resized struct");
    MT_MPI(MPI_Type_contiguous(2, u, &v)); /* second copy at 40 */
    check_type(v, 26, -4, 80, 0, 40 + offsetof(struct mixed, i) + 4, "contiguous of resized");
    MT_MPI(MPI_Type_free(&v));
    MT_MPI(MPI_Type_free(&u));
    MT_MPI(MPI_Type_free(&t));

    /* subarray: 4x6 ints, 2x3 block at (1,2), C order. */
    int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
    MT_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    check_type(t, 24, 0, 96, (1 * 6 + 2) * 4, (1 * 6 + 3) * 4, "subarray C");
    MT_MPI(MPI_Type_free(&t));
    MT_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    /* Fortran: dim 0 fastest; elements (i,j) at (i + 4j)*4, i in 1..2, j in 2..4 */
    check_type(t, 24, 0, 96, (1 + 4 * 2) * 4, (4 * 2 + 2) * 4, "subarray Fortran");
    MT_MPI(MPI_Type_free(&t));

    /* darray: 8 doubles block-distributed over 4 processes, I am rank 1: elements 2..3. */
    int gsizes[1] = {8}, distribs[1] = {MPI_DISTRIBUTE_BLOCK},
        dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG}, psizes[1] = {4};
    MT_MPI(MPI_Type_create_darray(4, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                  MPI_DOUBLE, &t));
    check_type(t, 16, 0, 64, 16, 16, "darray block");
    MT_MPI(MPI_Type_free(&t));
    /* cyclic(2) over 3 processes of 10 ints, rank 2: indices 4,5 */
    gsizes[0] = 10;
    distribs[0] = MPI_DISTRIBUTE_CYCLIC;
    dargs[0] = 2;
    psizes[0] = 3;
    MT_MPI(MPI_Type_create_darray(3, 2, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                  MPI_INT, &t));
    check_type(t, 8, 0, 40, 16, 8, "darray cyclic(2)");
    MT_MPI(MPI_Type_free(&t));
    /* rank 0: indices 0,1,6,7 */
    MT_MPI(MPI_Type_create_darray(3, 0, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                  MPI_INT, &t));
    check_type(t, 16, 0, 40, 0, 32, "darray cyclic(2) rank 0");
    MT_MPI(MPI_Type_free(&t));

    /* Zero-size types. */
    MT_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    check_type(t, 0, 0, 0, 0, 0, "contiguous(0)");
    MT_MPI(MPI_Type_free(&t));
}

static void test_contents(void)
{
    MPI_Datatype t, dup, inner, got[2];
    int ints[8], ni, na, nd, combiner;
    MPI_Aint addrs[4];

    /* Arrays sized exactly from the envelope (Open MPI 4.1 crashes on larger max_* values). */
    MT_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &inner));
    MT_MPI(MPI_Type_get_envelope(inner, &ni, &na, &nd, &combiner));
    MT_CHECK(ni == 3 && na == 0 && nd == 1 && combiner == MPI_COMBINER_VECTOR,
             "vector envelope %d %d %d %d", ni, na, nd, combiner);
    MT_MPI(MPI_Type_get_contents(inner, 3, 0, 1, ints, addrs, got));
    MT_CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && got[0] == MPI_INT,
             "vector contents %d %d %d", ints[0], ints[1], ints[2]);

    int lens[2] = {1, 4};
    MPI_Aint displs[2] = {0, 64};
    MPI_Datatype types[2] = {MPI_DOUBLE, inner};
    MT_MPI(MPI_Type_create_struct(2, lens, displs, types, &t));
    MT_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    MT_CHECK(ni == 3 && na == 2 && nd == 2 && combiner == MPI_COMBINER_STRUCT,
             "struct envelope %d %d %d %d", ni, na, nd, combiner);
    MT_MPI(MPI_Type_get_contents(t, 3, 2, 2, ints, addrs, got));
    MT_CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 4 && addrs[0] == 0 && addrs[1] == 64 &&
                 got[0] == MPI_DOUBLE,
             "struct contents");
    /* The derived type returned is usable and must be freed by the caller. */
    MPI_Count size = -1;
    MT_MPI(MPI_Type_size_x(got[1], &size));
    MT_CHECK_INT(24, size, "size of the vector returned by get_contents");
    MT_MPI(MPI_Type_free(&got[1]));
    MT_MPI(MPI_Type_free(&inner)); /* t still uses it */
    MT_MPI(MPI_Type_size_x(t, &size));
    MT_CHECK_INT(8 + 4 * 24, size, "struct size after freeing its child handle");

    MT_MPI(MPI_Type_create_resized(t, 0, 512, &dup));
    MT_MPI(MPI_Type_get_envelope(dup, &ni, &na, &nd, &combiner));
    MT_CHECK(ni == 0 && na == 2 && nd == 1 && combiner == MPI_COMBINER_RESIZED,
             "resized envelope");
    MT_MPI(MPI_Type_get_contents(dup, 0, 2, 1, ints, addrs, got));
    MT_CHECK(addrs[0] == 0 && addrs[1] == 512, "resized contents");
    MT_MPI(MPI_Type_free(&got[0]));
    MT_MPI(MPI_Type_free(&dup));

    /* dup: same layout, DUP combiner, committed state kept. */
    MT_MPI(MPI_Type_commit(&t));
    MT_MPI(MPI_Type_dup(t, &dup));
    MT_MPI(MPI_Type_get_envelope(dup, &ni, &na, &nd, &combiner));
    MT_CHECK(combiner == MPI_COMBINER_DUP && nd == 1, "dup envelope");
    check_type(dup, 104, 0, 64 + 4 * 48, 0, 64 + 4 * 48, "dup of struct");
    char buf[1024], packed[256];
    int position = 0;
    memset(buf, 1, sizeof buf);
    MT_MPI(MPI_Pack(buf, 1, dup, packed, sizeof packed, &position, MPI_COMM_WORLD));
    MT_CHECK_INT(104, position, "pack with a dup of a committed type (no commit of the dup)");
    MT_MPI(MPI_Type_free(&dup));

    /* subarray contents */
    int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
    MT_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT,
                                    &dup));
    MT_MPI(MPI_Type_get_envelope(dup, &ni, &na, &nd, &combiner));
    MT_CHECK(ni == 8 && na == 0 && nd == 1 && combiner == MPI_COMBINER_SUBARRAY,
             "subarray envelope %d %d %d %d", ni, na, nd, combiner);
    MT_MPI(MPI_Type_get_contents(dup, 8, 0, 1, ints, addrs, got));
    MT_CHECK(ints[0] == 2 && ints[1] == 4 && ints[2] == 6 && ints[3] == 2 && ints[4] == 3 &&
                 ints[5] == 1 && ints[6] == 2 && ints[7] == MPI_ORDER_FORTRAN &&
                 got[0] == MPI_INT,
             "subarray contents");
    MT_MPI(MPI_Type_free(&dup));
    MT_MPI(MPI_Type_free(&t));
}

static void test_names_and_misc(void)
{
    MPI_Datatype t, m;
    MT_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    check_name(t, "");
    MT_MPI(MPI_Type_set_name(t, "pair of ints"));
    check_name(t, "pair of ints");
    MT_MPI(MPI_Type_free(&t));

    int size = 0;
    MT_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m));
    MT_MPI(MPI_Type_size(m, &size));
    MT_CHECK_INT(8, size, "MPI_Type_match_size(REAL, 8)");
    MT_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &m));
    MT_MPI(MPI_Type_size(m, &size));
    MT_CHECK_INT(4, size, "MPI_Type_match_size(INTEGER, 4)");
    MT_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m));
    MT_MPI(MPI_Type_size(m, &size));
    MT_CHECK_INT(16, size, "MPI_Type_match_size(COMPLEX, 16)");

    double a[10];
    MPI_Aint p0, p5;
    MT_MPI(MPI_Get_address(&a[0], &p0));
    MT_MPI(MPI_Get_address(&a[5], &p5));
    MT_CHECK_INT(40, MPI_Aint_diff(p5, p0), "MPI_Aint_diff");
    MT_CHECK(MPI_Aint_add(p0, 40) == p5, "MPI_Aint_add");
}

/* Status_set_elements / Get_elements / Get_count with a derived type. */
static void test_elements(void)
{
    MPI_Datatype t;
    MPI_Status status;
    int lens[3] = {1, 1, 1}, count;
    MPI_Aint displs[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}; /* size 13: 3 basic elements */
    MPI_Count count_x;
    MT_MPI(MPI_Type_create_struct(3, lens, displs, types, &t));
    MT_MPI(MPI_Type_commit(&t));

    MT_MPI(MPI_Status_set_elements(&status, t, 5)); /* 1 whole + int, double of the next */
    MT_MPI(MPI_Get_elements(&status, t, &count));
    MT_CHECK_INT(5, count, "Get_elements after Status_set_elements(5)");
    MT_MPI(MPI_Get_count(&status, t, &count));
    MT_CHECK_INT(MPI_UNDEFINED, count, "Get_count of a partial element");
    MT_MPI(MPI_Get_elements(&status, MPI_BYTE, &count));
    MT_CHECK_INT(13 + 12, count, "bytes of 5 elements");

    MT_MPI(MPI_Status_set_elements_x(&status, t, 6));
    MT_MPI(MPI_Get_count(&status, t, &count));
    MT_CHECK_INT(2, count, "Get_count of 2 whole elements");
    MT_MPI(MPI_Get_elements_x(&status, t, &count_x));
    MT_CHECK_INT(6, count_x, "Get_elements_x");

    MT_MPI(MPI_Status_set_elements(&status, MPI_BYTE, 14)); /* int, double, char, then 1 byte */
    MT_MPI(MPI_Get_elements(&status, t, &count));
    MT_CHECK_INT(MPI_UNDEFINED, count, "Get_elements ending inside an int");
    MT_MPI(MPI_Status_set_elements(&status, MPI_BYTE, 17)); /* + an int */
    MT_MPI(MPI_Get_elements(&status, t, &count));
    MT_CHECK_INT(4, count, "Get_elements ending after the next int");

    /* Pairs count as two basic elements: their type map is {(double,0),(int,8)} (MPICH
     * agrees; Open MPI counts a pair as one element). */
    if (!mt_library_is("Open MPI")) {
        MT_MPI(MPI_Status_set_elements(&status, MPI_BYTE, 2 * 12));
        MT_MPI(MPI_Get_elements(&status, MPI_DOUBLE_INT, &count));
        MT_CHECK_INT(4, count, "Get_elements of 2 MPI_DOUBLE_INT");
        MT_MPI(MPI_Status_set_elements(&status, MPI_BYTE, 2 * 12 + 8));
        MT_MPI(MPI_Get_elements(&status, MPI_DOUBLE_INT, &count));
        MT_CHECK_INT(5, count, "Get_elements of 2.5 MPI_DOUBLE_INT");
    }
    MT_MPI(MPI_Type_free(&t));
}

static void test_errors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, in = MPI_INT;
    int rc, bad_lens[2] = {1, -1}, displs[2] = {0, 4}, position = 0;
    char buf[64];

    rc = MPI_Type_free(&in);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TYPE, "MPI_Type_free(MPI_INT)");
    rc = MPI_Type_contiguous(-1, MPI_INT, &t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_COUNT, "MPI_Type_contiguous(-1)");
    rc = MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TYPE, "MPI_Type_vector(MPI_DATATYPE_NULL)");
    rc = MPI_Type_indexed(2, bad_lens, displs, MPI_INT, &t);
    MT_CHECK(mt_errclass(rc) == MPI_ERR_ARG || mt_errclass(rc) == MPI_ERR_COUNT,
             "MPI_Type_indexed with a negative block length: class %d", mt_errclass(rc));
    t = MPI_DATATYPE_NULL;
    rc = MPI_Type_commit(&t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TYPE, "MPI_Type_commit(MPI_DATATYPE_NULL)");

    /* Pack/Unpack: uncommitted type, output too small, input too short. */
    MT_MPI(MPI_Type_contiguous(4, MPI_INT, &t));
    rc = MPI_Pack(buf, 1, t, buf + 32, 32, &position, MPI_COMM_WORLD);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TYPE, "MPI_Pack with an uncommitted type");
    MT_MPI(MPI_Type_commit(&t));
    position = 20;
    rc = MPI_Pack(buf, 1, t, buf + 32, 32, &position, MPI_COMM_WORLD);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TRUNCATE, "MPI_Pack past outsize");
    position = 0;
    rc = MPI_Unpack(buf, 8, &position, buf + 32, 1, t, MPI_COMM_WORLD);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TRUNCATE, "MPI_Unpack past insize");
    MT_MPI(MPI_Type_free(&t));

    int sizes[2] = {4, 4}, subsizes[2] = {2, 2}, starts[2] = {3, 0};
    rc = MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "subarray start past the end");
    starts[0] = 0;
    rc = MPI_Type_create_subarray(2, sizes, subsizes, starts, 77, MPI_INT, &t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "subarray with a bad order");

    int gsizes[2] = {4, 4}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
        dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 3};
    rc = MPI_Type_create_darray(4, 0, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                                &t);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "darray with psizes not multiplying to size");

    MPI_Datatype m;
    rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &m);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "MPI_Type_match_size(INTEGER, 3)");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    test_predefined();
    test_constructors();
    test_contents();
    test_names_and_misc();
    test_elements();
    test_errors();
    return mt_finish();
}
