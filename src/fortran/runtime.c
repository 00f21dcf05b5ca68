/* runtime.c - Fortran entry points whose shape differs from C: MPI_INIT without argc/argv,
 * the functions that return a value (MPI_WTIME, MPI_WTICK, MPI_AINT_ADD, MPI_AINT_DIFF),
 * MPI_PCONTROL (no IERROR), the buffer detaches (a Fortran program cannot use the returned
 * address, so it is not written over its buffer) and MPI_INFO_CREATE_ENV. */
#include "fortran/fortran.h"

void pmpi_init_(MPI_Fint *ierror)
{
    *ierror = MPI_Init(NULL, NULL);
}
#pragma weak mpi_init_ = pmpi_init_

void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    *ierror = MPI_Init_thread(NULL, NULL, *required, provided);
}
#pragma weak mpi_init_thread_ = pmpi_init_thread_

double pmpi_wtime_(void)
{
    return MPI_Wtime();
}
#pragma weak mpi_wtime_ = pmpi_wtime_

double pmpi_wtick_(void)
{
    return MPI_Wtick();
}
#pragma weak mpi_wtick_ = pmpi_wtick_

MPI_Aint pmpi_aint_add_(const MPI_Aint *base, const MPI_Aint *disp)
{
    return MPI_Aint_add(*base, *disp);
}
#pragma weak mpi_aint_add_ = pmpi_aint_add_

MPI_Aint pmpi_aint_diff_(const MPI_Aint *addr1, const MPI_Aint *addr2)
{
    return MPI_Aint_diff(*addr1, *addr2);
}
#pragma weak mpi_aint_diff_ = pmpi_aint_diff_

void pmpi_pcontrol_(const MPI_Fint *level)
{
    MPI_Pcontrol(*level);
}
#pragma weak mpi_pcontrol_ = pmpi_pcontrol_

void pmpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierror)
{
    void *address = NULL;
    (void)buffer_addr;
    *ierror = MPI_Buffer_detach(&address, size);
}
#pragma weak mpi_buffer_detach_ = pmpi_buffer_detach_

void pmpi_comm_detach_buffer_(const MPI_Fint *comm, void *buffer_addr, MPI_Fint *size,
                              MPI_Fint *ierror)
{
    void *address = NULL;
    (void)buffer_addr;
    *ierror = MPI_Comm_detach_buffer(MPI_Comm_fromint(*comm), &address, size);
}
#pragma weak mpi_comm_detach_buffer_ = pmpi_comm_detach_buffer_

void pmpi_session_detach_buffer_(const MPI_Fint *session, void *buffer_addr, MPI_Fint *size,
                                 MPI_Fint *ierror)
{
    void *address = NULL;
    (void)buffer_addr;
    *ierror = MPI_Session_detach_buffer(MPI_Session_fromint(*session), &address, size);
}
#pragma weak mpi_session_detach_buffer_ = pmpi_session_detach_buffer_

void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierror)
{
    MPI_Info c_info = MPI_INFO_NULL;
    *ierror = MPI_Info_create_env(0, NULL, &c_info);
    *info = MPI_Info_toint(c_info);
}
#pragma weak mpi_info_create_env_ = pmpi_info_create_env_
