/* particles.c - structs on the wire, the textbook particle example: a C struct described with
 * MPI_Get_address displacements and MPI_Type_create_struct, resized to sizeof(struct) with
 * MPI_Type_create_resized so arrays of it work; rank 0 broadcasts the particle set (MPI_Bcast),
 * scatters ownership (MPI_Scatterv), every rank moves its particles, and rank 0 collects them with
 * MPI_Gatherv. A "view" type picking only position and id out of the full struct is gathered into
 * an array of a different, packed struct (same type signature, other layout). Then a header plus
 * particles are sent as one MPI_PACKED buffer (MPI_Pack_size, MPI_Pack, MPI_Bcast, MPI_Unpack),
 * and a selection of particles (MPI_Type_create_indexed_block of the struct type) is broadcast
 * from the root into plain arrays on the other ranks. User-defined reductions (MPI_Op_create): the
 * heaviest particle per slot on the struct type (MPI_Allreduce), and a non-commutative 2x2 matrix
 * product whose rank order MPI_Reduce, MPI_Allreduce and MPI_Scan must respect. Everything is
 * checked field by field. Any number of ranks. */
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL particles.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NPART 2003

struct particle {
    char species;       /* padding follows */
    double pos[3];
    float mass;
    int id;
    double vel[3];
    short charge;       /* trailing padding */
};

struct posid { /* what the view type delivers, laid out differently */
    int id;
    double pos[3];
};

static void make(struct particle *p, int k)
{
    memset(p, 0, sizeof *p);
    p->species = (char)('A' + k % 5);
    for (int d = 0; d < 3; d++) {
        p->pos[d] = k * 1.5 + d * 0.25;
        p->vel[d] = (k % 7) - d * 0.5;
    }
    p->mass = 1.0f + (float)k / 8.0f;
    p->id = 1000 + k;
    p->charge = (short)(k % 3 - 1);
}

static void move(struct particle *p, double dt)
{
    for (int d = 0; d < 3; d++)
        p->pos[d] += dt * p->vel[d];
    p->charge = (short)-p->charge;
}

static int same(const struct particle *a, const struct particle *b)
{
    return a->species == b->species && a->mass == b->mass && a->id == b->id &&
           a->charge == b->charge && !memcmp(a->pos, b->pos, sizeof a->pos) &&
           !memcmp(a->vel, b->vel, sizeof a->vel);
}

static MPI_Datatype particle_type(void)
{
    struct particle p = {0}; /* only its member addresses are used */
    int len[6] = {1, 3, 1, 1, 3, 1};
    MPI_Datatype types[6] = {MPI_CHAR, MPI_DOUBLE, MPI_FLOAT, MPI_INT, MPI_DOUBLE, MPI_SHORT};
    MPI_Aint base, disp[6];
    MPI_Get_address(&p, &base);
    MPI_Get_address(&p.species, &disp[0]);
    MPI_Get_address(&p.pos[0], &disp[1]);
    MPI_Get_address(&p.mass, &disp[2]);
    MPI_Get_address(&p.id, &disp[3]);
    MPI_Get_address(&p.vel[0], &disp[4]);
    MPI_Get_address(&p.charge, &disp[5]);
    for (int k = 0; k < 6; k++)
        disp[k] = MPI_Aint_diff(disp[k], base);
    MPI_Datatype raw, t;
    MPI_Type_create_struct(6, len, disp, types, &raw);
    MPI_Type_create_resized(raw, 0, (MPI_Aint)sizeof p, &t);
    MPI_Type_free(&raw);
    MPI_Type_commit(&t);
    return t;
}

/* User reduction on the struct type: keep the heavier particle (ties: smaller id). */
static void heaviest(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const struct particle *a = in;
    struct particle *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++)
        if (a[i].mass > b[i].mass || (a[i].mass == b[i].mass && a[i].id < b[i].id))
            b[i] = a[i];
}

/* Non-commutative user reduction: 2x2 matrix product modulo a prime, inout = in * inout. */
#define PRIME 1000003LL
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const long long *a = in;
    long long *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        long long r[4] = {(a[0] * b[0] + a[1] * b[2]) % PRIME, (a[0] * b[1] + a[1] * b[3]) % PRIME,
                          (a[2] * b[0] + a[3] * b[2]) % PRIME, (a[2] * b[1] + a[3] * b[3]) % PRIME};
        memcpy(b, r, sizeof r);
    }
}
static void rank_matrix(int r, int slot, long long m[4])
{
    m[0] = 1 + r;
    m[1] = 2 + slot;
    m[2] = 3 * r + slot;
    m[3] = 5 + r * slot;
}

static void user_reductions(MPI_Datatype ptype, int np)
{
    enum { SLOTS = 1001 }; /* large enough for segmented algorithms */
    struct particle mineh[SLOTS], best[SLOTS], ref;
    MPI_Op op;
    for (int s = 0; s < SLOTS; s++) {
        make(&mineh[s], (myrank * 7 + s * 13) % NPART);
        mineh[s].mass = (float)((myrank * 3 + s) % 4); /* ties between ranks */
    }
    MPI_Op_create(heaviest, 1, &op);
    MPI_Allreduce(mineh, best, SLOTS, ptype, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    for (int s = 0; s < SLOTS; s++) {
        struct particle want;
        for (int r = 0; r < np; r++) {
            make(&ref, (r * 7 + s * 13) % NPART);
            ref.mass = (float)((r * 3 + s) % 4);
            if (r == 0 || ref.mass > want.mass || (ref.mass == want.mass && ref.id < want.id))
                want = ref;
        }
        CHECK(same(&best[s], &want), "heaviest in slot %d: id %d mass %g, expected id %d mass "
              "%g", s, best[s].id, best[s].mass, want.id, want.mass);
    }

    /* ordered product M_0 * M_1 * ... with Reduce (root np-1), Allreduce and Scan */
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &op);
    long long m[SLOTS][4], red[SLOTS][4], all[SLOTS][4], scan[SLOTS][4];
    for (int s = 0; s < SLOTS; s++)
        rank_matrix(myrank, s, m[s]);
    MPI_Reduce(m, red, SLOTS, mat, op, np - 1, MPI_COMM_WORLD);
    MPI_Allreduce(m, all, SLOTS, mat, op, MPI_COMM_WORLD);
    MPI_Scan(m, scan, SLOTS, mat, op, MPI_COMM_WORLD);
    for (int s = 0; s < SLOTS; s++) {
        long long want[4], prefix[4] = {0, 0, 0, 0};
        rank_matrix(0, s, want);
        if (myrank == 0)
            memcpy(prefix, want, sizeof want);
        for (int r = 1; r < np; r++) {
            long long next[4];
            int one = 1;
            rank_matrix(r, s, next);
            matmul(want, next, &one, &mat); /* next = want * next */
            memcpy(want, next, sizeof want);
            if (r == myrank)
                memcpy(prefix, want, sizeof want);
        }
        CHECK(!memcmp(all[s], want, sizeof want), "ordered Allreduce slot %d: [%lld %lld %lld "
              "%lld], expected [%lld %lld %lld %lld]", s, all[s][0], all[s][1], all[s][2],
              all[s][3], want[0], want[1], want[2], want[3]);
        CHECK(myrank != np - 1 || !memcmp(red[s], want, sizeof want),
              "ordered Reduce slot %d differs", s);
        CHECK(!memcmp(scan[s], prefix, sizeof prefix), "ordered Scan slot %d: [%lld %lld %lld "
              "%lld], expected [%lld %lld %lld %lld]", s, scan[s][0], scan[s][1], scan[s][2],
              scan[s][3], prefix[0], prefix[1], prefix[2], prefix[3]);
    }
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Datatype ptype = particle_type();
    {
        MPI_Aint lb, ext;
        int size;
        MPI_Type_get_extent(ptype, &lb, &ext);
        MPI_Type_size(ptype, &size);
        CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct particle), "particle type lb %ld extent"
              " %ld, sizeof %zu", (long)lb, (long)ext, sizeof(struct particle));
        CHECK(size == (int)(1 + 6 * sizeof(double) + sizeof(float) + sizeof(int) +
                            sizeof(short)), "particle type size %d", size);
    }

    /* 1. broadcast the whole set */
    struct particle *all = malloc(sizeof(struct particle) * NPART), ref;
    if (myrank == 0)
        for (int k = 0; k < NPART; k++)
            make(&all[k], k);
    else
        memset(all, 0xa5, sizeof(struct particle) * NPART);
    MPI_Bcast(all, NPART, ptype, 0, MPI_COMM_WORLD);
    for (int k = 0; k < NPART; k++) {
        make(&ref, k);
        if (!same(&all[k], &ref)) {
            fail(__LINE__, "broadcast particle %d differs (id %d)", k, all[k].id);
            break;
        }
    }

    /* 2. scatter ownership in uneven blocks, move, gather back */
    int *cnt = malloc(sizeof(int) * (size_t)np), *dsp = malloc(sizeof(int) * (size_t)np);
    for (int r = 0, off = 0; r < np; r++) {
        cnt[r] = NPART / np + (r < NPART % np);
        dsp[r] = off;
        off += cnt[r];
    }
    struct particle *mine = malloc(sizeof(struct particle) * (size_t)(cnt[myrank] + 1));
    MPI_Scatterv(all, cnt, dsp, ptype, mine, cnt[myrank], ptype, 0, MPI_COMM_WORLD);
    for (int k = 0; k < cnt[myrank]; k++) {
        make(&ref, dsp[myrank] + k);
        CHECK(same(&mine[k], &ref), "scattered particle %d differs", dsp[myrank] + k);
        move(&mine[k], 0.1);
    }
    struct particle *back = myrank == 0 ? calloc(NPART, sizeof(struct particle)) : NULL;
    MPI_Gatherv(mine, cnt[myrank], ptype, back, cnt, dsp, ptype, 0, MPI_COMM_WORLD);
    if (myrank == 0)
        for (int k = 0; k < NPART; k++) {
            make(&ref, k);
            move(&ref, 0.1);
            if (!same(&back[k], &ref)) {
                fail(__LINE__, "gathered particle %d differs (id %d)", k, back[k].id);
                break;
            }
        }

    /* 3. a view of (pos, id) gathered into a packed struct of another layout */
    MPI_Datatype view, view1, posid;
    {
        struct particle p;
        int len[2] = {3, 1};
        MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
        MPI_Aint base, disp[2];
        MPI_Get_address(&p, &base);
        MPI_Get_address(p.pos, &disp[0]);
        MPI_Get_address(&p.id, &disp[1]);
        disp[0] = MPI_Aint_diff(disp[0], base);
        disp[1] = MPI_Aint_diff(disp[1], base);
        MPI_Type_create_struct(2, len, disp, types, &view1);
        MPI_Type_create_resized(view1, 0, (MPI_Aint)sizeof p, &view);
        MPI_Type_commit(&view);
        int qlen[2] = {3, 1};
        MPI_Aint qd[2] = {offsetof(struct posid, pos), offsetof(struct posid, id)};
        MPI_Datatype qt[2] = {MPI_DOUBLE, MPI_INT}, qraw;
        MPI_Type_create_struct(2, qlen, qd, qt, &qraw);
        MPI_Type_create_resized(qraw, 0, (MPI_Aint)sizeof(struct posid), &posid);
        MPI_Type_commit(&posid);
        MPI_Type_free(&qraw);
    }
    struct posid *pi = myrank == 0 ? malloc(sizeof(struct posid) * NPART) : NULL;
    MPI_Gatherv(mine, cnt[myrank], view, pi, cnt, dsp, posid, 0, MPI_COMM_WORLD);
    if (myrank == 0)
        for (int k = 0; k < NPART; k++) {
            make(&ref, k);
            move(&ref, 0.1);
            if (pi[k].id != ref.id || memcmp(pi[k].pos, ref.pos, sizeof ref.pos)) {
                fail(__LINE__, "view of particle %d: id %d pos %g (expected %d, %g)", k,
                     pi[k].id, pi[k].pos[0], ref.id, ref.pos[0]);
                break;
            }
        }

    /* 4. header + particles in one packed message */
    int psize, hsize, pos = 0;
    MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &hsize);
    MPI_Pack_size(NPART, ptype, MPI_COMM_WORLD, &psize);
    char *packbuf = malloc((size_t)(hsize + psize));
    int header[2] = {NPART, 4242};
    if (myrank == 0) {
        MPI_Pack(header, 2, MPI_INT, packbuf, hsize + psize, &pos, MPI_COMM_WORLD);
        MPI_Pack(back, NPART, ptype, packbuf, hsize + psize, &pos, MPI_COMM_WORLD);
    }
    MPI_Bcast(&pos, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(packbuf, pos, MPI_PACKED, 0, MPI_COMM_WORLD);
    {
        int h[2] = {0, 0}, upos = 0;
        struct particle *un = calloc(NPART, sizeof(struct particle));
        MPI_Unpack(packbuf, pos, &upos, h, 2, MPI_INT, MPI_COMM_WORLD);
        CHECK(h[0] == NPART && h[1] == 4242, "packed header %d %d", h[0], h[1]);
        MPI_Unpack(packbuf, pos, &upos, un, NPART, ptype, MPI_COMM_WORLD);
        CHECK(upos == pos, "unpacked %d of %d bytes", upos, pos);
        for (int k = 0; k < NPART; k++) {
            make(&ref, k);
            move(&ref, 0.1);
            if (!same(&un[k], &ref)) {
                fail(__LINE__, "unpacked particle %d differs (id %d)", k, un[k].id);
                break;
            }
        }
        free(un);
    }

    /* 5. every third particle, picked by an indexed-block type at the root only */
    {
        int nsel = (NPART + 2) / 3, *idx = malloc(sizeof(int) * (size_t)nsel);
        for (int k = 0; k < nsel; k++)
            idx[k] = 3 * (nsel - 1 - k); /* in reverse order, as a permutation would be */
        MPI_Datatype sel;
        MPI_Type_create_indexed_block(nsel, 1, idx, ptype, &sel);
        MPI_Type_commit(&sel);
        struct particle *got = calloc((size_t)nsel, sizeof(struct particle));
        if (myrank == 0)
            MPI_Bcast(back, 1, sel, 0, MPI_COMM_WORLD);
        else
            MPI_Bcast(got, nsel, ptype, 0, MPI_COMM_WORLD);
        for (int k = 0; myrank != 0 && k < nsel; k++) {
            make(&ref, idx[k]);
            move(&ref, 0.1);
            if (!same(&got[k], &ref)) {
                fail(__LINE__, "selected particle %d (index %d) differs (id %d)", k, idx[k],
                     got[k].id);
                break;
            }
        }
        MPI_Type_free(&sel);
        free(got);
        free(idx);
    }

    /* 6. user-defined reductions on the struct type and a non-commutative one */
    user_reductions(ptype, np);

    MPI_Type_free(&view1);
    MPI_Type_free(&view);
    MPI_Type_free(&posid);
    MPI_Type_free(&ptype);
    free(packbuf);
    free(pi);
    free(all);
    free(back);
    free(mine);
    free(cnt);
    free(dsp);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
