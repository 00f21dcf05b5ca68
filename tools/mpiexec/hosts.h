/* hosts.h - host lists and hostfiles as MPICH (Hydra) and Open MPI users write them, on a
 * launcher that runs every rank on this node: each host named must be this node, and what
 * is kept is the number of slots the user declared. No other file decides what "this node" is. */
#ifndef NODEMPI_MPIEXEC_HOSTS_H
#define NODEMPI_MPIEXEC_HOSTS_H

#include <stdbool.h>

/* localhost, 127.0.0.1, ::1, this machine's hostname (short or with its domain). */
bool hosts_is_this_node(const char *name);

/* "a,b:N" (-host, -hosts, --host, -H): adds each entry's slots (N, or 1) to *slots. False
 * after a message naming spelling and the entry when a host is not this node or N is bad. */
bool hosts_add_list(const char *list, const char *spelling, int *slots);

/* A hostfile (-f, -hostfile, --hostfile, -machinefile): one host a line, "host", "host:N" or
 * "host slots=N [max_slots=M]"; '#' starts a comment. Adds the slots to *slots; a file
 * without any host is an error. */
bool hosts_add_file(const char *path, const char *spelling, int *slots);

#endif
