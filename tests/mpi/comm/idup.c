/* idup.c - MPI_Comm_idup / MPI_Comm_idup_with_info are nonblocking: a rank that started one
 * goes on and may wait for a rank that has not started it yet (the pattern that deadlocked
 * when the agreement was blocking), on intra- and intercommunicators; many idups outstanding
 * on one parent and on overlapping parents; blocking constructors (dup, split) run while
 * idups are outstanding; attributes, hints, error handler and topology as MPI_Comm_dup gives
 * them; MPI_Test / Waitany / Request_free on the request; context ids neither clash nor leak. */
#include "mpitest.h"

/* Every member adds its rank on c: the sum must be the group's. */
static void check_works(MPI_Comm c, const char *what)
{
    int rank, size, sum = -1;
    MT_MPI(MPI_Comm_rank(c, &rank));
    MT_MPI(MPI_Comm_size(c, &size));
    MT_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == size * (size - 1) / 2, "%s: rank sum %d, expected %d", what, sum,
             size * (size - 1) / 2);
}

/* Messages on a and b do not mix: a message sent on a first is not received on b (a shared
 * context would deliver it first: same source, same tag). */
static void check_isolated(MPI_Comm a, MPI_Comm b, const char *what)
{
    int rank, size;
    MT_MPI(MPI_Comm_rank(a, &rank));
    MT_MPI(MPI_Comm_size(a, &size));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int va = 1, vb = 2, got = 0;
    MPI_Request req[2];
    MT_MPI(MPI_Isend(&va, 1, MPI_INT, right, 7, a, &req[0]));
    MT_MPI(MPI_Isend(&vb, 1, MPI_INT, right, 7, b, &req[1]));
    MT_MPI(MPI_Recv(&got, 1, MPI_INT, left, 7, b, MPI_STATUS_IGNORE));
    MT_CHECK(got == 2, "%s: received %d on the second communicator, expected 2", what, got);
    MT_MPI(MPI_Recv(&got, 1, MPI_INT, left, 7, a, MPI_STATUS_IGNORE));
    MT_CHECK(got == 1, "%s: received %d on the first communicator, expected 1", what, got);
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
}

/* Rank 0 starts the idup and then waits for the others, which first send (synchronously,
 * so they cannot go on before rank 0 receives) and only then start it: rank 0 must not
 * block in MPI_Comm_idup. Then the converse (MPICH's comm/comm_idup). */
static void test_late_members(void)
{
    MPI_Comm c;
    MPI_Request req;
    int v = mt_rank;
    if (mt_rank == 0) {
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        for (int i = 1; i < mt_size; i++) {
            MT_MPI(MPI_Recv(&v, 1, MPI_INT, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_CHECK_INT(i, v, "message from a rank that had not started the idup");
        }
    } else {
        MT_MPI(MPI_Ssend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    }
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(req == MPI_REQUEST_NULL, "request not MPI_REQUEST_NULL after MPI_Wait");
    check_works(c, "idup before the others started");
    check_isolated(c, MPI_COMM_WORLD, "idup vs its parent");
    MT_MPI(MPI_Comm_free(&c));

    if (mt_rank == 0) {
        for (int i = 1; i < mt_size; i++)
            MT_MPI(MPI_Recv(&v, 1, MPI_INT, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    } else {
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
        MT_MPI(MPI_Ssend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
    }
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_works(c, "idup started last by rank 0");
    MT_MPI(MPI_Comm_free(&c));
}

enum { MANY = 64 };

/* MANY idups outstanding at once on two parents (alternating), completed by one Waitall. */
static void test_many_outstanding(void)
{
    MPI_Comm parent2, c[MANY];
    MPI_Request req[MANY];
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent2));
    for (int i = 0; i < MANY; i++)
        MT_MPI(MPI_Comm_idup(i % 2 ? parent2 : MPI_COMM_WORLD, &c[i], &req[i]));
    MT_MPI(MPI_Waitall(MANY, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < MANY; i++) {
        int result = -1;
        MT_MPI(MPI_Comm_compare(c[i], MPI_COMM_WORLD, &result));
        MT_CHECK_INT(MPI_CONGRUENT, result, "idup compared with its parent's group");
        for (int j = 0; j < i; j++)
            MT_CHECK(c[i] != c[j], "idups %d and %d returned the same handle", i, j);
    }
    /* one message on every communicator, all outstanding at once, each received with
     * MPI_ANY_TAG in reverse order: a shared context would deliver the wrong value */
    int out[MANY], in[MANY];
    MPI_Request sends[MANY];
    for (int i = 0; i < MANY; i++) {
        out[i] = i;
        MT_MPI(MPI_Isend(&out[i], 1, MPI_INT, mt_right(), 0, c[i], &sends[i]));
    }
    for (int i = MANY - 1; i >= 0; i--) {
        in[i] = -1;
        MT_MPI(MPI_Recv(&in[i], 1, MPI_INT, mt_left(), MPI_ANY_TAG, c[i], MPI_STATUS_IGNORE));
        MT_CHECK(in[i] == i, "communicator %d received %d", i, in[i]);
    }
    MT_MPI(MPI_Waitall(MANY, sends, MPI_STATUSES_IGNORE));
    for (int i = 0; i < MANY; i++) {
        check_works(c[i], "one of many idups");
        MT_MPI(MPI_Comm_free(&c[i]));
    }
    MT_MPI(MPI_Comm_free(&parent2));
}

/* Blocking constructors run while an idup is outstanding (they must still find context ids,
 * and not the ones the idup offered), and an idup on another communicator starts before or
 * after a blocking split depending on the rank. */
static void test_blocking_meanwhile(void)
{
    MPI_Comm other, c_idup, c_dup, c_split, c_idup2;
    MPI_Request req[2];
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c_idup, &req[0]));
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c_dup));
    if (mt_rank % 2) {
        MT_MPI(MPI_Comm_idup(other, &c_idup2, &req[1]));
        MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &c_split));
    } else {
        MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &c_split));
        MT_MPI(MPI_Comm_idup(other, &c_idup2, &req[1]));
    }
    check_works(c_dup, "blocking dup made while an idup was outstanding");
    check_works(c_split, "split made while an idup was outstanding");
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    check_works(c_idup, "idup outstanding during a blocking dup");
    check_works(c_idup2, "idup started around a blocking split");
    check_isolated(c_idup, c_dup, "idup vs the dup made meanwhile");
    check_isolated(c_dup, c_idup, "dup vs the idup outstanding meanwhile");
    check_isolated(c_idup2, c_idup, "two idups");
    int rank = -1;
    MT_MPI(MPI_Comm_rank(c_split, &rank));
    MT_CHECK_INT(mt_size - 1 - mt_rank, rank, "rank in the split made meanwhile");
    MT_MPI(MPI_Comm_free(&c_idup));
    MT_MPI(MPI_Comm_free(&c_idup2));
    MT_MPI(MPI_Comm_free(&c_dup));
    MT_MPI(MPI_Comm_free(&c_split));
    MT_MPI(MPI_Comm_free(&other));
}

/* Each rank i is in pair communicators {i, i+1} and {i-1, i}; every rank starts the idup of
 * its first pair, then of its second: the idups overlap across the ring (blocking dups in
 * this order would deadlock). MPICH's comm/comm_idup_overlap, at any size. */
static void test_overlapping_parents(void)
{
    MPI_Comm first = MPI_COMM_NULL, second = MPI_COMM_NULL, tmp, dup[2];
    MPI_Request req[2];
    for (int i = 0; i < mt_size; i++) {
        int color = mt_rank == i || mt_rank == (i + 1) % mt_size ? 0 : MPI_UNDEFINED;
        MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, mt_rank == i ? 0 : 1, &tmp));
        if (mt_rank == i)
            first = tmp;
        else if (mt_rank == (i + 1) % mt_size)
            second = tmp;
    }
    MT_MPI(MPI_Comm_idup(first, &dup[0], &req[0]));
    MT_MPI(MPI_Comm_idup(second, &dup[1], &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    /* rank 0's first pair is rank 1's second: both checked at once, nonblocking */
    int one = 1, sums[2] = {0, 0};
    for (int i = 0; i < 2; i++)
        MT_MPI(MPI_Iallreduce(&one, &sums[i], 1, MPI_INT, MPI_SUM, dup[i], &req[i]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    MT_CHECK(sums[0] == 2 && sums[1] == 2, "pair idups: sizes %d and %d", sums[0], sums[1]);
    int got[2] = {-1, -1}, world[2] = {mt_rank, mt_rank};
    MPI_Request xreq[4];
    for (int i = 0; i < 2; i++) { /* the partner is rank 1 - mine in each pair */
        int me;
        MT_MPI(MPI_Comm_rank(dup[i], &me));
        MT_MPI(MPI_Irecv(&got[i], 1, MPI_INT, 1 - me, 0, dup[i], &xreq[2 * i]));
        MT_MPI(MPI_Isend(&world[i], 1, MPI_INT, 1 - me, 0, dup[i], &xreq[2 * i + 1]));
    }
    MT_MPI(MPI_Waitall(4, xreq, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(mt_right(), got[0], "partner in the idup of the first pair");
    MT_CHECK_INT(mt_left(), got[1], "partner in the idup of the second pair");
    for (int i = 0; i < 2; i++)
        MT_MPI(MPI_Comm_free(&dup[i]));
    MT_MPI(MPI_Comm_free(&first));
    MT_MPI(MPI_Comm_free(&second));
}

/* Intercommunicator of the even and the odd world ranks (leaders: world 0 and 1). */
static MPI_Comm make_intercomm(MPI_Comm *local)
{
    MPI_Comm ic;
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, local));
    MT_MPI(MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, mt_rank % 2 ? 0 : 1, 99, &ic));
    return ic;
}

/* The late-member pattern on an intercommunicator: each leader first receives from the
 * other group's non-leaders, which have started the idup; both groups do it. */
static void test_intercomm(void)
{
    MPI_Comm local, stagger = MPI_COMM_NULL, ic = make_intercomm(&local), c[4];
    MPI_Request req[4];
    int lrank, lsize, rsize, v = mt_rank;
    MT_MPI(MPI_Comm_rank(ic, &lrank));
    MT_MPI(MPI_Comm_size(ic, &lsize));
    MT_MPI(MPI_Comm_remote_size(ic, &rsize));
    if (mt_rank % 2) /* one group uses one more context id than the other */
        MT_MPI(MPI_Comm_dup(local, &stagger));
    if (lrank == 0) {
        for (int i = 1; i < rsize; i++)
            MT_MPI(MPI_Recv(&v, 1, MPI_INT, i, 0, ic, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Comm_idup(ic, &c[0], &req[0]));
    } else {
        MT_MPI(MPI_Comm_idup(ic, &c[0], &req[0]));
        MT_MPI(MPI_Ssend(&v, 1, MPI_INT, 0, 0, ic));
    }
    /* three more outstanding on the same intercommunicator */
    for (int i = 1; i < 4; i++)
        MT_MPI(MPI_Comm_idup(ic, &c[i], &req[i]));
    MT_MPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 4; i++) {
        int flag = 0, n = -1, result = -1;
        MT_MPI(MPI_Comm_test_inter(c[i], &flag));
        MT_CHECK(flag, "idup of an intercommunicator is not one");
        MT_MPI(MPI_Comm_remote_size(c[i], &n));
        MT_CHECK_INT(rsize, n, "remote size of the idup");
        MT_MPI(MPI_Comm_size(c[i], &n));
        MT_CHECK_INT(lsize, n, "local size of the idup");
        MT_MPI(MPI_Comm_compare(c[i], ic, &result));
        MT_CHECK_INT(MPI_CONGRUENT, result, "idup compared with its intercommunicator");
        /* local rank r talks to remote rank r (when there is one): the world rank comes back */
        if (lrank < rsize) {
            int got = -1;
            MT_MPI(MPI_Sendrecv(&mt_rank, 1, MPI_INT, lrank, i, &got, 1, MPI_INT, lrank, i,
                                c[i], MPI_STATUS_IGNORE));
            MT_CHECK(got == 2 * lrank + (mt_rank % 2 ? 0 : 1),
                     "idup %d: remote rank %d is world rank %d", i, lrank, got);
        }
    }
    for (int i = 0; i < 4; i++)
        MT_MPI(MPI_Comm_free(&c[i]));
    if (stagger != MPI_COMM_NULL)
        MT_MPI(MPI_Comm_free(&stagger));
    MT_MPI(MPI_Comm_free(&ic));
    MT_MPI(MPI_Comm_free(&local));
}

static int copies;

static int copy_plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

/* What MPI_Comm_dup would give: attributes through their copy callbacks, the parent's hints
 * (or the info given, freed by the caller before completion), error handler and topology. */
static void test_same_as_dup(void)
{
    int k_user, k_null;
    MT_MPI(MPI_Comm_create_keyval(copy_plus_one, MPI_COMM_NULL_DELETE_FN, &k_user, NULL));
    MT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_null,
                                  NULL));
    int dims[1] = {mt_size}, periods[1] = {1};
    MPI_Comm cart, c, d;
    MT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    MT_MPI(MPI_Comm_set_attr(cart, k_user, (void *)(intptr_t)41));
    MT_MPI(MPI_Comm_set_attr(cart, k_null, (void *)(intptr_t)7));
    MT_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    MPI_Info hints;
    MT_MPI(MPI_Info_create(&hints));
    MT_MPI(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
    MT_MPI(MPI_Comm_set_info(cart, hints));
    MT_MPI(MPI_Info_free(&hints));

    MPI_Request req[2];
    copies = 0;
    MT_MPI(MPI_Comm_idup(cart, &c, &req[0]));
    MPI_Info info;
    MT_MPI(MPI_Info_create(&info));
    MT_MPI(MPI_Info_set(info, "mpi_assert_exact_length", "true"));
    MT_MPI(MPI_Comm_idup_with_info(cart, info, &d, &req[1]));
    MT_MPI(MPI_Info_free(&info)); /* before completion: the idup keeps its own copy */
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(2, copies, "copy callback calls for two idups");

    MPI_Comm made[2] = {c, d};
    for (int i = 0; i < 2; i++) {
        void *value = NULL;
        int flag = -1, topo = -1, got_dims[1] = {0}, got_periods[1] = {0}, coords[1] = {-1};
        MT_MPI(MPI_Comm_get_attr(made[i], k_user, &value, &flag));
        MT_CHECK(flag && (intptr_t)value == 42, "copied attribute: flag %d value %ld", flag,
                 (long)(intptr_t)value);
        MT_MPI(MPI_Comm_get_attr(made[i], k_null, &value, &flag));
        MT_CHECK(!flag, "MPI_COMM_NULL_COPY_FN attribute present on the idup");
        MT_MPI(MPI_Topo_test(made[i], &topo));
        MT_CHECK_INT(MPI_CART, topo, "topology of the idup of a Cartesian communicator");
        MT_MPI(MPI_Cart_get(made[i], 1, got_dims, got_periods, coords));
        MT_CHECK(got_dims[0] == mt_size && got_periods[0] == 1 && coords[0] == mt_rank,
                 "Cartesian layout of the idup: dims %d periods %d coords %d", got_dims[0],
                 got_periods[0], coords[0]);
        MPI_Errhandler eh;
        MT_MPI(MPI_Comm_get_errhandler(made[i], &eh));
        MT_CHECK(eh == MPI_ERRORS_RETURN, "error handler of the idup is not the parent's");
        MT_MPI(MPI_Errhandler_free(&eh));
    }
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info got;
    MT_MPI(MPI_Comm_get_info(c, &got));
    MT_MPI(MPI_Info_get(got, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, value, &flag));
    MT_CHECK(flag && strcmp(value, "true") == 0, "idup kept the parent's hint (flag %d)", flag);
    MT_MPI(MPI_Info_free(&got));
    MT_MPI(MPI_Comm_get_info(d, &got));
    MT_MPI(MPI_Info_get(got, "mpi_assert_exact_length", MPI_MAX_INFO_VAL, value, &flag));
    MT_CHECK(flag && strcmp(value, "true") == 0, "idup_with_info has the hint given (flag %d)",
             flag);
    MT_MPI(MPI_Info_get(got, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, value, &flag));
    MT_CHECK(!flag, "idup_with_info kept the parent's hint instead of the info given");
    MT_MPI(MPI_Info_free(&got));
    check_works(c, "idup of a Cartesian communicator");
    MT_MPI(MPI_Comm_free(&c));
    MT_MPI(MPI_Comm_free(&d));
    MT_MPI(MPI_Comm_free(&cart));
    MT_MPI(MPI_Comm_free_keyval(&k_user));
    MT_MPI(MPI_Comm_free_keyval(&k_null));
}

/* MPI_Test until done, MPI_Waitany over three, MPI_Request_free (the communicator appears at
 * completion, which progress brings), an idup of a communicator freed before completion, and
 * of MPI_COMM_SELF. */
static void test_request_calls(void)
{
    MPI_Comm c, many[3], parent;
    MPI_Request req, reqs[3];
    int flag = 0;
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    while (!flag)
        MT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    check_works(c, "idup completed by MPI_Test");
    MT_MPI(MPI_Comm_free(&c));

    for (int i = 0; i < 3; i++)
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &many[i], &reqs[i]));
    for (int n = 0; n < 3; n++) {
        int index = -1;
        MT_MPI(MPI_Waitany(3, reqs, &index, MPI_STATUS_IGNORE));
        MT_CHECK(index >= 0 && index < 3 && reqs[index] == MPI_REQUEST_NULL,
                 "MPI_Waitany index %d", index);
    }
    for (int i = 0; i < 3; i++) {
        check_works(many[i], "idup completed by MPI_Waitany");
        MT_MPI(MPI_Comm_free(&many[i]));
    }

    volatile MPI_Comm freed = MPI_COMM_NULL;
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, (MPI_Comm *)&freed, &req));
    MT_MPI(MPI_Request_free(&req));
    MT_CHECK(req == MPI_REQUEST_NULL, "request not MPI_REQUEST_NULL after MPI_Request_free");
    for (int polls = 0; freed == MPI_COMM_NULL; polls++) {
        int pending;
        MT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending,
                          MPI_STATUS_IGNORE));
        MT_ASSERT(polls < 100000000, "freed idup request never completed");
    }
    c = freed;
    check_works(c, "idup whose request was freed");
    MT_MPI(MPI_Comm_free(&c));

    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    MT_MPI(MPI_Comm_idup(parent, &c, &req));
    MT_MPI(MPI_Comm_free(&parent)); /* pending operations on it still complete */
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_works(c, "idup of a communicator freed before completion");
    MT_MPI(MPI_Comm_free(&c));

    MT_MPI(MPI_Comm_idup(MPI_COMM_SELF, &c, &req));
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_works(c, "idup of MPI_COMM_SELF");
    MT_MPI(MPI_Comm_free(&c));
}

/* Many more idups than there are context ids, a few outstanding at a time, with a blocking
 * dup among them: a reservation or an id that leaked would run the map dry. */
static void test_no_leak(void)
{
    enum { AT_ONCE = 4, ROUNDS = 2500 };
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm c[AT_ONCE], d;
        MPI_Request req[AT_ONCE];
        for (int i = 0; i < AT_ONCE; i++)
            MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &req[i]));
        MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MT_MPI(MPI_Waitall(AT_ONCE, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < AT_ONCE; i++)
            MT_MPI(MPI_Comm_free(&c[i]));
        MT_MPI(MPI_Comm_free(&d));
    }
    MPI_Comm last;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &last));
    check_works(last, "dup after many idups");
    MT_MPI(MPI_Comm_free(&last));
}

/* Ranks whose maps differ (each holds a different number of idups of MPI_COMM_SELF, which
 * take pairs in the same region as idups do) still agree; and once more communicators are
 * alive than the region holds, idups and blocking dups still find pairs elsewhere. */
static void test_crowded_maps(void)
{
    enum { SELF_MAX = 4200, WORLD_N = 32 };
    MPI_Comm *self = mt_malloc(sizeof(MPI_Comm) * SELF_MAX);
    MPI_Request *req = mt_malloc(sizeof(MPI_Request) * SELF_MAX);
    int nself = 7 + 23 * mt_rank;
    for (int i = 0; i < nself; i++)
        MT_MPI(MPI_Comm_idup(MPI_COMM_SELF, &self[i], &req[i]));
    MT_MPI(MPI_Waitall(nself, req, MPI_STATUSES_IGNORE));
    MPI_Comm world[WORLD_N];
    for (int i = 0; i < WORLD_N; i++)
        MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &world[i], &req[i]));
    MT_MPI(MPI_Waitall(WORLD_N, req, MPI_STATUSES_IGNORE));
    for (int i = 1; i < WORLD_N; i++)
        check_isolated(world[i - 1], world[i], "idups on ranks with different maps");
    for (int i = 0; i < WORLD_N; i++)
        MT_MPI(MPI_Comm_free(&world[i]));

    /* fill the idups' region on every rank (4096 pairs), then go on past it */
    for (int i = nself; i < SELF_MAX; i++)
        MT_MPI(MPI_Comm_idup(MPI_COMM_SELF, &self[i], &req[i - nself]));
    MT_MPI(MPI_Waitall(SELF_MAX - nself, req, MPI_STATUSES_IGNORE));
    MPI_Comm d, c[2];
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c[0], &req[0]));
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c[1], &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    check_isolated(c[0], c[1], "idups with the idup region full");
    check_isolated(c[1], d, "idup and dup with the idup region full");
    check_works(c[0], "idup with the idup region full");
    MT_MPI(MPI_Comm_free(&c[0]));
    MT_MPI(MPI_Comm_free(&c[1]));
    MT_MPI(MPI_Comm_free(&d));
    for (int i = 0; i < SELF_MAX; i++)
        MT_MPI(MPI_Comm_free(&self[i]));
    free(self);
    free(req);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    test_late_members();
    test_many_outstanding();
    test_blocking_meanwhile();
    test_overlapping_parents();
    test_intercomm();
    test_same_as_dup();
    test_request_calls();
    test_no_leak();
    test_crowded_maps();
    return mt_finish();
}
