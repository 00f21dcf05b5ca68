/* handle_convert: MPI_*_c2f / MPI_*_f2c round trips for predefined, null and user handles of
 * every handle type (communicators, datatypes, groups, requests, infos, ops, error handlers,
 * windows, messages), stable and distinct numbers for distinct live handles, a converted-back
 * communicator that works, MPI_Status_c2f / MPI_Status_f2c; with the MPI-5.0 ABI header also
 * the mpi_f08 status conversions (MPI_Status_c2f08, f082c, f2f08, f082f),
 * the ABI values of predefined handles, MPI_*_toint / MPI_*_fromint, null results for invalid
 * numbers, and MPI_Abi_get_version / MPI_Abi_get_info / MPI_Abi_{get,set}_fortran_info. */
#include "../common/mpitest.h"

#define NUSER 4

static void user_op_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void user_errhandler_fn(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void check_distinct(const MPI_Fint *f, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            MT_CHECK(f[i] != f[j], "%s: handles %d and %d share the number %d", what, i, j,
                     (int)f[i]);
}

static void predefined(void)
{
    MPI_Comm comms[] = {MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL};
    for (int i = 0; i < 3; i++)
        MT_CHECK(MPI_Comm_f2c(MPI_Comm_c2f(comms[i])) == comms[i], "comm %d round trip", i);
    MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE, MPI_BYTE, MPI_CHAR, MPI_2INT,
                            MPI_INTEGER, MPI_DATATYPE_NULL};
    for (int i = 0; i < 7; i++)
        MT_CHECK(MPI_Type_f2c(MPI_Type_c2f(types[i])) == types[i], "type %d round trip", i);
    MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP, MPI_OP_NULL};
    for (int i = 0; i < 6; i++)
        MT_CHECK(MPI_Op_f2c(MPI_Op_c2f(ops[i])) == ops[i], "op %d round trip", i);
    MPI_Group groups[] = {MPI_GROUP_EMPTY, MPI_GROUP_NULL};
    for (int i = 0; i < 2; i++)
        MT_CHECK(MPI_Group_f2c(MPI_Group_c2f(groups[i])) == groups[i], "group %d round trip", i);
    MPI_Errhandler ehs[] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRHANDLER_NULL};
    for (int i = 0; i < 3; i++)
        MT_CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(ehs[i])) == ehs[i],
                 "errhandler %d round trip", i);
    MPI_Info infos[] = {MPI_INFO_ENV, MPI_INFO_NULL};
    for (int i = 0; i < 2; i++)
        MT_CHECK(MPI_Info_f2c(MPI_Info_c2f(infos[i])) == infos[i], "info %d round trip", i);
    MT_CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL,
             "MPI_REQUEST_NULL round trip");
    MT_CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL, "MPI_WIN_NULL round trip");
    MT_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL,
             "MPI_MESSAGE_NULL round trip");
    MT_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
             "MPI_MESSAGE_NO_PROC round trip");
#ifdef MPI_ABI_VERSION
    /* the standard ABI: predefined handles are their constants */
    MT_CHECK_INT(0x101, MPI_Comm_c2f(MPI_COMM_WORLD), "MPI_Comm_c2f(MPI_COMM_WORLD)");
    MT_CHECK_INT(0x209, MPI_Type_c2f(MPI_INT), "MPI_Type_c2f(MPI_INT)");
    MT_CHECK_INT(0x21, MPI_Op_c2f(MPI_SUM), "MPI_Op_c2f(MPI_SUM)");
    MT_CHECK_INT(0x180, MPI_Request_c2f(MPI_REQUEST_NULL), "MPI_Request_c2f(REQUEST_NULL)");
    MT_CHECK(MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)) == MPI_SESSION_NULL,
             "MPI_SESSION_NULL round trip");
    MT_CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL,
             "MPI_FILE_NULL round trip");
    /* numbers that are no handle of the type give its null handle */
    MT_CHECK(MPI_Comm_f2c(123456789) == MPI_COMM_NULL, "MPI_Comm_f2c(123456789)");
    MT_CHECK(MPI_Comm_f2c(-7) == MPI_COMM_NULL, "MPI_Comm_f2c(-7)");
    MT_CHECK(MPI_Comm_f2c(MPI_Type_c2f(MPI_INT)) == MPI_COMM_NULL, "MPI_Comm_f2c(MPI_INT's)");
    MT_CHECK(MPI_Type_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_DATATYPE_NULL,
             "MPI_Type_f2c(MPI_COMM_WORLD's)");
    MT_CHECK(MPI_Op_f2c(0x25) == MPI_OP_NULL, "MPI_Op_f2c(unassigned op value 0x25)");
    MT_CHECK_INT(MPI_Comm_c2f(MPI_COMM_SELF), MPI_Comm_toint(MPI_COMM_SELF), "toint == c2f");
    MT_CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_DOUBLE)) == MPI_DOUBLE, "type toint round trip");
    MT_CHECK(MPI_Errhandler_fromint(MPI_Errhandler_toint(MPI_ERRORS_ABORT)) == MPI_ERRORS_ABORT,
             "errhandler toint round trip");
#endif
}

static void user_handles(void)
{
    MPI_Comm comm[NUSER];
    MPI_Datatype type[NUSER];
    MPI_Group group[NUSER];
    MPI_Info info[NUSER];
    MPI_Op op[NUSER];
    MPI_Errhandler eh[NUSER];
    MPI_Fint f[NUSER];
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (int i = 0; i < NUSER; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm[i]);
        MPI_Type_contiguous(i + 2, MPI_INT, &type[i]);
        MPI_Type_commit(&type[i]);
        int rank0 = 0;
        MPI_Group_incl(world_group, 1, &rank0, &group[i]);
        MPI_Info_create(&info[i]);
        MPI_Op_create(user_op_fn, i & 1, &op[i]);
        MPI_Comm_create_errhandler(user_errhandler_fn, &eh[i]);
    }
#define ROUND_TRIP(kind, arr, what)                                                           \
    do {                                                                                      \
        for (int i = 0; i < NUSER; i++) {                                                     \
            f[i] = MPI_##kind##_c2f(arr[i]);                                                  \
            MT_CHECK(MPI_##kind##_f2c(f[i]) == arr[i], "%s %d round trip", what, i);          \
            MT_CHECK_INT(f[i], MPI_##kind##_c2f(arr[i]), what);                               \
        }                                                                                     \
        check_distinct(f, NUSER, what);                                                       \
    } while (0)
    ROUND_TRIP(Comm, comm, "user communicator");
    ROUND_TRIP(Type, type, "user datatype");
    ROUND_TRIP(Group, group, "user group");
    ROUND_TRIP(Info, info, "user info");
    ROUND_TRIP(Op, op, "user op");
    ROUND_TRIP(Errhandler, eh, "user errhandler");
#ifdef MPI_ABI_VERSION
    for (int i = 0; i < NUSER; i++) {
        MT_CHECK(MPI_Comm_fromint(MPI_Comm_toint(comm[i])) == comm[i], "comm toint round trip");
        MT_CHECK(MPI_Info_fromint(MPI_Info_toint(info[i])) == info[i], "info toint round trip");
        MT_CHECK(MPI_Group_f2c(MPI_Comm_c2f(comm[i])) == MPI_GROUP_NULL,
                 "a communicator's number is no group");
    }
#endif
    /* a communicator that went through its number still works */
    MPI_Comm back = MPI_Comm_f2c(MPI_Comm_c2f(comm[2]));
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_Op_f2c(MPI_Op_c2f(op[0])), back);
    MT_CHECK_INT(mt_size, sum, "Allreduce over converted communicator and op");
    for (int i = 0; i < NUSER; i++) {
        MPI_Comm_free(&comm[i]);
        MPI_Type_free(&type[i]);
        MPI_Group_free(&group[i]);
        MPI_Info_free(&info[i]);
        MPI_Op_free(&op[i]);
        MPI_Errhandler_free(&eh[i]);
    }
    MPI_Group_free(&world_group);
}

#ifdef MPI_ABI_VERSION
/* nodempi (mpi.h's extension section): Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
 * seen from C. mpi_f08 and module mpi share the sentinels, and converting one of them is
 * erroneous (MPI-4.1 19.3.5): nodempi says so with MPI_ERR_ARG instead of reading it. */
static void check_fortran_status_ignore(const MPI_Status *st)
{
    MT_CHECK((void *)MPI_F08_STATUS_IGNORE == (void *)MPI_F_STATUS_IGNORE,
             "MPI_F08_STATUS_IGNORE is not MPI_F_STATUS_IGNORE's sentinel");
    MT_CHECK((void *)MPI_F08_STATUSES_IGNORE == (void *)MPI_F_STATUSES_IGNORE,
             "MPI_F08_STATUSES_IGNORE is not MPI_F_STATUSES_IGNORE's sentinel");
    MT_CHECK(MPI_F_STATUS_IGNORE != MPI_F_STATUSES_IGNORE, "the two sentinels are one");
    MPI_Errhandler old;
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &old);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Status c;
    MPI_F08_status f08;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    MT_CHECK_ERRCLASS(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &c), MPI_ERR_ARG,
                      "MPI_Status_f2c(MPI_F_STATUS_IGNORE)");
    MT_CHECK_ERRCLASS(MPI_Status_c2f(st, MPI_F_STATUSES_IGNORE), MPI_ERR_ARG,
                      "MPI_Status_c2f into MPI_F_STATUSES_IGNORE");
    MT_CHECK_ERRCLASS(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &c), MPI_ERR_ARG,
                      "MPI_Status_f082c(MPI_F08_STATUS_IGNORE)");
    MT_CHECK_ERRCLASS(MPI_Status_f082f(MPI_F08_STATUSES_IGNORE, f), MPI_ERR_ARG,
                      "MPI_Status_f082f(MPI_F08_STATUSES_IGNORE)");
    MT_CHECK_ERRCLASS(MPI_Status_c2f08(st, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG,
                      "MPI_Status_c2f08 into MPI_F08_STATUS_IGNORE");
    MT_MPI(MPI_Status_c2f08(st, &f08)); /* a real one still converts */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, old);
    MPI_Errhandler_free(&old);
}
#endif

static void requests_windows_messages(void)
{
    int right = mt_right(), left = mt_left();
    int out[NUSER], in[NUSER];
    MPI_Request req[2 * NUSER];
    MPI_Fint f[2 * NUSER];
    for (int i = 0; i < NUSER; i++) {
        out[i] = mt_rank * 10 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &req[i]);
        MPI_Send_init(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &req[NUSER + i]);
    }
    for (int i = 0; i < 2 * NUSER; i++) {
        f[i] = MPI_Request_c2f(req[i]);
        MT_CHECK(MPI_Request_f2c(f[i]) == req[i], "request %d round trip", i);
    }
    check_distinct(f, 2 * NUSER, "requests");
    for (int i = 0; i < NUSER; i++) {
        MPI_Request persistent = MPI_Request_f2c(f[NUSER + i]);
        MPI_Start(&persistent);
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        MPI_Request_free(&persistent);
    }
    for (int i = 0; i < NUSER; i++) {
        MPI_Request r = MPI_Request_f2c(f[i]);
        MPI_Status st;
        MPI_Wait(&r, &st);
        MT_CHECK_INT(left * 10 + i, in[i], "received through a converted request");
        MPI_Fint fst[MPI_F_STATUS_SIZE];
        MPI_Status back;
        MT_MPI(MPI_Status_c2f(&st, fst));
        MT_CHECK_INT(left, fst[MPI_F_SOURCE], "Fortran status MPI_SOURCE");
        MT_CHECK_INT(i, fst[MPI_F_TAG], "Fortran status MPI_TAG");
        MT_MPI(MPI_Status_f2c(fst, &back));
        MT_CHECK_STATUS(&back, left, i, MPI_INT, 1, "status back from Fortran");
#ifdef MPI_ABI_VERSION /* Open MPI 4.1 has no MPI_F08_status, MPICH 4.0 no MPI_Status_f082f */
        MPI_F08_status f08, f08b;
        MPI_Fint fst2[MPI_F_STATUS_SIZE];
        MT_MPI(MPI_Status_c2f08(&st, &f08));
        MT_CHECK_INT(left, f08.MPI_SOURCE, "mpi_f08 status MPI_SOURCE");
        MT_CHECK_INT(i, f08.MPI_TAG, "mpi_f08 status MPI_TAG");
        MT_MPI(MPI_Status_f082f(&f08, fst2));
        MT_MPI(MPI_Status_f2f08(fst2, &f08b));
        MT_MPI(MPI_Status_f082c(&f08b, &back));
        MT_CHECK_STATUS(&back, left, i, MPI_INT, 1, "status back from mpi_f08 and Fortran");
        if (i == 0 && MPI_F_STATUS_IGNORE) /* NULL in a library built without Fortran */
            check_fortran_status_ignore(&st);
#endif
    }
    int value = 0;
    MPI_Win win[2];
    for (int i = 0; i < 2; i++)
        MPI_Win_create(&value, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win[i]);
    MT_CHECK(MPI_Win_f2c(MPI_Win_c2f(win[0])) == win[0], "window 0 round trip");
    MT_CHECK(MPI_Win_f2c(MPI_Win_c2f(win[1])) == win[1], "window 1 round trip");
    MT_CHECK(MPI_Win_c2f(win[0]) != MPI_Win_c2f(win[1]), "windows share a number");
    for (int i = 0; i < 2; i++)
        MPI_Win_free(&win[i]);
    MPI_Request sreq; /* not MPI_Send: a send to oneself need not be buffered */
    MPI_Isend(&out[0], 1, MPI_INT, right, 99, MPI_COMM_WORLD, &sreq);
    MPI_Message msg;
    MPI_Mprobe(left, 99, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
    MPI_Message msg_back = MPI_Message_f2c(MPI_Message_c2f(msg));
    MT_CHECK(msg_back == msg, "message round trip");
    MPI_Mrecv(&in[0], 1, MPI_INT, &msg_back, MPI_STATUS_IGNORE);
    MT_CHECK_INT(left * 10, in[0], "received through a converted message");
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
}

#ifdef MPI_ABI_VERSION
static void abi_queries(void)
{
    int major = -5, minor = -5;
    MT_MPI(MPI_Abi_get_version(&major, &minor));
    MT_CHECK_INT(1, major, "ABI major version");
    MT_CHECK_INT(0, minor, "ABI minor version");
    MPI_Info info;
    char value[64];
    int flag = 0;
    MT_MPI(MPI_Abi_get_info(&info));
    MPI_Info_get(info, "mpi_aint_size", sizeof value - 1, value, &flag);
    MT_CHECK(flag && atoi(value) == (int)sizeof(MPI_Aint), "mpi_aint_size");
    MPI_Info_get(info, "mpi_count_size", sizeof value - 1, value, &flag);
    MT_CHECK(flag && atoi(value) == (int)sizeof(MPI_Count), "mpi_count_size");
    MPI_Info_free(&info);
    MT_MPI(MPI_Abi_get_fortran_info(&info));
    MT_CHECK(info == MPI_INFO_NULL, "no Fortran ABI info before it was set");
    MPI_Info mine;
    MPI_Info_create(&mine);
    MPI_Info_set(mine, "mpi_integer_size", "4");
    MT_MPI(MPI_Abi_set_fortran_info(mine));
    MPI_Info_free(&mine);
    MT_MPI(MPI_Abi_get_fortran_info(&info));
    MT_CHECK(info != MPI_INFO_NULL, "Fortran ABI info after it was set");
    if (info != MPI_INFO_NULL) {
        MPI_Info_get(info, "mpi_integer_size", sizeof value - 1, value, &flag);
        MT_CHECK(flag && strcmp(value, "4") == 0, "mpi_integer_size kept");
        mt_set_errors_return(MPI_COMM_SELF);
        MT_CHECK_ERRCLASS(MPI_Abi_set_fortran_info(info), MPI_ERR_ABI, "second set");
        MPI_Info_free(&info);
    }
    /* .TRUE. and .FALSE.: gfortran's 1 and 0 when the library has Fortran bindings (its
     * MPI_F_STATUS_IGNORE is not NULL), else unknown until the application sets them, once */
    int t = -1, f = -1, is_set = -1;
    long long t8 = -1, f8 = -1;
    mt_set_errors_return(MPI_COMM_SELF);
    MT_CHECK_ERRCLASS(MPI_Abi_get_fortran_booleans(3, &t, &f, &is_set), MPI_ERR_ARG,
                      "LOGICAL of 3 bytes");
    MT_MPI(MPI_Abi_get_fortran_booleans(4, &t, &f, &is_set));
    if (MPI_F_STATUS_IGNORE) {
        MT_CHECK(is_set == 1 && t == 1 && f == 0, "LOGICAL(4) .TRUE. %d .FALSE. %d set %d", t, f,
                 is_set);
        MT_MPI(MPI_Abi_get_fortran_booleans(8, &t8, &f8, &is_set));
        MT_CHECK(is_set == 1 && t8 == 1 && f8 == 0, "LOGICAL(8) values");
        MT_CHECK_ERRCLASS(MPI_Abi_set_fortran_booleans(4, &f, &t), MPI_ERR_ABI,
                          "setting the bindings' own values");
    } else {
        MT_CHECK(is_set == 0, "LOGICAL(4) known without Fortran bindings");
        int mine_t = -1, mine_f = 0;
        MT_MPI(MPI_Abi_set_fortran_booleans(4, &mine_t, &mine_f));
        MT_MPI(MPI_Abi_get_fortran_booleans(4, &t, &f, &is_set));
        MT_CHECK(is_set == 1 && t == -1 && f == 0, "LOGICAL(4) as set");
        MT_CHECK_ERRCLASS(MPI_Abi_set_fortran_booleans(4, &mine_t, &mine_f), MPI_ERR_ABI,
                          "second set of LOGICAL(4)");
    }
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    predefined();
    user_handles();
    requests_windows_messages();
#ifdef MPI_ABI_VERSION
    abi_queries();
#endif
    return mt_finish();
}
