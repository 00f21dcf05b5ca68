/* comm.c - API: communicator constructors (dup, split, create, intercommunicators), free,
 * compare, names, groups of a communicator and info hints. The work is in
 * src/core/comm_create.c; this file checks arguments and converts handles.
 * MPI_Comm_rank/size are in runtime.c, error handlers in errors.c, attributes in attr.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/comm_create.h"
#include "core/dpm.h"
#include "core/request.h"
#include "mpi/comm_api.h"

/* Publish a new communicator (NULL: MPI_COMM_NULL) or raise the constructor's error. */
static int finish_new_comm(struct core_comm *parent, int rc, struct core_comm *made,
                           MPI_Comm *newcomm, const char *function)
{
    if (rc != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL;
        return core_error_raise(parent, rc, function, "%s", rc == MPI_ERR_INTERN ?
                                "no context id is free in every member (too many "
                                "communicators alive)" : core_error_string(rc));
    }
    *newcomm = made ? core_comm_to_handle(made) : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

static int dup_with(MPI_Comm comm, struct core_info *info, MPI_Comm *newcomm,
                    const char *function)
{
    struct core_comm *c, *made = NULL;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_dup(c, info, &made);
    return finish_new_comm(c, rc, made, newcomm, function);
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return dup_with(comm, NULL, newcomm, "MPI_Comm_dup");
}
#pragma weak MPI_Comm_dup = PMPI_Comm_dup

/* The info argument of the *_with_info variants: MPI_INFO_NULL means "no hints". */
static int hints_argument(MPI_Info info, struct core_info **hints, struct core_info **empty,
                          const char *function)
{
    *empty = NULL;
    int rc = mpi_get_optional_info(info, hints, function);
    if (rc == MPI_SUCCESS && !*hints) {
        *hints = *empty = core_info_new();
        if (!*hints)
            rc = core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
    }
    return rc;
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *hints, *empty;
    int rc = mpi_check_initialized("MPI_Comm_dup_with_info");
    if (rc == MPI_SUCCESS)
        rc = hints_argument(info, &hints, &empty, "MPI_Comm_dup_with_info");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = dup_with(comm, hints, newcomm, "MPI_Comm_dup_with_info");
    core_info_free(empty);
    return rc;
}
#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info

/* The nonblocking dups: the agreement runs under the request (src/core/comm_idup.c), which
 * writes *newcomm when it completes. */
static int idup_with(MPI_Comm comm, struct core_info *info, MPI_Comm *newcomm,
                     MPI_Request *request, const char *function)
{
    struct core_comm *c;
    struct core_request *r;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, request, "request", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_idup(c, info, newcomm, &r);
    if (rc != MPI_SUCCESS)
        return finish_new_comm(c, rc, NULL, newcomm, function);
    *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return idup_with(comm, NULL, newcomm, request, "MPI_Comm_idup");
}
#pragma weak MPI_Comm_idup = PMPI_Comm_idup

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *hints, *empty;
    int rc = mpi_check_initialized("MPI_Comm_idup_with_info");
    if (rc == MPI_SUCCESS)
        rc = hints_argument(info, &hints, &empty, "MPI_Comm_idup_with_info");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = idup_with(comm, hints, newcomm, request, "MPI_Comm_idup_with_info");
    core_info_free(empty); /* the request holds its own copy */
    return rc;
}
#pragma weak MPI_Comm_idup_with_info = PMPI_Comm_idup_with_info

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c, *made = NULL;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_split");
    if (rc == MPI_SUCCESS && color < 0 && color != MPI_UNDEFINED)
        rc = core_error_raise(c, MPI_ERR_ARG, "MPI_Comm_split",
                              "invalid color %d (must be >= 0 or MPI_UNDEFINED)", color);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", "MPI_Comm_split");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_split(c, color, key, &made);
    return finish_new_comm(c, rc, made, newcomm, "MPI_Comm_split");
}
#pragma weak MPI_Comm_split = PMPI_Comm_split

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Comm_split_type";
    struct core_comm *c, *made = NULL;
    struct core_info *hints = NULL;
    int rc = mpi_begin_comm(comm, &c, fn);
    if (rc == MPI_SUCCESS && split_type != MPI_UNDEFINED &&
        split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED && split_type != MPI_COMM_TYPE_RESOURCE_GUIDED)
        rc = core_error_raise(c, MPI_ERR_ARG, fn, "invalid split_type %d", split_type);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &hints, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_split_type(c, split_type, key, hints, &made);
    return finish_new_comm(c, rc, made, newcomm, fn);
}
#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c, *made = NULL;
    struct core_group *g;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_create");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(group, &g, "MPI_Comm_create");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", "MPI_Comm_create");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_create(c, g, &made);
    if (rc == MPI_ERR_GROUP) {
        *newcomm = MPI_COMM_NULL;
        return core_error_raise(c, rc, "MPI_Comm_create",
                                "group is not a subset of the communicator's group");
    }
    return finish_new_comm(c, rc, made, newcomm, "MPI_Comm_create");
}
#pragma weak MPI_Comm_create = PMPI_Comm_create

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Comm_create_group";
    struct core_comm *c, *made = NULL;
    struct core_group *g;
    int rc = mpi_begin_comm(comm, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_intracomm(c, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(group, &g, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_send_tag(c, tag, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_create_group(c, g, tag, &made);
    if (rc == MPI_ERR_GROUP) {
        *newcomm = MPI_COMM_NULL;
        return core_error_raise(c, rc, fn, "group is not a subset of the communicator's group");
    }
    return finish_new_comm(c, rc, made, newcomm, fn);
}
#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group

int PMPI_Comm_free(MPI_Comm *comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Comm_free";
    struct core_comm *c;
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !comm)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "comm is NULL");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(*comm, &c, fn);
    if (rc == MPI_SUCCESS && c->predefined)
        rc = core_error_raise(c, MPI_ERR_COMM, fn, "cannot free %s", c->name);
    if (rc != MPI_SUCCESS)
        return rc;
    core_dpm_forget_parent(c); /* MPI_Comm_get_parent returns MPI_COMM_NULL from now on */
    rc = core_comm_free(c);
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, fn, "an attribute delete callback failed (code %d)", rc);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Comm_free = PMPI_Comm_free

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *a, *b;
    int rc = mpi_begin_comm(comm1, &a, "MPI_Comm_compare");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(comm2, &b, "MPI_Comm_compare");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(a, result, "result", "MPI_Comm_compare");
    if (rc == MPI_SUCCESS)
        *result = core_comm_compare(a, b);
    return rc;
}
#pragma weak MPI_Comm_compare = PMPI_Comm_compare

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_set_name");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_name, "comm_name", "MPI_Comm_set_name");
    if (rc != MPI_SUCCESS)
        return rc;
    size_t len = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(c->name, comm_name, len);
    c->name[len] = '\0';
    return MPI_SUCCESS;
}
#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name

/* MPI-4.1: the null handle has a name too, for debugging output that prints any handle. */
static int null_comm_name(char *comm_name, int *resultlen)
{
    int rc = mpi_check_initialized("MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, comm_name, "comm_name", "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, resultlen, "resultlen", "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        *resultlen = snprintf(comm_name, MPI_MAX_OBJECT_NAME, "MPI_COMM_NULL");
    return rc;
}

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (comm == MPI_COMM_NULL)
        return null_comm_name(comm_name, resultlen);
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_name, "comm_name", "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, resultlen, "resultlen", "MPI_Comm_get_name");
    if (rc != MPI_SUCCESS)
        return rc;
    size_t len = strnlen(c->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, c->name, len);
    comm_name[len] = '\0';
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_test_inter");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, flag, "flag", "MPI_Comm_test_inter");
    if (rc == MPI_SUCCESS)
        *flag = c->is_inter;
    return rc;
}
#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter

static int begin_intercomm(MPI_Comm comm, struct core_comm **c, const void *out,
                           const char *function)
{
    int rc = mpi_begin_comm(comm, c, function);
    if (rc == MPI_SUCCESS && !(*c)->is_inter)
        rc = core_error_raise(*c, MPI_ERR_COMM, function, "not an intercommunicator");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(*c, out, "output argument", function);
    return rc;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = begin_intercomm(comm, &c, size, "MPI_Comm_remote_size");
    if (rc == MPI_SUCCESS)
        *size = c->remote_size;
    return rc;
}
#pragma weak MPI_Comm_remote_size = PMPI_Comm_remote_size

static int publish_group(struct core_comm *c, int rc, struct core_group *g, MPI_Group *group,
                         const char *function)
{
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, function, "out of memory");
    *group = core_group_to_handle(g);
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    struct core_group *g = NULL;
    int rc = begin_intercomm(comm, &c, group, "MPI_Comm_remote_group");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_remote_of_comm(c, &g);
    return publish_group(c, rc, g, group, "MPI_Comm_remote_group");
}
#pragma weak MPI_Comm_remote_group = PMPI_Comm_remote_group

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    struct core_group *g = NULL;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_group");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, group, "group", "MPI_Comm_group");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_of_comm(c, &g);
    return publish_group(c, rc, g, group, "MPI_Comm_group");
}
#pragma weak MPI_Comm_group = PMPI_Comm_group

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Intercomm_create";
    struct core_comm *local, *peer = NULL, *made = NULL;
    int rc = mpi_begin_comm(local_comm, &local, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_intracomm(local, fn);
    if (rc == MPI_SUCCESS && (local_leader < 0 || local_leader >= local->size))
        rc = core_error_raise(local, MPI_ERR_RANK, fn,
                              "invalid local_leader %d (local_comm size %d)", local_leader,
                              local->size);
    /* peer_comm and remote_leader are significant only at the local leader */
    if (rc == MPI_SUCCESS && local->rank == local_leader) {
        rc = mpi_get_comm(peer_comm, &peer, fn);
        /* An intercommunicator as peer_comm (a parent and its spawned children): the remote
         * leader is a rank of its remote group. */
        int peers = core_comm_peer_count(peer);
        if (rc == MPI_SUCCESS && (remote_leader < 0 || remote_leader >= peers))
            rc = core_error_raise(local, MPI_ERR_RANK, fn,
                                  "invalid remote_leader %d (%s size %d)", remote_leader,
                                  peer->is_inter ? "peer_comm remote group" : "peer_comm",
                                  peers);
        if (rc == MPI_SUCCESS && !peer->is_inter && remote_leader == peer->rank)
            rc = core_error_raise(local, MPI_ERR_RANK, fn,
                                  "remote_leader %d is the local leader itself", remote_leader);
    }
    if (rc == MPI_SUCCESS)
        rc = mpi_check_send_tag(local, tag, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(local, newintercomm, "newintercomm", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_intercomm_create(local, local_leader, peer, remote_leader, tag, &made);
    return finish_new_comm(local, rc, made, newintercomm, fn);
}
#pragma weak MPI_Intercomm_create = PMPI_Intercomm_create

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c, *made = NULL;
    int rc = begin_intercomm(intercomm, &c, newintracomm, "MPI_Intercomm_merge");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_intercomm_merge(c, high, &made);
    return finish_new_comm(c, rc, made, newintracomm, "MPI_Intercomm_merge");
}
#pragma weak MPI_Intercomm_merge = PMPI_Intercomm_merge

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    struct core_info *i;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_set_info");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_info(info, &i, "MPI_Comm_set_info");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_set_info(c, i);
    return rc == MPI_SUCCESS ? rc
                             : core_error_raise(c, rc, "MPI_Comm_set_info", "out of memory");
}
#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    struct core_info *i = NULL;
    int rc = mpi_begin_comm(comm, &c, "MPI_Comm_get_info");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, info_used, "info_used", "MPI_Comm_get_info");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_comm_get_info(c, &i);
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, "MPI_Comm_get_info", "out of memory");
    *info_used = core_info_to_handle(i);
    return MPI_SUCCESS;
}
#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info

/* ---- MPI-4.0 communicators from groups (no parent communicator) ---------------------------- */

/* The tag that keeps concurrent creations apart comes from the user's string (FNV-1a, made
 * non-negative). Every process here is in MPI_COMM_WORLD, so the creation runs over it; two
 * different strings with the same hash only collide if they also run at the same time over
 * overlapping groups. */
static int stringtag_hash(const char *stringtag)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int)(h & 0x7fffffffu);
}

struct from_group_args {
    struct core_group *group;
    struct core_info *info;
    struct core_errhandler *errhandler;
};

static int check_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                            MPI_Errhandler errhandler, const void *out,
                            struct from_group_args *a, const char *fn)
{
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(group, &a->group, fn);
    if (rc == MPI_SUCCESS && a->group->rank == MPI_UNDEFINED)
        rc = core_error_raise(NULL, MPI_ERR_GROUP, fn, "the calling process is not in group");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, stringtag, "stringtag", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &a->info, fn);
    if (rc == MPI_SUCCESS && !(a->errhandler = core_errhandler_from_handle(errhandler)))
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "invalid errhandler");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, out, "newcomm", fn);
    return rc;
}

/* Hints and the error handler the caller asked for go onto the new communicator. */
static int adorn_new_comm(MPI_Comm *newcomm, const struct from_group_args *a, const char *fn)
{
    struct core_comm *made = core_comm_from_handle(*newcomm);
    int rc = a->info ? core_comm_set_info(made, a->info) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        return core_error_raise(made, rc, fn, "out of memory");
    return PMPI_Comm_set_errhandler(*newcomm, core_errhandler_to_handle(a->errhandler));
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Comm_create_from_group";
    struct from_group_args a;
    int rc = check_from_group(group, stringtag, info, errhandler, newcomm, &a, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_comm *world = core_comm_from_handle(MPI_COMM_WORLD), *made = NULL;
    rc = core_comm_create_group(world, a.group, stringtag_hash(stringtag), &made);
    if (made)
        made->session = a.group->session; /* its buffered sends may use the session's buffer */
    rc = finish_new_comm(NULL, rc, made, newcomm, fn);
    return rc == MPI_SUCCESS ? adorn_new_comm(newcomm, &a, fn) : rc;
}
#pragma weak MPI_Comm_create_from_group = PMPI_Comm_create_from_group

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Intercomm_create_from_groups";
    struct from_group_args a;
    struct core_group *remote;
    int rc = check_from_group(local_group, stringtag, info, errhandler, newintercomm, &a, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(remote_group, &remote, fn);
    if (rc == MPI_SUCCESS && (local_leader < 0 || local_leader >= a.group->size))
        rc = core_error_raise(NULL, MPI_ERR_RANK, fn, "invalid local_leader %d (group size %d)",
                              local_leader, a.group->size);
    if (rc == MPI_SUCCESS && (remote_leader < 0 || remote_leader >= remote->size))
        rc = core_error_raise(NULL, MPI_ERR_RANK, fn, "invalid remote_leader %d (group size %d)",
                              remote_leader, remote->size);
    if (rc == MPI_SUCCESS && remote->rank != MPI_UNDEFINED)
        rc = core_error_raise(NULL, MPI_ERR_GROUP, fn,
                              "the calling process is in both groups (they must be disjoint)");
    if (rc != MPI_SUCCESS)
        return rc;
    /* The local group first becomes an intracommunicator; the leaders then meet over
     * MPI_COMM_WORLD, the peer communicator every process shares. */
    int tag = stringtag_hash(stringtag);
    struct core_comm *world = core_comm_from_handle(MPI_COMM_WORLD), *local = NULL, *made = NULL;
    rc = core_comm_create_group(world, a.group, tag, &local);
    if (local)
        local->session = a.group->session; /* made and its local_comm inherit it */
    if (rc == MPI_SUCCESS) {
        int remote_world = remote->world_ranks[remote_leader];
        rc = core_intercomm_create(local, local_leader, world, remote_world, tag, &made);
        core_comm_free(local);
    }
    rc = finish_new_comm(NULL, rc, made, newintercomm, fn);
    return rc == MPI_SUCCESS ? adorn_new_comm(newintercomm, &a, fn) : rc;
}
#pragma weak MPI_Intercomm_create_from_groups = PMPI_Intercomm_create_from_groups
