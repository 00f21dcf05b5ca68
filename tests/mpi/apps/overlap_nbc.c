/* overlap_nbc.c - overlapping computation with nonblocking collectives, as solvers do: an
 * MPI_Iallreduce, a set of MPI_Ibcast (one per root, all outstanding at once) and an
 * MPI_Ialltoallv whose send side is a strided derived datatype are started, then progressed by
 * MPI_Test/MPI_Testall/MPI_Testany calls between chunks of local work; then all of them plus an
 * MPI_Ibarrier outstanding together and completed with MPI_Waitany; finally a persistent
 * collective loop (MPI_Allreduce_init + MPI_Start/MPI_Wait, MPI-4; MPI_Iallreduce per iteration
 * with MPI-3 libraries). Every result and the local work are verified. Any number of ranks. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow" /* MPICH's MPI_STATUSES_IGNORE */
#endif

static int errs, myrank, np;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL overlap_nbc.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NRED 20000
#define NBC 3000
#define WORK_CHUNKS 64

/* A chunk of "computation": returns a value that is checked at the end. */
static unsigned long long work(int chunk)
{
    unsigned long long h = (unsigned long long)chunk + 1;
    for (int i = 0; i < 4000; i++)
        h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    return h;
}

static unsigned long long expected_work(int chunks)
{
    unsigned long long s = 0;
    for (int c = 0; c < chunks; c++)
        s ^= work(c);
    return s;
}

static int a2a_count(int s, int d) { return 1 + (s + 2 * d) % 5; }
static double a2a_val(int s, int d, int k) { return s * 1000.0 + d * 10.0 + k * 0.5; }

struct a2a {
    MPI_Datatype strided; /* one double, extent two doubles */
    double *sbuf, *rbuf;
    int *sc, *sd, *rc, *rd;
};

static void a2a_setup(struct a2a *x)
{
    MPI_Datatype v;
    MPI_Type_vector(1, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_create_resized(v, 0, 2 * (MPI_Aint)sizeof(double), &x->strided);
    MPI_Type_commit(&x->strided);
    MPI_Type_free(&v);
    x->sc = malloc(sizeof(int) * (size_t)np);
    x->sd = malloc(sizeof(int) * (size_t)np);
    x->rc = malloc(sizeof(int) * (size_t)np);
    x->rd = malloc(sizeof(int) * (size_t)np);
    int so = 0, ro = 0;
    for (int p = 0; p < np; p++) {
        x->sc[p] = a2a_count(myrank, p);
        x->sd[p] = so;
        so += x->sc[p];
        x->rc[p] = a2a_count(p, myrank);
        x->rd[p] = ro;
        ro += x->rc[p];
    }
    x->sbuf = malloc(sizeof(double) * 2 * (size_t)so);
    x->rbuf = malloc(sizeof(double) * (size_t)ro);
    for (int p = 0; p < np; p++)
        for (int k = 0; k < x->sc[p]; k++) {
            x->sbuf[2 * (x->sd[p] + k)] = a2a_val(myrank, p, k);
            x->sbuf[2 * (x->sd[p] + k) + 1] = -1.0; /* the gaps must not travel */
        }
    for (int k = 0; k < ro; k++)
        x->rbuf[k] = -7.0;
}

static void a2a_check(const struct a2a *x, const char *when)
{
    for (int p = 0; p < np; p++)
        for (int k = 0; k < x->rc[p]; k++)
            if (x->rbuf[x->rd[p] + k] != a2a_val(p, myrank, k)) {
                fail(__LINE__, "%s: Ialltoallv element %d from %d is %g, expected %g", when, k,
                     p, x->rbuf[x->rd[p] + k], a2a_val(p, myrank, k));
                return;
            }
}

static void a2a_free(struct a2a *x)
{
    MPI_Type_free(&x->strided);
    free(x->sbuf);
    free(x->rbuf);
    free(x->sc);
    free(x->sd);
    free(x->rc);
    free(x->rd);
}

static void red_fill(int *s, int iter)
{
    for (int i = 0; i < NRED; i++)
        s[i] = myrank + i % 1000 + iter;
}
static void red_check(const int *r, int iter, const char *when)
{
    for (int i = 0; i < NRED; i++) {
        int want = np * (np - 1) / 2 + np * (i % 1000 + iter);
        if (r[i] != want) {
            fail(__LINE__, "%s: allreduce element %d is %d, expected %d", when, i, r[i], want);
            return;
        }
    }
}

static void bc_fill(int *b, int root)
{
    for (int i = 0; i < NBC; i++)
        b[i] = root * 100000 + i;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *rs = malloc(sizeof(int) * NRED), *rr = malloc(sizeof(int) * NRED);
    int **bc = malloc(sizeof(int *) * (size_t)np);
    for (int r = 0; r < np; r++)
        bc[r] = malloc(sizeof(int) * NBC);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(np + 3));
    struct a2a x;
    a2a_setup(&x);
    unsigned long long acc;

    /* 1. Iallreduce progressed by MPI_Test */
    red_fill(rs, 0);
    MPI_Iallreduce(rs, rr, NRED, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]);
    acc = 0;
    for (int c = 0, flag = 0; c < WORK_CHUNKS; c++) {
        acc ^= work(c);
        if (!flag)
            MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&req[0], MPI_STATUS_IGNORE); /* a no-op if a test completed it */
    CHECK(req[0] == MPI_REQUEST_NULL, "request not freed by completion");
    CHECK(acc == expected_work(WORK_CHUNKS), "local work corrupted");
    red_check(rr, 0, "Iallreduce");

    /* 2. one Ibcast per root, all outstanding, Testall between chunks */
    for (int r = 0; r < np; r++) {
        if (r == myrank)
            bc_fill(bc[r], r);
        else
            memset(bc[r], 0, sizeof(int) * NBC);
        MPI_Ibcast(bc[r], NBC, MPI_INT, r, MPI_COMM_WORLD, &req[r]);
    }
    acc = 0;
    int all = 0;
    for (int c = 0; c < WORK_CHUNKS; c++) {
        acc ^= work(c);
        if (!all)
            MPI_Testall(np, req, &all, MPI_STATUSES_IGNORE);
    }
    if (!all)
        MPI_Waitall(np, req, MPI_STATUSES_IGNORE);
    CHECK(acc == expected_work(WORK_CHUNKS), "local work corrupted");
    for (int r = 0; r < np; r++) {
        int want[NBC];
        bc_fill(want, r);
        CHECK(memcmp(bc[r], want, sizeof want) == 0, "Ibcast from root %d: wrong data", r);
    }

    /* 3. Ialltoallv with a strided send type, Testany between chunks */
    MPI_Ialltoallv(x.sbuf, x.sc, x.sd, x.strided, x.rbuf, x.rc, x.rd, MPI_DOUBLE,
                   MPI_COMM_WORLD, &req[0]);
    acc = 0;
    for (int c = 0, flag = 0, idx; c < WORK_CHUNKS; c++) {
        acc ^= work(c);
        if (!flag) {
            MPI_Testany(1, req, &idx, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag || idx == 0, "Testany index %d", idx);
        }
    }
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    CHECK(acc == expected_work(WORK_CHUNKS), "local work corrupted");
    a2a_check(&x, "alone");

    /* 4. everything at once, completed by MPI_Waitany in whatever order */
    memset(x.rbuf, 0, sizeof(double) * (size_t)(x.rd[np - 1] + x.rc[np - 1]));
    red_fill(rs, 5);
    int root = np - 1;
    if (myrank == root)
        bc_fill(bc[0], 77);
    else
        memset(bc[0], 0, sizeof(int) * NBC);
    MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(rs, rr, NRED, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    MPI_Ibcast(bc[0], NBC, MPI_INT, root, MPI_COMM_WORLD, &req[2]);
    MPI_Ialltoallv(x.sbuf, x.sc, x.sd, x.strided, x.rbuf, x.rc, x.rd, MPI_DOUBLE,
                   MPI_COMM_WORLD, &req[3]);
    int done[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        int idx = -1;
        acc ^= work(k); /* a little work between completions */
        MPI_Waitany(4, req, &idx, MPI_STATUS_IGNORE);
        if (idx < 0 || idx > 3 || done[idx]++) {
            fail(__LINE__, "MPI_Waitany returned index %d", idx);
            break;
        }
    }
    red_check(rr, 5, "concurrent Iallreduce");
    {
        int want[NBC];
        bc_fill(want, 77);
        CHECK(memcmp(bc[0], want, sizeof want) == 0, "concurrent Ibcast: wrong data");
    }
    a2a_check(&x, "concurrent");

    /* 5. persistent collective loop */
#if MPI_VERSION >= 4
    MPI_Allreduce_init(rs, rr, NRED, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
#endif
    for (int it = 0; it < 12; it++) {
        red_fill(rs, it * 3);
#if MPI_VERSION >= 4
        MPI_Start(&req[0]);
#else
        MPI_Iallreduce(rs, rr, NRED, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]);
#endif
        acc = 0;
        for (int c = 0, flag = 0; c < 8; c++) {
            acc ^= work(c);
            if (!flag)
                MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        }
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        CHECK(acc == expected_work(8), "local work corrupted");
        red_check(rr, it * 3, "persistent Allreduce");
    }
#if MPI_VERSION >= 4
    CHECK(req[0] != MPI_REQUEST_NULL, "persistent request freed by MPI_Wait");
    MPI_Request_free(&req[0]);
#endif

    a2a_free(&x);
    for (int r = 0; r < np; r++)
        free(bc[r]);
    free(bc);
    free(req);
    free(rs);
    free(rr);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
