/* contents: MPI_Type_get_envelope/get_contents for every combiner, checked against the
 * argument layout of the standard's table (MPI-4.1 section 5.1.13), and the large-count
 * constructors (`_c`) with MPI_Type_get_envelope_c/get_contents_c where the library has them.
 * A type rebuilt from its contents must have the same size and extent. */
#include "../common/mpitest.h"

struct expected {
    int combiner, ni, na, nd;
    const int *ints;
    const MPI_Aint *addrs;
    MPI_Datatype type0;
};

static void check(MPI_Datatype t, const struct expected *e, const char *what)
{
    int ni = -1, na = -1, nd = -1, combiner = -1;
    MT_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    if (!MT_CHECK_INT(e->combiner, combiner, what) || !MT_CHECK_INT(e->ni, ni, what) ||
        !MT_CHECK_INT(e->na, na, what) || !MT_CHECK_INT(e->nd, nd, what))
        return;
    int ints[32];
    MPI_Aint addrs[16];
    MPI_Datatype types[4];
    MT_MPI(MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types));
    for (int i = 0; i < ni; i++)
        MT_CHECK(ints[i] == e->ints[i], "%s: integer %d is %d, expected %d", what, i, ints[i],
                 e->ints[i]);
    for (int i = 0; i < na; i++)
        MT_CHECK(addrs[i] == e->addrs[i], "%s: address %d is %ld, expected %ld", what, i,
                 (long)addrs[i], (long)e->addrs[i]);
    MT_CHECK(types[0] == e->type0, "%s: first datatype differs", what);
    for (int i = 0; i < nd; i++) {
        int c2, x1, x2, x3;
        MT_MPI(MPI_Type_get_envelope(types[i], &x1, &x2, &x3, &c2));
        if (c2 != MPI_COMBINER_NAMED)
            MT_MPI(MPI_Type_free(&types[i]));
    }
}

int main(int argc, char **argv)
{
    MPI_Datatype t;
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);

    MT_MPI(MPI_Type_contiguous(7, MPI_INT, &t));
    check(t, &(struct expected){MPI_COMBINER_CONTIGUOUS, 1, 0, 1, (int[]){7}, NULL, MPI_INT},
          "contiguous");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_hvector(3, 2, -40, MPI_DOUBLE, &t));
    check(t, &(struct expected){MPI_COMBINER_HVECTOR, 2, 1, 1, (int[]){3, 2},
                                (MPI_Aint[]){-40}, MPI_DOUBLE},
          "hvector");
    MT_MPI(MPI_Type_free(&t));

    int lens[3] = {1, 0, 2}, displs[3] = {5, 1, -3};
    MT_MPI(MPI_Type_indexed(3, lens, displs, MPI_SHORT, &t));
    check(t, &(struct expected){MPI_COMBINER_INDEXED, 7, 0, 1, (int[]){3, 1, 0, 2, 5, 1, -3},
                                NULL, MPI_SHORT},
          "indexed");
    MT_MPI(MPI_Type_free(&t));

    MPI_Aint hdispls[3] = {100, -8, 0};
    MT_MPI(MPI_Type_create_hindexed(3, lens, hdispls, MPI_CHAR, &t));
    check(t, &(struct expected){MPI_COMBINER_HINDEXED, 4, 3, 1, (int[]){3, 1, 0, 2}, hdispls,
                                MPI_CHAR},
          "hindexed");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_indexed_block(3, 4, displs, MPI_FLOAT, &t));
    check(t, &(struct expected){MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, (int[]){3, 4, 5, 1, -3},
                                NULL, MPI_FLOAT},
          "indexed_block");
    MT_MPI(MPI_Type_free(&t));

    MT_MPI(MPI_Type_create_hindexed_block(3, 4, hdispls, MPI_FLOAT, &t));
    check(t, &(struct expected){MPI_COMBINER_HINDEXED_BLOCK, 2, 3, 1, (int[]){3, 4}, hdispls,
                                MPI_FLOAT},
          "hindexed_block");
    MT_MPI(MPI_Type_free(&t));

    int gsizes[2] = {9, 4}, distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE},
        dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {3, 1};
    MT_MPI(MPI_Type_create_darray(3, 1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN,
                                  MPI_DOUBLE, &t));
    check(t, &(struct expected){MPI_COMBINER_DARRAY, 4 * 2 + 4, 0, 1,
                                (int[]){3, 1, 2, 9, 4, MPI_DISTRIBUTE_CYCLIC,
                                        MPI_DISTRIBUTE_NONE, 2, MPI_DISTRIBUTE_DFLT_DARG, 3, 1,
                                        MPI_ORDER_FORTRAN},
                                NULL, MPI_DOUBLE},
          "darray");
    MT_MPI(MPI_Type_free(&t));

    /* Rebuild a struct from its contents: same size and extent. */
    int slens[2] = {2, 1};
    MPI_Aint sdispls[2] = {0, 24};
    MPI_Datatype stypes[2] = {MPI_DOUBLE, MPI_SHORT}, rebuilt, got[2];
    int ints[3];
    MPI_Aint addrs[2], lb1, lb2, ext1, ext2;
    MT_MPI(MPI_Type_create_struct(2, slens, sdispls, stypes, &t));
    MT_MPI(MPI_Type_get_contents(t, 3, 2, 2, ints, addrs, got));
    MT_MPI(MPI_Type_create_struct(ints[0], ints + 1, addrs, got, &rebuilt));
    MT_MPI(MPI_Type_get_extent(t, &lb1, &ext1));
    MT_MPI(MPI_Type_get_extent(rebuilt, &lb2, &ext2));
    MT_CHECK(lb1 == lb2 && ext1 == ext2 && ext1 == 32, "struct rebuilt from contents: "
             "extent %ld vs %ld", (long)ext1, (long)ext2);
    MT_MPI(MPI_Type_free(&rebuilt));
    MT_MPI(MPI_Type_free(&t));

#if MPI_VERSION >= 4
    if (!mt_library_is("Open MPI v4")) { /* Open MPI 4.x has no large-count interface */
        MPI_Count clens[2] = {3, 1}, cdispls[2] = {-16, 64}, ni, na, nc, nd, counts[8];
        int combiner;
        MT_MPI(MPI_Type_create_hindexed_c(2, clens, cdispls, MPI_INT, &t));
        MT_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
        MT_CHECK(combiner == MPI_COMBINER_HINDEXED && ni == 0 && na == 0 && nc == 5 && nd == 1,
                 "hindexed_c envelope: %lld %lld %lld %lld", (long long)ni, (long long)na,
                 (long long)nc, (long long)nd);
        MT_MPI(MPI_Type_get_contents_c(t, 0, 0, 5, 1, NULL, NULL, counts, got));
        MT_CHECK(counts[0] == 2 && counts[1] == 3 && counts[2] == 1 && counts[3] == -16 &&
                     counts[4] == 64 && got[0] == MPI_INT,
                 "hindexed_c contents");
        MPI_Count size, lb, extent;
        MT_MPI(MPI_Type_size_c(t, &size));
        MT_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
        MT_CHECK(size == 16 && lb == -16 && extent == 84, "hindexed_c layout: %lld %lld %lld",
                 (long long)size, (long long)lb, (long long)extent);
        MT_MPI(MPI_Type_free(&t));
        MT_MPI(MPI_Type_vector_c(4, 2, 3, MPI_DOUBLE, &t));
        MT_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
        MT_MPI(MPI_Type_get_contents_c(t, 0, 0, 3, 1, NULL, NULL, counts, got));
        MT_CHECK(combiner == MPI_COMBINER_VECTOR && nc == 3 && counts[0] == 4 &&
                     counts[1] == 2 && counts[2] == 3, "vector_c contents");
        MT_MPI(MPI_Type_free(&t));
    }
#endif
    return mt_finish();
}
