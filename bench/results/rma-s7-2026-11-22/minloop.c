/* min-of-batches timing of one-sided ops (dev tool for h-rma): argv: what n [excl] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmpd(const void *a, const void *b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "acc";
    int n = argc > 2 ? atoi(argv[2]) : 4;
    int excl = argc > 3 ? atoi(argv[3]) : 0;
    void *base; MPI_Win win;
    MPI_Win_allocate(65536, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win); memset(base, 0, 65536); MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    static float src[4096]; for (int i = 0; i < 4096; i++) src[i] = 1;
    long one = 1, old, cmp = 0;
    enum { B = 1000, NB = 400 };
    static double t[NB];
    if (rank == 0) {
        int k = !strcmp(what, "acc") ? 0 : !strcmp(what, "fop") ? 1 : !strcmp(what, "cas") ? 2 : 3;
        if (k != 3) MPI_Win_lock(excl ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 1, 0, win);
        for (int b = 0; b < NB; b++) {
            double t0 = MPI_Wtime();
            for (int i = 0; i < B; i++) {
                if (k == 0) { MPI_Accumulate(src, n, MPI_FLOAT, 1, 0, n, MPI_FLOAT, MPI_SUM, win); MPI_Win_flush(1, win); }
                else if (k == 1) { MPI_Fetch_and_op(&one, &old, MPI_LONG, 1, 0, MPI_SUM, win); MPI_Win_flush(1, win); }
                else if (k == 2) { MPI_Compare_and_swap(&one, &cmp, &old, MPI_LONG, 1, 0, win); MPI_Win_flush(1, win); }
                else { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win); MPI_Put(&one, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win); MPI_Win_unlock(1, win); }
            }
            t[b] = (MPI_Wtime() - t0) / B * 1e9;
        }
        if (k != 3) MPI_Win_unlock(1, win);
        qsort(t, NB, sizeof(double), cmpd);
        printf("%s,%d,%d,%.2f,%.2f\n", what, n, excl, t[0], t[NB / 10]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
