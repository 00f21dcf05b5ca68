/* dpm.h - dynamic process management (MPI 4.1 ch. 11): spawning jobs, ports, accept/connect,
 * join, the name service, and the identity of processes across jobs. Every function returns
 * an MPI error class; collective ones are collective over comm with root's arguments deciding.
 * The design (connection segments, who launches what, cleanup) is in docs/architecture.md,
 * "Dynamic processes". */
#ifndef NODEMPI_CORE_DPM_H
#define NODEMPI_CORE_DPM_H

#include <stddef.h>

#include <mpi.h>

struct core_comm;
struct core_info;

/* ---- process identity (dpm_connect.c) -----------------------------------------------------
 * Communicators name processes by peer index (this job's world rank, or an index past the
 * job's size for a process of another job): per process, not comparable across jobs. What
 * two jobs exchange is the pid, unique on the node while the processes live. */
int core_dpm_pid_of(int index);
int core_dpm_index_of(int pid); /* -1 when this process has no channel to that pid */
int core_dpm_indices_to_pids(int n, const int *indices, int *pids);
/* MPI_ERR_INTERN for a pid no channel reaches (a group of a job never connected to ours). */
int core_dpm_pids_to_indices(int n, const int *pids, int *indices);
/* 1 if some member of comm (either group) belongs to another job. */
int core_dpm_comm_is_foreign(const struct core_comm *comm);

/* The connection over a stream socket fd, collective over comm: the roots exchange their
 * groups, every member maps the connection segment, and the result is an intercommunicator
 * with comm's group local. root_rc != MPI_SUCCESS: the root failed before (fd unused), every
 * member returns that class. */
int core_dpm_connect_over_fd(struct core_comm *comm, int root, int fd, int root_rc,
                             struct core_comm **out);

/* Collective over comm: give every member a channel to every process of another group whose
 * root (a leader of MPI_Intercomm_create) this root reaches through swap (each side sends
 * send_bytes, then receives recv_bytes). Pairs with a channel keep it. */
typedef int core_dpm_swap_fn(void *link, const void *send, size_t send_bytes, void *recv,
                             size_t recv_bytes);
int core_dpm_link_groups(struct core_comm *comm, int root, core_dpm_swap_fn *swap, void *link);

/* ---- ports (dpm_port.c) ------------------------------------------------------------------- */
int core_dpm_open_port(char *port_name);
int core_dpm_close_port(const char *port_name);
/* Root side: a connection on the port this process opened; watch_pid > 0: give up with
 * MPI_ERR_SPAWN if that child exits first. */
int core_dpm_port_accept_fd(const char *port_name, int watch_pid, int *fd);
int core_dpm_port_connect_fd(const char *port_name, int *fd);
int core_dpm_accept(const char *port_name, int root, struct core_comm *comm,
                    struct core_comm **out);
int core_dpm_connect(const char *port_name, int root, struct core_comm *comm,
                     struct core_comm **out);
int core_dpm_join(int fd, struct core_comm **out);

/* ---- spawning (dpm_spawn.c) --------------------------------------------------------------- */
/* count commands; at root: commands, argvs (each NULL-terminated, or NULL), maxprocs, infos
 * (NULL entries allowed). errcodes (may be NULL) gets one code per child at every member.
 * root_rc != MPI_SUCCESS: the root found its arguments wrong; every member returns it. */
int core_dpm_spawn(int count, char **commands, char ***argvs, const int *maxprocs,
                   struct core_info **infos, int root, int root_rc, struct core_comm *comm,
                   struct core_comm **out, int *errcodes);
/* "host" info values naming this node. */
int core_dpm_is_this_node(const char *host);
/* MPI_Init of a spawned child: connect to the parents (NULL parent when not spawned). */
int core_dpm_init_parent(void);
struct core_comm *core_dpm_parent(void);
/* The parent intercommunicator is being freed or disconnected. */
void core_dpm_forget_parent(const struct core_comm *comm);
int core_dpm_universe_size(void);
int core_dpm_appnum(void);

/* ---- name service (dpm_names.c) ----------------------------------------------------------- */
int core_dpm_publish(const char *service, const char *port_name);
int core_dpm_unpublish(const char *service, const char *port_name);
int core_dpm_lookup(const char *service, char *port_name);

#endif
