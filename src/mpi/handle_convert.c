/* handle_convert.c - conversion of handles to integers: the Fortran forms (MPI_Comm_c2f /
 * MPI_Comm_f2c and the same for every handle type), the MPI-5.0 ABI forms (MPI_Comm_toint /
 * MPI_Comm_fromint ...) and MPI_Status_c2f / MPI_Status_f2c. Owns the table that numbers user
 * handles; it never looks inside the objects (it only asks each layer whether a predefined
 * value is valid). The two conversion helpers hold the big lock of MPI_THREAD_MULTIPLE around
 * the table (mpi_enter in src/mpi/api.h), which covers every function here. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "mpi/api.h"
#include "mpi/comm_api.h"

enum handle_kind {
    HANDLE_COMM,
    HANDLE_TYPE,
    HANDLE_GROUP,
    HANDLE_REQUEST,
    HANDLE_INFO,
    HANDLE_OP,
    HANDLE_ERRHANDLER,
    HANDLE_WIN,
    HANDLE_MESSAGE,
    HANDLE_SESSION,
    HANDLE_FILE,
};

/* Mapping (the same for c2f and toint): a predefined handle, a small constant below 0x1000 in
 * the ABI, is its own value (MPI_COMM_WORLD is 0x101); a user handle, a pointer, gets the next
 * free number from HANDLE_INT_BASE up the first time it is converted and keeps it, so the
 * mapping is one-to-one for every live handle. A number no handle of that type was given, or a
 * predefined value of another type, converts back to the type's null handle. A freed object's
 * number stays in the table; if its memory comes back as a new object, that object inherits it
 * (converting a freed handle's number back is erroneous, as using the handle would be). */
/* Above every predefined ABI value (they are below 0x1000). */
#define HANDLE_INT_BASE 0x1000

/* Each type's null handle and the ABI range of its predefined values. */
static const struct {
    uintptr_t null_value, first, last;
} kind_abi[] = {
    [HANDLE_COMM] = {0x100, 0x100, 0x107},       [HANDLE_TYPE] = {0x200, 0x200, 0x3ff},
    [HANDLE_GROUP] = {0x108, 0x108, 0x10f},      [HANDLE_REQUEST] = {0x180, 0x180, 0x187},
    [HANDLE_INFO] = {0x130, 0x130, 0x137},       [HANDLE_OP] = {0x20, 0x20, 0x3f},
    [HANDLE_ERRHANDLER] = {0x140, 0x140, 0x147}, [HANDLE_WIN] = {0x110, 0x110, 0x117},
    [HANDLE_MESSAGE] = {0x128, 0x128, 0x12f},    [HANDLE_SESSION] = {0x120, 0x120, 0x127},
    [HANDLE_FILE] = {0x118, 0x118, 0x11f},
};

struct handle_entry {
    uintptr_t pointer;
    enum handle_kind kind;
};

/* entries[i] is the handle numbered HANDLE_INT_BASE + i; slots is an open-addressing hash of
 * pointer -> i + 1 (0 = empty) with a power-of-two size kept at most half full. */
static struct {
    struct handle_entry *entries;
    int count, capacity;
    int *slots;
    size_t nslots;
} table;

static size_t hash_pointer(uintptr_t p, size_t nslots)
{
    uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & (nslots - 1);
}

static int *find_slot(uintptr_t p)
{
    size_t i = hash_pointer(p, table.nslots);
    while (table.slots[i] && table.entries[table.slots[i] - 1].pointer != p)
        i = (i + 1) & (table.nslots - 1);
    return &table.slots[i];
}

static int grow(void)
{
    if (table.count == table.capacity) {
        int capacity = table.capacity ? 2 * table.capacity : 64;
        struct handle_entry *e = realloc(table.entries, sizeof(*e) * (size_t)capacity);
        if (!e)
            return 0;
        table.entries = e;
        table.capacity = capacity;
    }
    if ((size_t)(table.count + 1) * 2 > table.nslots) {
        size_t nslots = table.nslots ? 2 * table.nslots : 128;
        int *slots = calloc(nslots, sizeof(*slots));
        if (!slots)
            return 0;
        free(table.slots);
        table.slots = slots;
        table.nslots = nslots;
        for (int i = 0; i < table.count; i++)
            *find_slot(table.entries[i].pointer) = i + 1;
    }
    return 1;
}

/* Is the value (below 0x1000) a predefined handle of this kind? */
static int predefined_valid(enum handle_kind kind, uintptr_t value)
{
    if (value == kind_abi[kind].null_value)
        return 1;
    /* MPI-1's MPI_LB and MPI_UB: nodempi constants outside the ABI's range of datatypes. */
    if (kind == HANDLE_TYPE && (value == (uintptr_t)MPI_LB || value == (uintptr_t)MPI_UB))
        return dt_from_handle((MPI_Datatype)value) != NULL;
    if (value < kind_abi[kind].first || value > kind_abi[kind].last)
        return 0;
    switch (kind) {
    case HANDLE_COMM:
        return core_comm_from_handle((MPI_Comm)value) != NULL;
    case HANDLE_TYPE:
        return dt_from_handle((MPI_Datatype)value) != NULL;
    case HANDLE_GROUP:
        return core_group_from_handle((MPI_Group)value) != NULL;
    case HANDLE_INFO:
        return (MPI_Info)value == MPI_INFO_ENV;
    case HANDLE_OP:
        return coll_op_from_handle((MPI_Op)value) != NULL;
    case HANDLE_ERRHANDLER:
        return core_errhandler_from_handle((MPI_Errhandler)value) != NULL;
    case HANDLE_MESSAGE:
        return (MPI_Message)value == MPI_MESSAGE_NO_PROC;
    default:
        return 0; /* windows, requests, sessions and files have only their null handle */
    }
}

static int handle_to_int(enum handle_kind kind, uintptr_t handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (handle < HANDLE_INT_BASE)
        return predefined_valid(kind, handle) ? (int)handle : (int)kind_abi[kind].null_value;
    if (table.nslots) {
        int *slot = find_slot(handle);
        if (*slot) {
            table.entries[*slot - 1].kind = kind; /* a freed object's memory may be reused */
            return HANDLE_INT_BASE + *slot - 1;
        }
    }
    if (table.count >= INT32_MAX - HANDLE_INT_BASE || !grow())
        return (int)kind_abi[kind].null_value; /* out of numbers or memory */
    table.entries[table.count] = (struct handle_entry){handle, kind};
    table.count++;
    *find_slot(handle) = table.count;
    return HANDLE_INT_BASE + table.count - 1;
}

static uintptr_t handle_from_int(enum handle_kind kind, int value)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (value >= 0 && value < HANDLE_INT_BASE)
        return predefined_valid(kind, (uintptr_t)value) ? (uintptr_t)value
                                                          : kind_abi[kind].null_value;
    int64_t i = (int64_t)value - HANDLE_INT_BASE;
    if (i < 0 || i >= table.count || table.entries[i].kind != kind)
        return kind_abi[kind].null_value;
    return table.entries[i].pointer;
}

MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    return (MPI_Fint)handle_to_int(HANDLE_COMM, (uintptr_t)comm);
}
#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f

MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    return (MPI_Comm)handle_from_int(HANDLE_COMM, comm);
}
#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c

int PMPI_Comm_toint(MPI_Comm comm)
{
    return handle_to_int(HANDLE_COMM, (uintptr_t)comm);
}
#pragma weak MPI_Comm_toint = PMPI_Comm_toint

MPI_Comm PMPI_Comm_fromint(int comm)
{
    return (MPI_Comm)handle_from_int(HANDLE_COMM, comm);
}
#pragma weak MPI_Comm_fromint = PMPI_Comm_fromint

MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    return (MPI_Fint)handle_to_int(HANDLE_TYPE, (uintptr_t)datatype);
}
#pragma weak MPI_Type_c2f = PMPI_Type_c2f

MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    return (MPI_Datatype)handle_from_int(HANDLE_TYPE, datatype);
}
#pragma weak MPI_Type_f2c = PMPI_Type_f2c

int PMPI_Type_toint(MPI_Datatype datatype)
{
    return handle_to_int(HANDLE_TYPE, (uintptr_t)datatype);
}
#pragma weak MPI_Type_toint = PMPI_Type_toint

MPI_Datatype PMPI_Type_fromint(int datatype)
{
    return (MPI_Datatype)handle_from_int(HANDLE_TYPE, datatype);
}
#pragma weak MPI_Type_fromint = PMPI_Type_fromint

MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    return (MPI_Fint)handle_to_int(HANDLE_GROUP, (uintptr_t)group);
}
#pragma weak MPI_Group_c2f = PMPI_Group_c2f

MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    return (MPI_Group)handle_from_int(HANDLE_GROUP, group);
}
#pragma weak MPI_Group_f2c = PMPI_Group_f2c

int PMPI_Group_toint(MPI_Group group)
{
    return handle_to_int(HANDLE_GROUP, (uintptr_t)group);
}
#pragma weak MPI_Group_toint = PMPI_Group_toint

MPI_Group PMPI_Group_fromint(int group)
{
    return (MPI_Group)handle_from_int(HANDLE_GROUP, group);
}
#pragma weak MPI_Group_fromint = PMPI_Group_fromint

MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    return (MPI_Fint)handle_to_int(HANDLE_REQUEST, (uintptr_t)request);
}
#pragma weak MPI_Request_c2f = PMPI_Request_c2f

MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    return (MPI_Request)handle_from_int(HANDLE_REQUEST, request);
}
#pragma weak MPI_Request_f2c = PMPI_Request_f2c

int PMPI_Request_toint(MPI_Request request)
{
    return handle_to_int(HANDLE_REQUEST, (uintptr_t)request);
}
#pragma weak MPI_Request_toint = PMPI_Request_toint

MPI_Request PMPI_Request_fromint(int request)
{
    return (MPI_Request)handle_from_int(HANDLE_REQUEST, request);
}
#pragma weak MPI_Request_fromint = PMPI_Request_fromint

MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
    return (MPI_Fint)handle_to_int(HANDLE_INFO, (uintptr_t)info);
}
#pragma weak MPI_Info_c2f = PMPI_Info_c2f

MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
    return (MPI_Info)handle_from_int(HANDLE_INFO, info);
}
#pragma weak MPI_Info_f2c = PMPI_Info_f2c

int PMPI_Info_toint(MPI_Info info)
{
    return handle_to_int(HANDLE_INFO, (uintptr_t)info);
}
#pragma weak MPI_Info_toint = PMPI_Info_toint

MPI_Info PMPI_Info_fromint(int info)
{
    return (MPI_Info)handle_from_int(HANDLE_INFO, info);
}
#pragma weak MPI_Info_fromint = PMPI_Info_fromint

MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    return (MPI_Fint)handle_to_int(HANDLE_OP, (uintptr_t)op);
}
#pragma weak MPI_Op_c2f = PMPI_Op_c2f

MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    return (MPI_Op)handle_from_int(HANDLE_OP, op);
}
#pragma weak MPI_Op_f2c = PMPI_Op_f2c

int PMPI_Op_toint(MPI_Op op)
{
    return handle_to_int(HANDLE_OP, (uintptr_t)op);
}
#pragma weak MPI_Op_toint = PMPI_Op_toint

MPI_Op PMPI_Op_fromint(int op)
{
    return (MPI_Op)handle_from_int(HANDLE_OP, op);
}
#pragma weak MPI_Op_fromint = PMPI_Op_fromint

MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
    return (MPI_Fint)handle_to_int(HANDLE_ERRHANDLER, (uintptr_t)errhandler);
}
#pragma weak MPI_Errhandler_c2f = PMPI_Errhandler_c2f

MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
    return (MPI_Errhandler)handle_from_int(HANDLE_ERRHANDLER, errhandler);
}
#pragma weak MPI_Errhandler_f2c = PMPI_Errhandler_f2c

int PMPI_Errhandler_toint(MPI_Errhandler errhandler)
{
    return handle_to_int(HANDLE_ERRHANDLER, (uintptr_t)errhandler);
}
#pragma weak MPI_Errhandler_toint = PMPI_Errhandler_toint

MPI_Errhandler PMPI_Errhandler_fromint(int errhandler)
{
    return (MPI_Errhandler)handle_from_int(HANDLE_ERRHANDLER, errhandler);
}
#pragma weak MPI_Errhandler_fromint = PMPI_Errhandler_fromint

MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    return (MPI_Fint)handle_to_int(HANDLE_WIN, (uintptr_t)win);
}
#pragma weak MPI_Win_c2f = PMPI_Win_c2f

MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    return (MPI_Win)handle_from_int(HANDLE_WIN, win);
}
#pragma weak MPI_Win_f2c = PMPI_Win_f2c

int PMPI_Win_toint(MPI_Win win)
{
    return handle_to_int(HANDLE_WIN, (uintptr_t)win);
}
#pragma weak MPI_Win_toint = PMPI_Win_toint

MPI_Win PMPI_Win_fromint(int win)
{
    return (MPI_Win)handle_from_int(HANDLE_WIN, win);
}
#pragma weak MPI_Win_fromint = PMPI_Win_fromint

MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    return (MPI_Fint)handle_to_int(HANDLE_MESSAGE, (uintptr_t)message);
}
#pragma weak MPI_Message_c2f = PMPI_Message_c2f

MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    return (MPI_Message)handle_from_int(HANDLE_MESSAGE, message);
}
#pragma weak MPI_Message_f2c = PMPI_Message_f2c

int PMPI_Message_toint(MPI_Message message)
{
    return handle_to_int(HANDLE_MESSAGE, (uintptr_t)message);
}
#pragma weak MPI_Message_toint = PMPI_Message_toint

MPI_Message PMPI_Message_fromint(int message)
{
    return (MPI_Message)handle_from_int(HANDLE_MESSAGE, message);
}
#pragma weak MPI_Message_fromint = PMPI_Message_fromint

MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
    return (MPI_Fint)handle_to_int(HANDLE_SESSION, (uintptr_t)session);
}
#pragma weak MPI_Session_c2f = PMPI_Session_c2f

MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
    return (MPI_Session)handle_from_int(HANDLE_SESSION, session);
}
#pragma weak MPI_Session_f2c = PMPI_Session_f2c

int PMPI_Session_toint(MPI_Session session)
{
    return handle_to_int(HANDLE_SESSION, (uintptr_t)session);
}
#pragma weak MPI_Session_toint = PMPI_Session_toint

MPI_Session PMPI_Session_fromint(int session)
{
    return (MPI_Session)handle_from_int(HANDLE_SESSION, session);
}
#pragma weak MPI_Session_fromint = PMPI_Session_fromint

MPI_Fint PMPI_File_c2f(MPI_File file)
{
    return (MPI_Fint)handle_to_int(HANDLE_FILE, (uintptr_t)file);
}
#pragma weak MPI_File_c2f = PMPI_File_c2f

MPI_File PMPI_File_f2c(MPI_Fint file)
{
    return (MPI_File)handle_from_int(HANDLE_FILE, file);
}
#pragma weak MPI_File_f2c = PMPI_File_f2c

int PMPI_File_toint(MPI_File file)
{
    return handle_to_int(HANDLE_FILE, (uintptr_t)file);
}
#pragma weak MPI_File_toint = PMPI_File_toint

MPI_File PMPI_File_fromint(int file)
{
    return (MPI_File)handle_from_int(HANDLE_FILE, file);
}
#pragma weak MPI_File_fromint = PMPI_File_fromint


/* The ABI's MPI_Status is MPI_F_STATUS_SIZE ints with MPI_SOURCE, MPI_TAG, MPI_ERROR at
 * MPI_F_SOURCE, MPI_F_TAG, MPI_F_ERROR: the Fortran status is the same words. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "MPI_Status must be MPI_F_STATUS_SIZE integers");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
               "status fields must sit where Fortran expects them");

/* Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE as C sees them (mpi.h's extension
 * section): the common blocks of src/fortran/sentinels.c, which module mpi, mpi_f08 and
 * mpif.h all name. Weak references: a library built without Fortran has no such blocks, the
 * addresses are then NULL, and no Fortran status exists to compare with. */
extern MPI_Fint mpi_fortran_status_ignore_[] __attribute__((weak));
extern MPI_Fint mpi_fortran_statuses_ignore_[] __attribute__((weak));
MPI_Fint *MPI_F_STATUS_IGNORE = mpi_fortran_status_ignore_;
MPI_Fint *MPI_F_STATUSES_IGNORE = mpi_fortran_statuses_ignore_;
MPI_F08_status *MPI_F08_STATUS_IGNORE = (MPI_F08_status *)mpi_fortran_status_ignore_;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = (MPI_F08_status *)mpi_fortran_statuses_ignore_;

int mpi_has_fortran(void)
{
    return mpi_fortran_status_ignore_ != NULL;
}

/* MPI_F08_status (TYPE(MPI_Status) of mpi_f08) has the same MPI_F_STATUS_SIZE words as
 * MPI_Status and INTEGER status(MPI_STATUS_SIZE): the six conversions are copies. */
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "MPI_F08_status must be MPI_F_STATUS_SIZE integers");

/* Is p one of the ignore values, which make a conversion erroneous (MPI-4.1 19.3.5)? Its
 * name for the error message, or NULL. */
static const char *status_ignore_name(const void *p)
{
    if (!p)
        return "NULL (MPI_STATUS_IGNORE of C?)";
    if (p == (const void *)mpi_fortran_status_ignore_)
        return "MPI_STATUS_IGNORE of Fortran (MPI_F_STATUS_IGNORE)";
    if (p == (const void *)mpi_fortran_statuses_ignore_)
        return "MPI_STATUSES_IGNORE of Fortran (MPI_F_STATUSES_IGNORE)";
    return NULL;
}

static int status_copy(const void *from, void *to, const char *fn, const char *from_name,
                       const char *to_name)
{
    const char *bad_from = status_ignore_name(from);
    const char *bad_to = status_ignore_name(to);
    if (bad_from || bad_to)
        return core_error_raise(NULL, MPI_ERR_ARG, fn, "%s is %s: there is no status to convert",
                                bad_from ? from_name : to_name, bad_from ? bad_from : bad_to);
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return status_copy(c_status, f_status, "MPI_Status_c2f", "c_status", "f_status");
}
#pragma weak MPI_Status_c2f = PMPI_Status_c2f

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return status_copy(f_status, c_status, "MPI_Status_f2c", "f_status", "c_status");
}
#pragma weak MPI_Status_f2c = PMPI_Status_f2c

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return status_copy(c_status, f08_status, "MPI_Status_c2f08", "c_status", "f08_status");
}
#pragma weak MPI_Status_c2f08 = PMPI_Status_c2f08

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return status_copy(f08_status, c_status, "MPI_Status_f082c", "f08_status", "c_status");
}
#pragma weak MPI_Status_f082c = PMPI_Status_f082c

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return status_copy(f_status, f08_status, "MPI_Status_f2f08", "f_status", "f08_status");
}
#pragma weak MPI_Status_f2f08 = PMPI_Status_f2f08

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return status_copy(f08_status, f_status, "MPI_Status_f082f", "f08_status", "f_status");
}
#pragma weak MPI_Status_f082f = PMPI_Status_f082f
