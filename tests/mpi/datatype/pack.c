/* pack: MPI_Pack/MPI_Unpack with derived types (packed bytes in type-map order, gaps left
 * untouched on unpack, several packs appended at increasing positions), MPI_Pack_size,
 * MPI_BOTTOM with absolute addresses, darray layouts against an ownership computation, and
 * MPI_Pack_external/Unpack_external ("external32": big-endian) with known byte images.
 * Local work only; runs on any number of ranks. */
#include "../common/mpitest.h"

#include <stddef.h>

/* vector of 3 blocks of 2 ints, stride 5, packed twice in a row, then a double. */
static void test_vector_pack(void)
{
    int src[32], dst[32];
    double d = 2.5, d2 = 0;
    char packed[256];
    int position = 0, size = 0;
    MPI_Datatype t;
    for (int i = 0; i < 32; i++)
        src[i] = 100 + i;
    MT_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &t));
    MT_MPI(MPI_Type_commit(&t));
    MT_MPI(MPI_Pack_size(2, t, MPI_COMM_WORLD, &size));
    MT_CHECK(size >= 48, "MPI_Pack_size of 2 vectors: %d", size);

    MT_MPI(MPI_Pack(src, 2, t, packed, sizeof packed, &position, MPI_COMM_WORLD));
    MT_MPI(MPI_Pack(&d, 1, MPI_DOUBLE, packed, sizeof packed, &position, MPI_COMM_WORLD));
    /* The second vector starts at its extent (12 ints: 2 * 5 + 2) after the first. */
    static const int expected[12] = {100, 101, 105, 106, 110, 111,
                                     112, 113, 117, 118, 122, 123};
    int view[12];
    if (mt_library_is("nodempi")) { /* our native format is the bare packed stream */
        memcpy(view, packed, sizeof view);
        for (int i = 0; i < 12; i++)
            MT_CHECK_INT(expected[i], view[i], "packed vector data");
    }

    for (int i = 0; i < 32; i++)
        dst[i] = -1;
    int in = position;
    position = 0;
    MT_MPI(MPI_Unpack(packed, in, &position, dst, 2, t, MPI_COMM_WORLD));
    MT_MPI(MPI_Unpack(packed, in, &position, &d2, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    MT_CHECK_INT(in, position, "position after unpacking everything");
    MT_CHECK(d2 == 2.5, "double after the vectors: %g", d2);
    for (int i = 0; i < 32; i++) {
        int covered = 0;
        for (int k = 0; k < 12; k++)
            covered |= expected[k] == 100 + i;
        MT_CHECK_INT(covered ? 100 + i : -1, dst[i], "unpacked vector (gaps untouched)");
    }
    MT_MPI(MPI_Type_free(&t));
}

/* struct of mixed fields, resized to the C struct, 10 elements. */
struct particle {
    int id;
    double pos[3];
    char tag;
    float weight;
};

static MPI_Datatype particle_type(void)
{
    MPI_Datatype t, r;
    int lens[4] = {1, 3, 1, 1};
    MPI_Aint displs[4] = {offsetof(struct particle, id), offsetof(struct particle, pos),
                          offsetof(struct particle, tag), offsetof(struct particle, weight)};
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT};
    MT_MPI(MPI_Type_create_struct(4, lens, displs, types, &t));
    MT_MPI(MPI_Type_create_resized(t, 0, sizeof(struct particle), &r));
    MT_MPI(MPI_Type_free(&t));
    MT_MPI(MPI_Type_commit(&r));
    return r;
}

static void test_struct_pack(void)
{
    struct particle a[10], b[10];
    char packed[1024];
    int position = 0, size;
    MPI_Datatype t = particle_type();
    MT_MPI(MPI_Type_size(t, &size));
    MT_CHECK_INT(4 + 24 + 1 + 4, size, "particle type size");
    memset(a, 0x33, sizeof a);
    memset(b, 0x77, sizeof b);
    for (int i = 0; i < 10; i++) {
        a[i].id = i;
        a[i].pos[0] = i + 0.5;
        a[i].pos[1] = -i;
        a[i].pos[2] = i * 1e10;
        a[i].tag = (char)('a' + i);
        a[i].weight = (float)i / 4;
    }
    MT_MPI(MPI_Pack(a, 10, t, packed, sizeof packed, &position, MPI_COMM_WORLD));
    int in = position;
    position = 0;
    MT_MPI(MPI_Unpack(packed, in, &position, b, 10, t, MPI_COMM_WORLD));
    for (int i = 0; i < 10; i++) {
        MT_CHECK(b[i].id == i && b[i].pos[0] == i + 0.5 && b[i].pos[1] == -i &&
                     b[i].pos[2] == i * 1e10 && b[i].tag == 'a' + i &&
                     b[i].weight == (float)i / 4,
                 "particle %d after pack/unpack", i);
        /* padding after tag is not part of the type map: untouched */
        unsigned char *pad = (unsigned char *)&b[i] + offsetof(struct particle, tag) + 1;
        MT_CHECK(pad[0] == 0x77, "padding of particle %d was written", i);
    }
    MT_MPI(MPI_Type_free(&t));
}

/* MPI_BOTTOM: a struct type holding absolute addresses of three separate variables. */
static void test_bottom(void)
{
    int x = 7, x2 = 0;
    double y[2] = {1.25, -3.5}, y2[2] = {0, 0};
    short z = 12, z2 = 0;
    MPI_Aint addr[3];
    int lens[3] = {1, 2, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, t, t2;
    char packed[64];
    int position = 0;
    MT_MPI(MPI_Get_address(&x, &addr[0]));
    MT_MPI(MPI_Get_address(y, &addr[1]));
    MT_MPI(MPI_Get_address(&z, &addr[2]));
    MT_MPI(MPI_Type_create_struct(3, lens, addr, types, &t));
    MT_MPI(MPI_Type_commit(&t));
    MT_MPI(MPI_Pack(MPI_BOTTOM, 1, t, packed, sizeof packed, &position, MPI_COMM_WORLD));
    MT_CHECK_INT(4 + 16 + 2, position, "bytes packed from MPI_BOTTOM");
    MT_MPI(MPI_Get_address(&x2, &addr[0]));
    MT_MPI(MPI_Get_address(y2, &addr[1]));
    MT_MPI(MPI_Get_address(&z2, &addr[2]));
    MT_MPI(MPI_Type_create_struct(3, lens, addr, types, &t2));
    MT_MPI(MPI_Type_commit(&t2));
    int in = position;
    position = 0;
    MT_MPI(MPI_Unpack(packed, in, &position, MPI_BOTTOM, 1, t2, MPI_COMM_WORLD));
    MT_CHECK(x2 == 7 && y2[0] == 1.25 && y2[1] == -3.5 && z2 == 12,
             "MPI_BOTTOM unpack: %d %g %g %d", x2, y2[0], y2[1], z2);
    MT_MPI(MPI_Type_free(&t));
    MT_MPI(MPI_Type_free(&t2));
}

/* darray: pack an index-valued global array and compare with the elements each process owns,
 * in memory order (block, cyclic(2) and none on a 2x3 grid, both orders). */
static int owner(int index, int gsize, int distrib, int darg, int nprocs)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + nprocs - 1) / nprocs : darg;
        return index / block;
    }
    int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (index / block) % nprocs;
}

static void test_darray(void)
{
    enum { NDIMS = 3 };
    int gsizes[NDIMS] = {7, 5, 4}, psizes[NDIMS] = {2, 3, 1};
    int distribs[NDIMS] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE};
    int dargs[NDIMS] = {2, MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    int total = 7 * 5 * 4, global[7 * 5 * 4], packed[7 * 5 * 4], expected[7 * 5 * 4];
    for (int i = 0; i < total; i++)
        global[i] = i;
    for (int order = 0; order < 2; order++) {
        int ord = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        for (int rank = 0; rank < 6; rank++) {
            int coords[NDIMS] = {rank / 3, rank % 3, 0}, n = 0, position = 0;
            for (int lin = 0; lin < total; lin++) {
                int rest = lin, mine = 1;
                for (int k = 0; k < NDIMS; k++) {
                    int d = ord == MPI_ORDER_C ? NDIMS - 1 - k : k;
                    int idx = rest % gsizes[d];
                    rest /= gsizes[d];
                    mine &= owner(idx, gsizes[d], distribs[d], dargs[d], psizes[d]) == coords[d];
                }
                if (mine)
                    expected[n++] = lin;
            }
            MPI_Datatype t;
            MPI_Aint lb, extent;
            int size;
            MT_MPI(MPI_Type_create_darray(6, rank, NDIMS, gsizes, distribs, dargs, psizes, ord,
                                          MPI_INT, &t));
            MT_MPI(MPI_Type_commit(&t));
            MT_MPI(MPI_Type_size(t, &size));
            MT_MPI(MPI_Type_get_extent(t, &lb, &extent));
            MT_CHECK(size == 4 * n && lb == 0 && extent == 4 * total,
                     "darray order %d rank %d: size %d (expected %d), lb %ld, extent %ld", ord,
                     rank, size, 4 * n, (long)lb, (long)extent);
            MT_MPI(MPI_Pack(global, 1, t, packed, sizeof packed, &position, MPI_COMM_WORLD));
            /* The packed stream holds the owned elements as n ints, in memory order. */
            int values[7 * 5 * 4], bad = 0, in = position;
            position = 0;
            MT_MPI(MPI_Unpack(packed, in, &position, values, n, MPI_INT, MPI_COMM_WORLD));
            for (int i = 0; i < n; i++)
                bad += values[i] != expected[i];
            MT_CHECK(bad == 0, "darray order %d rank %d: %d elements differ", ord, rank, bad);
            MT_MPI(MPI_Type_free(&t));
        }
    }
}

static void check_bytes(const unsigned char *got, const unsigned char *expected, int n,
                        const char *what)
{
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= got[i] == expected[i];
    MT_CHECK(ok, "%s: external32 bytes differ", what);
}

static void test_external32(void)
{
    unsigned char out[64];
    MPI_Aint position = 0, size = 0;

    int i = 0x01020304;
    MT_MPI(MPI_Pack_external("external32", &i, 1, MPI_INT, out, sizeof out, &position));
    static const unsigned char int_image[] = {1, 2, 3, 4};
    check_bytes(out, int_image, 4, "int");
    MT_CHECK_INT(4, position, "external32 int size");

    double d = 1.0;
    position = 0;
    MT_MPI(MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, out, sizeof out, &position));
    static const unsigned char double_image[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    check_bytes(out, double_image, 8, "double 1.0");

    short s[2] = {-2, 0x1234};
    position = 0;
    MT_MPI(MPI_Pack_external("external32", s, 2, MPI_SHORT, out, sizeof out, &position));
    static const unsigned char short_image[] = {0xff, 0xfe, 0x12, 0x34};
    check_bytes(out, short_image, 4, "shorts");

    /* A vector of ints: elements in type-map order, each big-endian. */
    int v[6] = {1, -1, 2, -2, 3, -3};
    MPI_Datatype t;
    MT_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &t));
    MT_MPI(MPI_Type_commit(&t));
    MT_MPI(MPI_Pack_external_size("external32", 1, t, &size));
    MT_CHECK_INT(12, size, "external32 size of vector(3,1,2,int)");
    position = 0;
    MT_MPI(MPI_Pack_external("external32", v, 1, t, out, sizeof out, &position));
    static const unsigned char vector_image[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
    check_bytes(out, vector_image, 12, "vector of ints");
    int w[6] = {9, 9, 9, 9, 9, 9};
    MPI_Aint in_pos = 0;
    MT_MPI(MPI_Unpack_external("external32", out, position, &in_pos, w, 1, t));
    MT_CHECK(w[0] == 1 && w[1] == 9 && w[2] == 2 && w[3] == 9 && w[4] == 3 && w[5] == 9,
             "external32 vector round trip");
    MT_MPI(MPI_Type_free(&t));

    /* double-int pairs: 12 bytes each, no padding in external32 */
    struct { double v; int i; } pairs[2] = {{1.0, 5}, {-2.0, 6}}, back[2];
    MT_MPI(MPI_Pack_external_size("external32", 2, MPI_DOUBLE_INT, &size));
    MT_CHECK_INT(24, size, "external32 size of 2 MPI_DOUBLE_INT");
    position = 0;
    MT_MPI(MPI_Pack_external("external32", pairs, 2, MPI_DOUBLE_INT, out, sizeof out,
                             &position));
    static const unsigned char pair_image[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5,
                                               0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6};
    check_bytes(out, pair_image, 24, "MPI_DOUBLE_INT pairs");
    in_pos = 0;
    MT_MPI(MPI_Unpack_external("external32", out, position, &in_pos, back, 2, MPI_DOUBLE_INT));
    MT_CHECK(back[0].v == 1.0 && back[0].i == 5 && back[1].v == -2.0 && back[1].i == 6,
             "MPI_DOUBLE_INT external32 round trip");

    /* Truncation is an error. */
    position = 60;
    int rc = MPI_Pack_external("external32", v, 2, MPI_INT, out, sizeof out, &position);
    MT_CHECK(rc != MPI_SUCCESS, "MPI_Pack_external past outsize succeeded");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    test_vector_pack();
    test_struct_pack();
    test_bottom();
    test_darray();
    test_external32();
    return mt_finish();
}
