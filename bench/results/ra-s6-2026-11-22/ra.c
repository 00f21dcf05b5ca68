/* Mimic of hpcc MPIRandomAccess communication (AnyNodes, <=4 ranks: one ANY_SOURCE recv). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#define MAXP 1024
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, np; MPI_Comm_rank(MPI_COMM_WORLD, &me); MPI_Comm_size(MPI_COMM_WORLD, &np);
  long nupd = argc > 1 ? atol(argv[1]) : 1000000;
  uint64_t *table = calloc(1 << 20, 8);
  uint64_t *bk = malloc(sizeof(uint64_t) * np * MAXP); int *bn = calloc(np, sizeof(int));
  uint64_t sendbuf[MAXP], recvbuf[MAXP];
  MPI_Request inreq, outreq = MPI_REQUEST_NULL; MPI_Status st; int done, pending = 0, receiving = np - 1;
  MPI_Irecv(recvbuf, MAXP, MPI_UINT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &inreq);
  uint64_t ran = 12345 + me; long i = 0, got = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
#define POLL do { MPI_Test(&inreq, &done, &st); if (done) { \
      if (st.MPI_TAG == 1) { int c; MPI_Get_count(&st, MPI_UINT64_T, &c); got += c; \
        for (int j = 0; j < c; j++) table[recvbuf[j] & ((1 << 20) - 1)] ^= recvbuf[j]; } \
      else receiving--; \
      MPI_Irecv(recvbuf, MAXP, MPI_UINT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &inreq); } \
    } while (done && receiving > 0)
#define SEND do { MPI_Test(&outreq, &done, MPI_STATUS_IGNORE); if (done) { \
      int best = 0; for (int p = 1; p < np; p++) if (bn[p] > bn[best]) best = p; \
      memcpy(sendbuf, bk + (size_t)best * MAXP, bn[best] * 8); \
      MPI_Isend(sendbuf, bn[best], MPI_UINT64_T, best, 1, MPI_COMM_WORLD, &outreq); \
      pending -= bn[best]; bn[best] = 0; } } while (0)
  while (i < nupd) {
    POLL;
    if (pending < MAXP) {
      ran = (ran << 1) ^ ((int64_t)ran < 0 ? 7 : 0);
      int pe = (int)((ran >> 20) % np);
      if (pe == me) table[ran & ((1 << 20) - 1)] ^= ran;
      else { bk[(size_t)pe * MAXP + bn[pe]++] = ran; pending++; }
      i++;
    } else SEND;
  }
  while (pending > 0) { POLL; SEND; }
  MPI_Request fin[64]; int nf = 0;
  for (int p = 0; p < np; p++) if (p != me) MPI_Isend(NULL, 0, MPI_UINT64_T, p, 2, MPI_COMM_WORLD, &fin[nf++]);
  while (receiving > 0) { MPI_Wait(&inreq, &st);
    if (st.MPI_TAG == 1) { int c; MPI_Get_count(&st, MPI_UINT64_T, &c); got += c; }
    else receiving--;
    MPI_Irecv(recvbuf, MAXP, MPI_UINT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &inreq); }
  MPI_Waitall(nf, fin, MPI_STATUSES_IGNORE);
  MPI_Cancel(&inreq); MPI_Wait(&inreq, MPI_STATUS_IGNORE); MPI_Wait(&outreq, MPI_STATUS_IGNORE);
  double t = MPI_Wtime() - t0, tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0) printf("np %d updates/rank %ld time %.3f s  %.1f Mupd/s\n", np, nupd, tmax, nupd * np / tmax / 1e6);
  free(table); free(bk); free(bn);
  MPI_Finalize();
}
