/* p2p_huge: one message larger than 2 GiB: 270M MPI_DOUBLEs (2.16 GB) from rank 0 to rank 1
 * (int count, byte size > INT_MAX). Only sampled positions carry values (every 4099th element
 * plus both ends; the rest is calloc zero) so that setup and verification stay fast; the status
 * count and the sampled values, plus zeros in between, are checked. Other ranks idle. */
#include "../common/mpitest.h"

#define COUNT 270000000L /* 8 * COUNT > 2^31 */
#define STRIDE 4099L
#define EDGE 4096L

static double value_at(long i) { return (double)(i % 1000003) + 0.5; }
static int sampled(long i) { return i < EDGE || i >= COUNT - EDGE || i % STRIDE == 0; }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    MPI_Status st;

    if (mt_rank == 0) {
        double *buf = calloc((size_t)COUNT, sizeof(double));
        MT_ASSERT(buf != NULL, "calloc of %ld doubles failed", COUNT);
        for (long i = 0; i < COUNT; i += STRIDE)
            buf[i] = value_at(i);
        for (long i = 0; i < EDGE; i++) {
            buf[i] = value_at(i);
            buf[COUNT - 1 - i] = value_at(COUNT - 1 - i);
        }
        MPI_Send(buf, (int)COUNT, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
        free(buf);
    } else if (mt_rank == 1) {
        double *buf = mt_malloc((size_t)COUNT * sizeof(double));
        /* poison the sampled positions */
        for (long i = 0; i < COUNT; i += STRIDE)
            buf[i] = -1.0;
        for (long i = 0; i < EDGE; i++)
            buf[i] = buf[COUNT - 1 - i] = -1.0;
        MPI_Recv(buf, (int)COUNT, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &st);
        MT_CHECK_STATUS(&st, 0, 7, MPI_DOUBLE, (int)COUNT, "huge message");
        MPI_Count bytes = 0;
        MPI_Get_elements_x(&st, MPI_BYTE, &bytes);
        MT_CHECK_INT((long long)COUNT * 8, bytes, "MPI_Get_elements_x(MPI_BYTE) of huge message");
        long bad = 0, first = -1;
        for (long i = 0; i < COUNT; i += 512) { /* stride 512 hits zeros and samples */
            double exp = sampled(i) ? value_at(i) : 0.0;
            if (buf[i] != exp && bad++ == 0)
                first = i;
        }
        for (long i = 0; i < COUNT; i += STRIDE)
            if (buf[i] != value_at(i) && bad++ == 0)
                first = i;
        for (long i = 0; i < EDGE; i++) {
            if (buf[i] != value_at(i) && bad++ == 0)
                first = i;
            if (buf[COUNT - 1 - i] != value_at(COUNT - 1 - i) && bad++ == 0)
                first = COUNT - 1 - i;
        }
        MT_CHECK(bad == 0, "huge message: %ld wrong sampled elements, first at index %ld (got %g)",
                 bad, first, first >= 0 ? buf[first] : 0.0);
        free(buf);
    }
    return mt_finish();
}
