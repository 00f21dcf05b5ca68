/* dpm_connect.c - joining two groups of processes that may belong to different jobs, over a
 * connected stream socket between their roots (a port, a spawn, MPI_Comm_join), and the
 * identity of processes across jobs.
 * The roots swap their groups (pid, job segment name, rank in that job); the root with the
 * lower pid creates a connection segment with one slot per process of both groups (the job
 * segment's layout, named like a job segment with its pid, so a later mpiexec removes it if
 * the creator dies), every member maps it and appends a foreign peer (src/p2p/foreign.c) for
 * each remote process it has no channel to yet, and the creator unlinks it once both groups
 * are attached. Then the two roots, now reachable by p2p, run MPI_Intercomm_create's
 * agreement over a two-process bridge communicator. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/comm_create.h"
#include "core/dpm.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "shm/segment.h"

/* The bridge's context (its collective context is + 1); far above the ids communicators get
 * (below 2 * CORE_CONTEXT_PAIRS) and apart from MPI_Finalize's (init.c). */
#define DPM_BRIDGE_CONTEXT 0xfffffff0u
#define DPM_LINK_MAGIC 0x314d5044494d504eull /* "NPMIDPM1" */

/* One process as the other group learns it. */
struct dpm_proc {
    int32_t pid;
    int32_t job_rank;
    int32_t job_size;
    int32_t reserved;
    char job[48]; /* its job segment's name; "" for a singleton */
};

/* Processes of other jobs, in peer-index order from nodempi.world_size on. */
static struct dpm_proc *foreign;
static int foreign_count;

/* Job segments of other jobs, mapped for their ranks' futex words (kept until exit). */
struct mapped_job {
    struct mapped_job *next;
    char name[48];
    struct shm_header *segment;
};
static struct mapped_job *mapped_jobs;

static const char *my_job_name(void)
{
    const char *job = nodempi.segment ? getenv("NODEMPI_JOB") : NULL;
    return job ? job : "";
}

int core_dpm_pid_of(int index)
{
    if (index >= nodempi.world_size)
        return foreign[index - nodempi.world_size].pid;
    if (!nodempi.segment)
        return (int)nodempi.pid;
    return atomic_load_explicit(&shm_rank_block(nodempi.segment, index)->pid,
                                memory_order_relaxed);
}

int core_dpm_index_of(int pid)
{
    for (int i = 0; i < nodempi.world_size; i++)
        if (core_dpm_pid_of(i) == pid)
            return i;
    for (int i = 0; i < foreign_count; i++)
        if (foreign[i].pid == pid)
            return nodempi.world_size + i;
    return -1;
}

int core_dpm_indices_to_pids(int n, const int *indices, int *pids)
{
    for (int i = 0; i < n; i++)
        pids[i] = core_dpm_pid_of(indices ? indices[i] : i);
    return MPI_SUCCESS;
}

int core_dpm_pids_to_indices(int n, const int *pids, int *indices)
{
    for (int i = 0; i < n; i++)
        if ((indices[i] = core_dpm_index_of(pids[i])) < 0)
            return MPI_ERR_INTERN;
    return MPI_SUCCESS;
}

static int table_is_foreign(int n, const int *map)
{
    for (int i = 0; map && i < n; i++)
        if (map[i] >= nodempi.world_size)
            return 1;
    return 0;
}

int core_dpm_comm_is_foreign(const struct core_comm *comm)
{
    return table_is_foreign(comm->size, comm->world_ranks) ||
           (comm->is_inter && table_is_foreign(comm->remote_size, comm->remote_world_ranks));
}

static void describe(int index, struct dpm_proc *out)
{
    if (index >= nodempi.world_size) {
        *out = foreign[index - nodempi.world_size];
        return;
    }
    memset(out, 0, sizeof(*out));
    out->pid = core_dpm_pid_of(index);
    out->job_rank = index;
    out->job_size = nodempi.world_size;
    snprintf(out->job, sizeof(out->job), "%s", my_job_name());
}

/* ---- the roots' exchange ------------------------------------------------------------------ */

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return MPI_ERR_PORT;
        p += n;
        len -= (size_t)n;
    }
    return MPI_SUCCESS;
}

static int read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return MPI_ERR_PORT; /* the other side went away */
        p += n;
        len -= (size_t)n;
    }
    return MPI_SUCCESS;
}

struct link_header {
    uint64_t magic;
    int32_t root_pid;
    int32_t n;
};

/* What a root tells its group. */
struct dpm_plan {
    int32_t rc;
    int32_t n_remote;
    int32_t creator; /* my group's slots come first in the connection segment */
    int32_t remote_root_pid;
    char conn[64];   /* the connection segment's name */
};

/* The two roots' exchanges are swaps (each sends, then receives), over a socket or over an
 * existing p2p link between them (core_dpm_link_groups). */
struct fd_link {
    int fd;
};

static int fd_swap(void *ctx, const void *send, size_t send_bytes, void *recv, size_t recv_bytes)
{
    int fd = ((struct fd_link *)ctx)->fd;
    int rc = write_all(fd, send, send_bytes);
    return rc == MPI_SUCCESS ? read_all(fd, recv, recv_bytes) : rc;
}

static int create_conn_segment(int nprocs, char *name, size_t name_len)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        uint32_t salt = 0;
        if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != (ssize_t)sizeof(salt))
            salt = (uint32_t)attempt * 2654435761u ^ (uint32_t)nodempi.pid;
        shm_segment_name(name, name_len,
                         ((unsigned long long)(uint32_t)nodempi.pid << 32) | salt);
        struct shm_header *seg = shm_segment_create(name, nprocs);
        if (seg) {
            shm_segment_detach(seg);
            return MPI_SUCCESS;
        }
        if (errno != EEXIST)
            break;
    }
    name[0] = '\0';
    return MPI_ERR_NO_MEM;
}

static int root_exchange(struct core_comm *comm, core_dpm_swap_fn *swap, void *link,
                         struct dpm_plan *plan, struct dpm_proc **remote)
{
    int n = comm->size;
    struct dpm_proc *mine = calloc((size_t)n, sizeof(*mine));
    if (!mine)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        describe(comm->world_ranks ? comm->world_ranks[i] : i, &mine[i]);
    struct link_header out = {DPM_LINK_MAGIC, (int32_t)nodempi.pid, n}, in;
    int rc = swap(link, &out, sizeof(out), &in, sizeof(in));
    if (rc == MPI_SUCCESS && (in.magic != DPM_LINK_MAGIC || in.n < 1))
        rc = MPI_ERR_PORT; /* not a nodempi process at the other end */
    if (rc == MPI_SUCCESS && !(*remote = calloc((size_t)in.n, sizeof(**remote))))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = swap(link, mine, sizeof(*mine) * (size_t)n, *remote,
                  sizeof(**remote) * (size_t)in.n);
    free(mine);
    if (rc != MPI_SUCCESS)
        return rc;
    plan->n_remote = in.n;
    plan->remote_root_pid = in.root_pid;
    plan->creator = (int32_t)nodempi.pid < in.root_pid;
    /* The creator names the segment ("" if it could not make one); the other sends nothing. */
    char theirs[sizeof(plan->conn)] = "";
    int made = plan->creator ? create_conn_segment(n + in.n, plan->conn, sizeof(plan->conn))
                             : MPI_SUCCESS;
    rc = swap(link, plan->conn, sizeof(plan->conn), theirs, sizeof(theirs));
    if (!plan->creator) {
        memcpy(plan->conn, theirs, sizeof(theirs));
        plan->conn[sizeof(plan->conn) - 1] = '\0';
        if (rc == MPI_SUCCESS && !plan->conn[0])
            rc = MPI_ERR_NO_MEM;
    }
    return made != MPI_SUCCESS ? made : rc;
}

/* ---- every member: channels to the remote group ------------------------------------------- */

static struct shm_header *map_job(const char *name, int nranks)
{
    for (struct mapped_job *m = mapped_jobs; m; m = m->next)
        if (strcmp(m->name, name) == 0)
            return m->segment;
    char why[256];
    struct shm_header *seg = shm_segment_attach(name, nranks, why, sizeof(why));
    struct mapped_job *m = seg ? calloc(1, sizeof(*m)) : NULL;
    if (!m)
        return seg; /* unmapped: NULL; no memory: used once, mapping kept */
    snprintf(m->name, sizeof(m->name), "%s", name);
    m->segment = seg;
    m->next = mapped_jobs;
    mapped_jobs = m;
    return seg;
}

/* The futex word the remote process sleeps on: in its job's segment; a singleton has none and
 * never sleeps, its slot in the connection segment stands in. */
static struct shm_rank_block *wake_block_of(const struct dpm_proc *proc, struct shm_header *conn,
                                            int conn_index)
{
    struct shm_header *job =
        proc->job[0] && strcmp(proc->job, my_job_name()) != 0 ? map_job(proc->job,
                                                                       proc->job_size)
                                                              : NULL;
    if (job && proc->job_rank >= 0 && proc->job_rank < (int)job->nranks)
        return shm_rank_block(job, proc->job_rank);
    return shm_rank_block(conn, conn_index);
}

static int remember(const struct dpm_proc *proc)
{
    struct dpm_proc *grown = realloc(foreign, sizeof(*grown) * (size_t)(foreign_count + 1));
    if (!grown)
        return MPI_ERR_NO_MEM;
    foreign = grown;
    foreign[foreign_count++] = *proc;
    return MPI_SUCCESS;
}

static int add_channels(struct core_comm *comm, const struct dpm_plan *plan,
                        const struct dpm_proc *remote)
{
    int n_local = comm->size, n_total = n_local + plan->n_remote;
    char why[256];
    struct shm_header *conn = shm_segment_attach(plan->conn, n_total, why, sizeof(why));
    if (!conn) {
        fprintf(stderr, "nodempi: connecting to another job: %s\n", why);
        return MPI_ERR_OTHER;
    }
    int me = plan->creator ? comm->rank : plan->n_remote + comm->rank;
    int remote_base = plan->creator ? n_local : 0;
    int added = 0, rc = MPI_SUCCESS;
    for (int j = 0; j < plan->n_remote && rc == MPI_SUCCESS; j++) {
        if (core_dpm_index_of(remote[j].pid) >= 0)
            continue; /* same job, or connected before: that channel stays */
        int index;
        rc = remember(&remote[j]);
        if (rc == MPI_SUCCESS)
            rc = p2p_foreign_add(conn, me, remote_base + j,
                                 wake_block_of(&remote[j], conn, remote_base + j), &index);
        added++;
    }
    if (!added)
        shm_segment_detach(conn);
    return rc;
}

/* ---- the intercommunicator ---------------------------------------------------------------- */

/* The two roots as a communicator of their own (creator's root first), for
 * MPI_Intercomm_create's leader exchange; never handed out, never freed through the table. */
static int make_intercomm(struct core_comm *comm, int root, const struct dpm_plan *plan,
                          struct core_comm **out)
{
    struct core_comm bridge;
    int bridge_ranks[2];
    memset(&bridge, 0, sizeof(bridge));
    bridge.handle_state = CORE_COMM_HANDLE_VALID;
    struct core_comm *peer_comm = NULL;
    int remote_leader = 0;
    if (comm->rank == root) {
        int me = comm->world_ranks ? comm->world_ranks[root] : root;
        int other = core_dpm_index_of(plan->remote_root_pid);
        bridge.context = DPM_BRIDGE_CONTEXT;
        bridge.size = 2;
        bridge.rank = plan->creator ? 0 : 1;
        bridge_ranks[bridge.rank] = me;
        bridge_ranks[1 - bridge.rank] = other;
        bridge.world_ranks = bridge_ranks;
        bridge.refcount = 1 << 20; /* pending requests never bring it to 0 */
        bridge.errhandler = comm->errhandler;
        peer_comm = &bridge;
        remote_leader = 1 - bridge.rank;
    }
    return core_intercomm_create(comm, root, peer_comm, remote_leader, 0, out);
}

/* The creator unlinks the segment after both groups are attached: local barrier, then the
 * roots swap one byte. */
static int attached_everywhere(struct core_comm *comm, int root, core_dpm_swap_fn *swap,
                               void *link, const struct dpm_plan *plan)
{
    int rc = coll_barrier(comm);
    if (comm->rank != root)
        return rc;
    char byte = rc == MPI_SUCCESS, theirs = 0;
    int io = swap(link, &byte, 1, &theirs, 1);
    if (plan->creator)
        shm_unlink(plan->conn);
    return rc != MPI_SUCCESS ? rc : io;
}

/* Collective over comm: channels from every member to every process of the other group,
 * whose root the root reaches through swap; *plan as the root learnt it. */
static int link_groups(struct core_comm *comm, int root, core_dpm_swap_fn *swap, void *link,
                       int root_rc, struct dpm_plan *plan)
{
    struct dpm_proc *remote = NULL;
    struct dt_type *byte = dt_from_handle(MPI_BYTE);
    memset(plan, 0, sizeof(*plan));
    /* Every member has published its pid in the job segment (MPI_Init of a spawned job may
     * still be attaching the other ranks when its rank 0 gets here). */
    int rc = coll_barrier(comm);
    if (comm->rank == root) {
        plan->rc = rc != MPI_SUCCESS      ? rc
                   : root_rc != MPI_SUCCESS ? root_rc
                                            : root_exchange(comm, swap, link, plan, &remote);
        if (plan->rc != MPI_SUCCESS && plan->creator && plan->conn[0])
            shm_unlink(plan->conn);
    }
    rc = coll_bcast(plan, sizeof(*plan), byte, root, comm);
    if (rc == MPI_SUCCESS)
        rc = plan->rc;
    if (rc == MPI_SUCCESS && !remote &&
        !(remote = calloc((size_t)plan->n_remote, sizeof(*remote))))
        rc = MPI_ERR_NO_MEM; /* (the group would then hang in the bcast: out of memory) */
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(remote, (MPI_Count)(sizeof(*remote) * (size_t)plan->n_remote), byte,
                        root, comm);
    if (rc == MPI_SUCCESS)
        rc = add_channels(comm, plan, remote);
    free(remote);
    if (plan->rc == MPI_SUCCESS) {
        int attached = attached_everywhere(comm, root, swap, link, plan);
        rc = rc != MPI_SUCCESS ? rc : attached;
    }
    return rc;
}

int core_dpm_link_groups(struct core_comm *comm, int root, core_dpm_swap_fn *swap, void *link)
{
    struct dpm_plan plan;
    return link_groups(comm, root, swap, link, MPI_SUCCESS, &plan);
}

int core_dpm_connect_over_fd(struct core_comm *comm, int root, int fd, int root_rc,
                             struct core_comm **out)
{
    struct fd_link link = {fd};
    struct dpm_plan plan;
    *out = NULL;
    int rc = link_groups(comm, root, fd_swap, &link, root_rc, &plan);
    return rc != MPI_SUCCESS ? rc : make_intercomm(comm, root, &plan, out);
}
