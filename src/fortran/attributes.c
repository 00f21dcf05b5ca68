/* attributes.c - attribute values from Fortran (MPI-4.1 19.3.7). A Fortran value is a number,
 * INTEGER(KIND=MPI_ADDRESS_KIND) (a default INTEGER for MPI-1's MPI_ATTR_PUT / MPI_ATTR_GET):
 * the C call stores it, then src/core/attr.c keeps it as a number, so C code reading it gets a
 * pointer to it and Fortran gets it back; Fortran reading a C attribute gets the pointer as a
 * number. The predefined attributes hold C pointers to their values (MPI_TAG_UB ...
 * MPI_UNIVERSE_SIZE, the window ones except MPI_WIN_BASE, the address itself): Fortran gets the
 * value. Each function holds the big lock across its two steps (src/mpi/api.h). */
#include "core/attr.h"
#include "core/comm.h"
#include "datatype/datatype.h"
#include "fortran/fortran.h"
#include "mpi/api.h"
#include "rma/rma.h"

/* The attribute lists of the objects behind valid handles (the C call checked them). */
static void *comm_list(MPI_Comm comm)
{
    return core_comm_from_handle(comm)->attributes;
}

static void *type_list(MPI_Datatype type)
{
    return dt_from_handle(type)->attributes;
}

static void *win_list(MPI_Win win)
{
    return rma_win_from_handle(win)->attributes;
}

static int is_predefined_comm_keyval(MPI_Fint keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_UNIVERSE_SIZE;
}

static int is_predefined_win_keyval(MPI_Fint keyval)
{
    return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

static MPI_Aint predefined_win_value(MPI_Fint keyval, void *value)
{
    switch (keyval) {
    case MPI_WIN_SIZE:
        return *(MPI_Aint *)value;
    case MPI_WIN_BASE:
        return (MPI_Aint)value;
    default: /* MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL */
        return *(int *)value;
    }
}

/* The Fortran view of what MPI_Comm_get_attr found. */
static int comm_get(MPI_Comm comm, MPI_Fint keyval, MPI_Aint *value, int *flag)
{
    void *c_value = NULL;
    int rc = MPI_Comm_get_attr(comm, keyval, &c_value, flag);
    if (rc != MPI_SUCCESS || !*flag)
        return rc;
    if (is_predefined_comm_keyval(keyval))
        *value = *(int *)c_value; /* all of them are ints */
    else
        core_attr_get_fortran(comm_list(comm), keyval, value, flag);
    return MPI_SUCCESS;
}

void pmpi_comm_set_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Aint *value,
                         MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Comm c = MPI_Comm_fromint(*comm);
    *ierror = MPI_Comm_set_attr(c, *keyval, (void *)*value);
    if (*ierror == MPI_SUCCESS)
        core_attr_make_fortran(comm_list(c), *keyval, *value);
}
#pragma weak mpi_comm_set_attr_ = pmpi_comm_set_attr_

void pmpi_comm_get_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Aint *value,
                         MPI_Fint *flag, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int c_flag = 0;
    *ierror = comm_get(MPI_Comm_fromint(*comm), *keyval, value, &c_flag);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_comm_get_attr_ = pmpi_comm_get_attr_

void pmpi_attr_put_(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Fint *value,
                    MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Comm c = MPI_Comm_fromint(*comm);
    *ierror = MPI_Attr_put(c, *keyval, (void *)(MPI_Aint)*value);
    if (*ierror == MPI_SUCCESS)
        core_attr_make_fortran(comm_list(c), *keyval, *value);
}
#pragma weak mpi_attr_put_ = pmpi_attr_put_

void pmpi_attr_get_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value,
                    MPI_Fint *flag, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Aint number = 0;
    int c_flag = 0;
    *ierror = comm_get(MPI_Comm_fromint(*comm), *keyval, &number, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        *value = (MPI_Fint)number;
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_attr_get_ = pmpi_attr_get_

void pmpi_type_set_attr_(const MPI_Fint *type, const MPI_Fint *keyval, const MPI_Aint *value,
                         MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Datatype t = MPI_Type_fromint(*type);
    *ierror = MPI_Type_set_attr(t, *keyval, (void *)*value);
    if (*ierror == MPI_SUCCESS)
        core_attr_make_fortran(type_list(t), *keyval, *value);
}
#pragma weak mpi_type_set_attr_ = pmpi_type_set_attr_

void pmpi_type_get_attr_(const MPI_Fint *type, const MPI_Fint *keyval, MPI_Aint *value,
                         MPI_Fint *flag, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Datatype t = MPI_Type_fromint(*type);
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Type_get_attr(t, *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        core_attr_get_fortran(type_list(t), *keyval, value, &c_flag);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_type_get_attr_ = pmpi_type_get_attr_

void pmpi_win_set_attr_(const MPI_Fint *win, const MPI_Fint *keyval, const MPI_Aint *value,
                        MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Win w = MPI_Win_fromint(*win);
    *ierror = MPI_Win_set_attr(w, *keyval, (void *)*value);
    if (*ierror == MPI_SUCCESS)
        core_attr_make_fortran(win_list(w), *keyval, *value);
}
#pragma weak mpi_win_set_attr_ = pmpi_win_set_attr_

void pmpi_win_get_attr_(const MPI_Fint *win, const MPI_Fint *keyval, MPI_Aint *value,
                        MPI_Fint *flag, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Win w = MPI_Win_fromint(*win);
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Win_get_attr(w, *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag) {
        if (is_predefined_win_keyval(*keyval))
            *value = predefined_win_value(*keyval, c_value);
        else
            core_attr_get_fortran(win_list(w), *keyval, value, &c_flag);
    }
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_win_get_attr_ = pmpi_win_get_attr_
