/* attributes.c - attribute values from Fortran. A Fortran value is an INTEGER(KIND=
 * MPI_ADDRESS_KIND) number (a default INTEGER for MPI-1's MPI_ATTR_PUT / MPI_ATTR_GET), stored
 * as the C void * itself, so C and Fortran callbacks see the same bits. The predefined
 * attributes hold C pointers to their values (MPI_TAG_UB ... MPI_UNIVERSE_SIZE, and the window
 * ones except MPI_WIN_BASE, which is the address itself): Fortran gets the value. */
#include "fortran/fortran.h"

static int is_predefined_comm_keyval(MPI_Fint keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_UNIVERSE_SIZE;
}

/* The number a Fortran program sees for what the C get_attr returned. */
static MPI_Aint comm_value(MPI_Fint keyval, void *value)
{
    return is_predefined_comm_keyval(keyval) ? *(int *)value : (MPI_Aint)value;
}

static MPI_Aint win_value(MPI_Fint keyval, void *value)
{
    switch (keyval) {
    case MPI_WIN_SIZE:
        return *(MPI_Aint *)value;
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return *(int *)value;
    default: /* MPI_WIN_BASE and user attributes */
        return (MPI_Aint)value;
    }
}

void pmpi_comm_set_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Aint *value,
                         MPI_Fint *ierror)
{
    *ierror = MPI_Comm_set_attr(MPI_Comm_fromint(*comm), *keyval, (void *)*value);
}
#pragma weak mpi_comm_set_attr_ = pmpi_comm_set_attr_

void pmpi_comm_get_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Aint *value,
                         MPI_Fint *flag, MPI_Fint *ierror)
{
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Comm_get_attr(MPI_Comm_fromint(*comm), *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        *value = comm_value(*keyval, c_value);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_comm_get_attr_ = pmpi_comm_get_attr_

void pmpi_attr_put_(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Fint *value,
                    MPI_Fint *ierror)
{
    *ierror = MPI_Attr_put(MPI_Comm_fromint(*comm), *keyval, (void *)(MPI_Aint)*value);
}
#pragma weak mpi_attr_put_ = pmpi_attr_put_

void pmpi_attr_get_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value,
                    MPI_Fint *flag, MPI_Fint *ierror)
{
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Attr_get(MPI_Comm_fromint(*comm), *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        *value = (MPI_Fint)comm_value(*keyval, c_value);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_attr_get_ = pmpi_attr_get_

void pmpi_type_set_attr_(const MPI_Fint *type, const MPI_Fint *keyval, const MPI_Aint *value,
                         MPI_Fint *ierror)
{
    *ierror = MPI_Type_set_attr(MPI_Type_fromint(*type), *keyval, (void *)*value);
}
#pragma weak mpi_type_set_attr_ = pmpi_type_set_attr_

void pmpi_type_get_attr_(const MPI_Fint *type, const MPI_Fint *keyval, MPI_Aint *value,
                         MPI_Fint *flag, MPI_Fint *ierror)
{
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Type_get_attr(MPI_Type_fromint(*type), *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        *value = (MPI_Aint)c_value;
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_type_get_attr_ = pmpi_type_get_attr_

void pmpi_win_set_attr_(const MPI_Fint *win, const MPI_Fint *keyval, const MPI_Aint *value,
                        MPI_Fint *ierror)
{
    *ierror = MPI_Win_set_attr(MPI_Win_fromint(*win), *keyval, (void *)*value);
}
#pragma weak mpi_win_set_attr_ = pmpi_win_set_attr_

void pmpi_win_get_attr_(const MPI_Fint *win, const MPI_Fint *keyval, MPI_Aint *value,
                        MPI_Fint *flag, MPI_Fint *ierror)
{
    void *c_value = NULL;
    int c_flag = 0;
    *ierror = MPI_Win_get_attr(MPI_Win_fromint(*win), *keyval, &c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        *value = win_value(*keyval, c_value);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_win_get_attr_ = pmpi_win_get_attr_
