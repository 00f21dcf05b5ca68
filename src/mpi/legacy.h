/* legacy.h - what the MPI-1 names MPI-3.0 removed (src/mpi/legacy.c, a nodempi extension) reuse
 * of the API layer: the MPI-2 calls that replaced them, taking the name to report in errors, and
 * the constructors the Fortran bindings of the removed ones need (src/fortran/legacy.c). Each
 * returns MPI_SUCCESS or the result of core_error_raise, like an MPI call; none takes the big
 * lock (the callers' entry points do). */
#ifndef NODEMPI_MPI_LEGACY_H
#define NODEMPI_MPI_LEGACY_H

#include <mpi.h>

/* datatype.c: MPI_Type_create_hvector / _hindexed / _struct under another name. */
int mpi_type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype, const char *function);
int mpi_type_hindexed(int count, const int array_of_blocklengths[],
                      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype, const char *function);
int mpi_type_struct(int count, const int array_of_blocklengths[],
                    const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                    MPI_Datatype *newtype, const char *function);

/* errors.c: MPI_Comm_set/get/create_errhandler under another name. */
int mpi_comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, const char *function);
int mpi_comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler, const char *function);
int mpi_comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler,
                               const char *function);

/* legacy.c: Fortran's MPI_TYPE_HVECTOR, _HINDEXED and _STRUCT, whose strides and displacements
 * are default INTEGERs (bytes): the types report the MPI-2.2 combiners
 * MPI_COMBINER_HVECTOR_INTEGER, _HINDEXED_INTEGER, _STRUCT_INTEGER, with those INTEGERs among
 * the integers of MPI_Type_get_contents and no addresses. These take the big lock. */
int mpi_type_hvector_integer(int count, int blocklength, int stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype);
int mpi_type_hindexed_integer(int count, const int array_of_blocklengths[],
                              const int array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype);
int mpi_type_struct_integer(int count, const int array_of_blocklengths[],
                            const int array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype);

#endif
