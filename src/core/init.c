/* init.c - start and stop of the runtime behind MPI_Init/MPI_Finalize and the sessions of
 * MPI-4 (src/mpi/session.c): read the launcher's environment, attach the job segment (or run as
 * a singleton), start each layer bottom-up, and tear down top-down. The runtime is shared: the
 * world model and every open session hold it, the first holder starts it, the last one stops it.
 * The launcher watches shm_rank_block.state: INITIALIZED means "exiting now is a failure". */
#include "core/init.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/config.h"
#include "core/dpm.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/request.h"
#include "core/state.h"
#include "core/thread.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "shm/copy.h"
#include "shm/heap.h"
#include "shm/segment.h"

struct nodempi_state nodempi;
static pthread_t main_thread;

/* Context id reserved for the barrier inside MPI_Finalize (never handed to a communicator). */
#define FINALIZE_CONTEXT 0xfffffffeu

static int env_int(const char *name, int fallback)
{
    const char *text = getenv(name);
    return text && *text ? atoi(text) : fallback;
}

static int available_cores(void)
{
    int ncores = env_int("NODEMPI_NCORES", 0);
    if (ncores > 0)
        return ncores;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        return CPU_COUNT(&set);
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

static int attach_job(void)
{
    const char *job = getenv("NODEMPI_JOB");
    if (!job || !*job) { /* singleton: MPI_COMM_WORLD is this process alone */
        nodempi.world_rank = 0;
        nodempi.world_size = 1;
        return MPI_SUCCESS;
    }
    nodempi.world_rank = env_int("NODEMPI_RANK", -1);
    nodempi.world_size = env_int("NODEMPI_SIZE", 0);
    if (nodempi.world_rank < 0 || nodempi.world_size < 1 ||
        nodempi.world_rank >= nodempi.world_size) {
        fprintf(stderr, "nodempi: MPI_Init: bad NODEMPI_RANK/NODEMPI_SIZE in the environment\n");
        return MPI_ERR_OTHER;
    }
    char why[256];
    nodempi.segment = shm_segment_attach(job, nodempi.world_size, why, sizeof(why));
    if (!nodempi.segment) {
        fprintf(stderr, "nodempi: MPI_Init: %s\n", why);
        return MPI_ERR_OTHER;
    }
    struct shm_rank_block *me = shm_rank_block(nodempi.segment, nodempi.world_rank);
    shm_heap_publish(nodempi.segment, nodempi.world_rank);
    shm_heap_peers_attach(nodempi.segment);
    atomic_store_explicit(&me->pid, (int32_t)nodempi.pid, memory_order_relaxed);
    atomic_store_explicit(&me->state, SHM_RANK_INITIALIZED, memory_order_release);
    return MPI_SUCCESS;
}

/* The transport (segment mapping and p2p queues) is started once and kept until the process
 * exits: ring positions are private to each side (shm/ring.h) and restart at 0 in a fresh
 * p2p_init, which would re-read records of an earlier lap, so a runtime started again after a
 * full stop (a session after MPI_Finalize) reuses the running transport instead. The segment
 * file itself belongs to the launcher, which unlinks it when the job ends. */
static int transport_up;

static int transport_start(void)
{
    nodempi.pid = getpid();
    core_config_load_once();
    shm_copy_pieces = core_config.copy_pieces != CORE_SWITCH_OFF;
    if (gethostname(nodempi.processor_name, sizeof(nodempi.processor_name) - 1) != 0)
        strcpy(nodempi.processor_name, "localhost");
    int rc = attach_job();
    if (rc != MPI_SUCCESS)
        return rc;
    nodempi.cores = available_cores();
    nodempi.oversubscribed = nodempi.world_size > nodempi.cores;
    nodempi.job_oversubscribed = nodempi.oversubscribed;
    return MPI_SUCCESS;
}

static void set_rank_state(enum shm_rank_state state)
{
    if (nodempi.segment)
        atomic_store_explicit(&shm_rank_block(nodempi.segment, nodempi.world_rank)->state,
                              state, memory_order_release);
}

static int runtime_start(void)
{
    int rc;
    if (!transport_up && (rc = transport_start()) != MPI_SUCCESS)
        return rc;
    if ((rc = dt_init()) != MPI_SUCCESS || (rc = core_comm_init_predefined()) != MPI_SUCCESS)
        return rc;
    if (!transport_up && (rc = p2p_init()) != MPI_SUCCESS)
        return rc;
    transport_up = 1;
    set_rank_state(SHM_RANK_INITIALIZED);
    nodempi.initialized = 1;
    nodempi.finalized = 0;
    return MPI_SUCCESS;
}

int core_runtime_acquire(void)
{
    if (nodempi.runtime_users > 0) {
        nodempi.runtime_users++;
        return MPI_SUCCESS;
    }
    int rc = runtime_start();
    if (rc == MPI_SUCCESS)
        nodempi.runtime_users = 1;
    return rc;
}

/* The level a caller gets for the level it asks for: every level is supported, so the one
 * asked for (MPI 4.1 11.2.1: "provided = required if possible"); a value between two levels
 * gets the higher one.
 * MULTIPLE turns the big lock on for the rest of the process (core/thread.c); the levels below
 * need nothing, since only one thread at a time is in MPI. */
int core_thread_level_grant(int required)
{
    int level = required <= MPI_THREAD_SINGLE       ? MPI_THREAD_SINGLE
                : required <= MPI_THREAD_FUNNELED   ? MPI_THREAD_FUNNELED
                : required <= MPI_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
                                                    : MPI_THREAD_MULTIPLE;
    if (level == MPI_THREAD_MULTIPLE)
        core_thread_enable();
    return level;
}

/* mpiexec -initial-errhandler (MPI 4.1 11.5) reaches the ranks as NODEMPI_INITIAL_ERRHANDLER:
 * the handler of MPI_COMM_WORLD and MPI_COMM_SELF when MPI_Init returns, and so of errors
 * outside any object (core_error_raise uses MPI_COMM_SELF's). An unknown value is reported and
 * the default (MPI_ERRORS_ARE_FATAL) kept: the launcher never sets one. */
static void apply_initial_errhandler(void)
{
    const char *name = getenv("NODEMPI_INITIAL_ERRHANDLER");
    if (!name || !*name)
        return;
    enum core_errhandler_kind kind;
    if (strcmp(name, "return") == 0) {
        kind = CORE_ERRHANDLER_RETURN;
    } else if (strcmp(name, "abort") == 0) {
        kind = CORE_ERRHANDLER_ABORT;
    } else if (strcmp(name, "fatal") == 0) {
        kind = CORE_ERRHANDLER_FATAL;
    } else {
        fprintf(stderr, "nodempi: MPI_Init: NODEMPI_INITIAL_ERRHANDLER '%s' is not fatal, "
                        "return or abort; MPI_ERRORS_ARE_FATAL stays\n", name);
        return;
    }
    nodempi.comm_world->errhandler = core_errhandler_predefined(kind);
    nodempi.comm_self->errhandler = core_errhandler_predefined(kind);
}

int core_init(int required, int *provided)
{
    main_thread = pthread_self();
    int rc = core_runtime_acquire();
    if (rc != MPI_SUCCESS)
        return rc;
    nodempi.thread_level = core_thread_level_grant(required);
    nodempi.world_initialized = 1;
    apply_initial_errhandler();
    /* A spawned job's MPI_Init connects to its parents (core/dpm.h). */
    rc = core_dpm_init_parent();
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "nodempi: MPI_Init: cannot connect to the spawning job\n");
        return rc;
    }
    if (provided)
        *provided = nodempi.thread_level;
    return MPI_SUCCESS;
}

/* Dissemination barrier on a private context: every rank's sends have been matched (or will
 * never be) before anyone tears down. Each stop of the runtime is one barrier; messages of one
 * source on one context do not overtake, so a rank already in its next stop cannot be matched
 * by a rank still in this one. */
static void finalize_barrier(void)
{
    int size = nodempi.world_size, rank = nodempi.world_rank;
    struct dt_type *byte = dt_from_handle(MPI_BYTE);
    for (int distance = 1; distance < size; distance *= 2) {
        struct core_request *send, *recv;
        char out = 0, in = 0;
        p2p_irecv(nodempi.comm_world, FINALIZE_CONTEXT, (rank - distance + size) % size, 0, &in,
                  1, byte, &recv);
        p2p_isend(nodempi.comm_world, FINALIZE_CONTEXT, (rank + distance) % size, 0, &out, 1,
                  byte, CORE_SEND_STANDARD, &send);
        core_request_wait(send, NULL);
        core_request_wait(recv, NULL);
    }
}

/* Everything but the transport (see transport_up): the MPI objects the runtime owns go, user
 * objects stay (freeing them is the user's part), and the launcher may see us exit. */
static void runtime_stop(void)
{
    void *buffer;
    size_t size;
    p2p_bsend_detach(&buffer, &size);
    core_finalize_hooks_run();
    p2p_flush();
    if (nodempi.world_size > 1)
        finalize_barrier();
    core_comm_finalize_predefined();
    dt_finalize();
    core_request_finalize();
    core_error_finalize();
    set_rank_state(SHM_RANK_FINALIZED);
    nodempi.initialized = 0;
    nodempi.finalized = 1;
}

int core_runtime_release(void)
{
    if (nodempi.runtime_users > 0 && --nodempi.runtime_users == 0)
        runtime_stop();
    return MPI_SUCCESS;
}

/* world_finalized is set only when the runtime is down: attribute delete callbacks run inside
 * MPI_Finalize (MPI_COMM_SELF first) and must still see MPI_Finalized return false. */
int core_finalize(void)
{
    nodempi.world_finalizing = 1;
    int rc = core_runtime_release();
    nodempi.world_finalized = 1;
    return rc;
}

int core_is_main_thread(void)
{
    return pthread_equal(main_thread, pthread_self());
}

/* Layers above p2p (collectives, communicators, RMA) register cleanup to run while p2p still
 * works: a fixed small table, run last-registered first. */
enum { FINALIZE_HOOKS_MAX = 16 };
static void (*finalize_hooks[FINALIZE_HOOKS_MAX])(void);
static int finalize_hook_count;

void core_at_finalize(void (*hook)(void))
{
    if (finalize_hook_count < FINALIZE_HOOKS_MAX)
        finalize_hooks[finalize_hook_count++] = hook;
}

void core_finalize_hooks_run(void)
{
    while (finalize_hook_count > 0)
        finalize_hooks[--finalize_hook_count]();
}
