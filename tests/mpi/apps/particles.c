/* particles.c - structs on the wire, the textbook particle example: a C struct described with
 * MPI_Get_address displacements and MPI_Type_create_struct, resized to sizeof(struct) with
 * MPI_Type_create_resized so arrays of it work; rank 0 broadcasts the particle set (MPI_Bcast),
 * scatters ownership (MPI_Scatterv), every rank moves its particles, and rank 0 collects them with
 * MPI_Gatherv. A "view" type picking only position and id out of the full struct is gathered into
 * an array of a different, packed struct (same type signature, other layout). Then a header plus
 * particles are sent as one MPI_PACKED buffer (MPI_Pack_size, MPI_Pack, MPI_Bcast, MPI_Unpack),
 * and a selection of particles (MPI_Type_create_indexed_block of the struct type) is broadcast
 * from the root into plain arrays on the other ranks. Everything is checked field by field. Any
 * number of ranks. */
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
    struct particle p;
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
