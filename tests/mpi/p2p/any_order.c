/* any_order: which of several completed requests MPI_Waitany / MPI_Testany return. The
 * standard lets them return any; nodempi returns the one that completed first, so a program
 * that processes completions one at a time sees each sender's messages in the order they were
 * matched (hpcc's RandomAccess relies on it: it stops at the last rank's FINISHED message).
 *  1. Two receives posted in slots 1 then 0 (slot 1 matches first), both completed before the
 *     call: Waitany and Testany return slot 1 first.
 *  2. The hpcc pattern: rank 0 keeps NSLOTS MPI_ANY_SOURCE receives posted, re-posting into the
 *     slot it just took; every other rank sends NUPDATES updates then one FINISHED. Processing
 *     with Testany (even rounds) or Waitany (odd rounds), rank 0 must see every update of a
 *     sender before its FINISHED, and stop with none outstanding.
 * The order is nodempi's promise, not the standard's (Open MPI 4.1 and MPICH 4.0 return the
 * lowest index and fail both parts): with another library only the values and counts are
 * checked. */
#include "../common/mpitest.h"

enum { NSLOTS = 4, NUPDATES = 40, ROUNDS = 6, TAG_UPDATE = 1, TAG_FINISHED = 2 };

static int ordered; /* the library promises completion order (nodempi) */

/* Both receives complete before any-completion is asked: the later-posted one in the lower
 * slot must not be returned first. */
static void two_slots(int use_test)
{
    const char *fn = use_test ? "MPI_Testany" : "MPI_Waitany";
    if (mt_rank == 1) {
        int first = 11, second = 22;
        MPI_Send(&first, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Send(&second, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else if (mt_rank == 0) {
        int value[2] = {0, 0};
        MPI_Request req[2];
        MPI_Irecv(&value[1], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
        MPI_Irecv(&value[0], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &req[0]);
        /* Progress until slot 0 (matched second) is complete: slot 1 then is too. */
        for (int done = 0; !done;)
            MPI_Request_get_status(req[0], &done, MPI_STATUS_IGNORE);
        int expect_slot[2] = {1, 0}, expect_tag[2] = {5, 6};
        for (int k = 0; k < 2; k++) {
            int idx = -1, flag = 0;
            MPI_Status st;
            if (use_test) {
                MPI_Testany(2, req, &idx, &flag, &st);
                MT_CHECK(flag, "%s: call %d found nothing complete", fn, k);
            } else {
                MPI_Waitany(2, req, &idx, &st);
            }
            if (!ordered) {
                MT_CHECK(idx == 0 || idx == 1, "%s: call %d returned slot %d", fn, k, idx);
                continue;
            }
            MT_CHECK(idx == expect_slot[k], "%s: call %d returned slot %d, want %d (the earlier "
                     "completed)", fn, k, idx, expect_slot[k]);
            if (idx == expect_slot[k])
                MT_CHECK(st.MPI_TAG == expect_tag[k], "%s: call %d tag %d, want %d", fn, k,
                         st.MPI_TAG, expect_tag[k]);
        }
        MT_CHECK(value[1] == 11 && value[0] == 22, "%s: values %d %d, want 11 22", fn, value[1],
                 value[0]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void hpcc_pattern(int round)
{
    int use_test = round % 2 == 0;
    const char *fn = use_test ? "MPI_Testany" : "MPI_Waitany";
    if (mt_rank != 0) {
        int msg[2];
        MPI_Request sends[NUPDATES + 1];
        for (int u = 0; u < NUPDATES; u++) {
            msg[0] = u;
            /* blocking or not, alternately: both go down the same ordered stream */
            if (u % 3 == 0) {
                MPI_Send(msg, 2, MPI_INT, 0, TAG_UPDATE, MPI_COMM_WORLD);
                sends[u] = MPI_REQUEST_NULL;
            } else {
                static int copies[NUPDATES][2];
                copies[u][0] = u;
                MPI_Isend(copies[u], 2, MPI_INT, 0, TAG_UPDATE, MPI_COMM_WORLD, &sends[u]);
            }
            if ((u + round + mt_rank) % 7 == 0)
                mt_sleep(20e-6);
        }
        msg[0] = NUPDATES;
        MPI_Isend(msg, 2, MPI_INT, 0, TAG_FINISHED, MPI_COMM_WORLD, &sends[NUPDATES]);
        MPI_Waitall(NUPDATES + 1, sends, MPI_STATUSES_IGNORE);
    } else {
        int buf[NSLOTS][2];
        MPI_Request req[NSLOTS];
        int *updates = calloc((size_t)mt_size, sizeof(int));
        int *finished = calloc((size_t)mt_size, sizeof(int));
        MT_ASSERT(updates && finished, "out of memory");
        for (int s = 0; s < NSLOTS; s++)
            MPI_Irecv(buf[s], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[s]);
        int senders_left = mt_size - 1;
        while (senders_left > 0) {
            int idx = -1, flag = 0;
            MPI_Status st;
            if (use_test) {
                MPI_Testany(NSLOTS, req, &idx, &flag, &st);
                if (!flag)
                    continue;
            } else {
                MPI_Waitany(NSLOTS, req, &idx, &st);
            }
            MT_ASSERT(idx >= 0 && idx < NSLOTS, "%s: index %d", fn, idx);
            int src = st.MPI_SOURCE;
            MT_ASSERT(src > 0 && src < mt_size, "%s: source %d", fn, src);
            if (!ordered) { /* count and let every slot drain */
                if (st.MPI_TAG == TAG_UPDATE)
                    updates[src]++;
                else if (!finished[src]++)
                    senders_left--;
                MPI_Irecv(buf[idx], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                          &req[idx]);
                continue;
            }
            MT_CHECK(!finished[src], "%s round %d: message (tag %d) from rank %d processed after "
                     "its FINISHED", fn, round, st.MPI_TAG, src);
            if (st.MPI_TAG == TAG_UPDATE) {
                MT_CHECK(buf[idx][0] == updates[src], "%s round %d: update %d from rank %d, want "
                         "%d", fn, round, buf[idx][0], src, updates[src]);
                updates[src]++;
            } else {
                MT_CHECK(updates[src] == NUPDATES, "%s round %d: rank %d FINISHED after %d of "
                         "%d updates", fn, round, src, updates[src], NUPDATES);
                finished[src] = 1;
                senders_left--;
            }
            MPI_Irecv(buf[idx], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                      &req[idx]);
        }
        /* hpcc's ending: what is still posted is cancelled; nothing may have matched it. */
        for (int s = 0; s < NSLOTS; s++) {
            if (!ordered) { /* updates completed after the last FINISHED are counted here */
                MPI_Status st;
                MPI_Cancel(&req[s]);
                MPI_Wait(&req[s], &st);
                int cancelled = 0;
                MPI_Test_cancelled(&st, &cancelled);
                if (!cancelled && st.MPI_TAG == TAG_UPDATE)
                    updates[st.MPI_SOURCE]++;
                continue;
            }
            MPI_Status st;
            MPI_Cancel(&req[s]);
            MPI_Wait(&req[s], &st);
            int cancelled = 0;
            MPI_Test_cancelled(&st, &cancelled);
            MT_CHECK(cancelled, "%s round %d: slot %d matched a message (source %d, tag %d) "
                     "after every FINISHED", fn, round, s, st.MPI_SOURCE, st.MPI_TAG);
        }
        for (int r = 1; r < mt_size && !ordered; r++)
            MT_CHECK(updates[r] == NUPDATES, "%s round %d: %d of %d updates from rank %d", fn,
                     round, updates[r], NUPDATES, r);
        free(updates);
        free(finished);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    ordered = mt_library_is("nodempi");
    two_slots(0);
    two_slots(1);
    for (int round = 0; round < ROUNDS; round++)
        hpcc_pattern(round);
    return mt_finish();
}
