/* getcount: MPI_Get_count, MPI_Get_elements and MPI_Get_elements_x on receive and probe
 * statuses for basic types (message shorter than the receive buffer, 0-length, 1M elements),
 * and MPI_UNDEFINED when the received byte count is not a multiple of the queried type's size
 * (10 bytes queried as MPI_INT / MPI_DOUBLE). Around a ring. */
#include "../common/mpitest.h"

#include <complex.h>
#include <stdbool.h>
#include <wchar.h>

static void check_counts(const MPI_Status *st, MPI_Datatype type, int expect, const char *what)
{
    int c = -12345, e = -12345;
    MPI_Count ex = -12345;
    char w[160];
    MPI_Get_count(st, type, &c);
    MPI_Get_elements(st, type, &e);
    MPI_Get_elements_x(st, type, &ex);
    snprintf(w, sizeof w, "%s: MPI_Get_count", what);
    MT_CHECK_INT(expect, c, w);
    snprintf(w, sizeof w, "%s: MPI_Get_elements", what);
    MT_CHECK_INT(expect, e, w);
    snprintf(w, sizeof w, "%s: MPI_Get_elements_x", what);
    MT_CHECK_INT(expect, ex, w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    struct {
        MPI_Datatype t;
        const char *name;
        size_t size;
    } types[] = {
        {MPI_CHAR, "MPI_CHAR", sizeof(char)},
        {MPI_SHORT, "MPI_SHORT", sizeof(short)},
        {MPI_INT, "MPI_INT", sizeof(int)},
        {MPI_LONG, "MPI_LONG", sizeof(long)},
        {MPI_LONG_LONG, "MPI_LONG_LONG", sizeof(long long)},
        {MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(unsigned)},
        {MPI_FLOAT, "MPI_FLOAT", sizeof(float)},
        {MPI_DOUBLE, "MPI_DOUBLE", sizeof(double)},
        {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double)},
        {MPI_C_BOOL, "MPI_C_BOOL", sizeof(bool)},
        {MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t)},
        {MPI_INT64_T, "MPI_INT64_T", sizeof(int64_t)},
        {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(double _Complex)},
        {MPI_BYTE, "MPI_BYTE", 1},
    };
    const int ntypes = (int)(sizeof types / sizeof types[0]);
    const int big = 1 << 20;
    unsigned char *sbuf = calloc((size_t)big, sizeof(double));
    unsigned char *rbuf = calloc((size_t)big, sizeof(double));
    MT_ASSERT(sbuf && rbuf, "calloc failed");
    MPI_Status st;
    char what[128];

    for (int t = 0; t < ntypes; t++) {
        const int counts[3] = {0, 5, 1000};
        for (int c = 0; c < 3; c++) {
            int n = counts[c];
            MPI_Request req;
            MPI_Isend(sbuf, n, types[t].t, right, t, MPI_COMM_WORLD, &req);
            MPI_Probe(left, t, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "probe of %d x %s", n, types[t].name);
            check_counts(&st, types[t].t, n, what);
            MPI_Recv(rbuf, n + 4, types[t].t, left, t, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "%d x %s into a buffer of %d", n, types[t].name, n + 4);
            check_counts(&st, types[t].t, n, what);
            if (types[t].t != MPI_BYTE) {
                snprintf(what, sizeof what, "%d x %s counted as MPI_BYTE", n, types[t].name);
                check_counts(&st, MPI_BYTE, n * (int)types[t].size, what);
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    }

    /* 1M doubles */
    {
        MPI_Request req;
        MPI_Isend(sbuf, big, MPI_DOUBLE, right, 100, MPI_COMM_WORLD, &req);
        MPI_Recv(rbuf, big, MPI_DOUBLE, left, 100, MPI_COMM_WORLD, &st);
        check_counts(&st, MPI_DOUBLE, big, "1M doubles");
        check_counts(&st, MPI_INT, 2 * big, "1M doubles counted as MPI_INT");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }

    /* byte counts that are not multiples of the queried type size. The status is queried with
     * a type other than the receive type: every MPI computes the counts from the received
     * byte count, which is what the MPI_UNDEFINED rule is about. */
    {
        MPI_Request req;
        MPI_Isend(sbuf, 10, MPI_BYTE, right, 101, MPI_COMM_WORLD, &req);
        MPI_Recv(rbuf, 64, MPI_BYTE, left, 101, MPI_COMM_WORLD, &st);
        check_counts(&st, MPI_BYTE, 10, "10 bytes as MPI_BYTE");
        check_counts(&st, MPI_SHORT, 5, "10 bytes as MPI_SHORT");
        check_counts(&st, MPI_INT, MPI_UNDEFINED, "10 bytes as MPI_INT");
        check_counts(&st, MPI_DOUBLE, MPI_UNDEFINED, "10 bytes as MPI_DOUBLE");
        MPI_Wait(&req, MPI_STATUS_IGNORE);

        MPI_Isend(sbuf, 12, MPI_BYTE, right, 102, MPI_COMM_WORLD, &req);
        MPI_Probe(left, 102, MPI_COMM_WORLD, &st);
        check_counts(&st, MPI_INT, 3, "probe of 12 bytes as MPI_INT");
        check_counts(&st, MPI_DOUBLE, MPI_UNDEFINED, "probe of 12 bytes as MPI_DOUBLE");
        MPI_Recv(rbuf, 64, MPI_BYTE, left, 102, MPI_COMM_WORLD, &st);
        check_counts(&st, MPI_INT, 3, "12 bytes as MPI_INT");
        check_counts(&st, MPI_LONG_LONG, MPI_UNDEFINED, "12 bytes as MPI_LONG_LONG");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }

    free(sbuf);
    free(rbuf);
    return mt_finish();
}
