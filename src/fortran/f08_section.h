/* f08_section.h - non-contiguous array sections as choice buffers of the mpi_f08 routines
 * that MPI keeps using after the call returns (nonblocking, persistent, one-sided,
 * nonblocking and split I/O, partitioned): MPI_SUBARRAYS_SUPPORTED is .TRUE., so such a
 * section means the contiguous copy of its elements in array element order (the "virtual
 * contiguous buffer" of MPI-4.1 section 19.1.12), and (count, datatype) describe data in it.
 * Nothing is copied: a new datatype maps the virtual buffer onto the section's memory and
 * the call gets (first element's address, 1 or the same counts, new type); the type is freed
 * right after the call, which nodempi's reference counting allows for pending operations.
 *
 * Each f08_section_* function fills *section for one buffer and returns true, or raises the
 * error for `function` naming `argument` (MPI_COMM_SELF's handler), stores it in *ierror when
 * present and returns false. A contiguous buffer (also empty, assumed-size, scalar,
 * MPI_BOTTOM, MPI_IN_PLACE) is passed as it is, as is any call whose count or datatype is
 * invalid: the C routine then reports that. */
#ifndef NODEMPI_FORTRAN_F08_SECTION_H
#define NODEMPI_FORTRAN_F08_SECTION_H

#include <ISO_Fortran_binding.h>
#include <stdbool.h>

#include "fortran/fortran.h"

struct f08_section {
    void *address;       /* what the call gets as the buffer */
    MPI_Datatype type;   /* made here (f08_section_free frees it), or MPI_DATATYPE_NULL: the
                          * call gets the user's count and datatype */
    MPI_Fint datatype;   /* type as an INTEGER handle */
    MPI_Fint count;      /* the count that goes with it (module mpi's entry point) */
    MPI_Count count_c;   /* the same for a large-count routine */
};

/* (count, datatype) at the start of the virtual buffer: the call gets (address, 1, type). */
bool f08_section_whole(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count count,
                       MPI_Fint datatype, const char *function, const char *argument,
                       MPI_Fint *ierror);

/* Blocks of `unit` datatypes each, the i-th at virtual element i * unit (the per-process blocks
 * of MPI_Ialltoall and the gather/scatter roots, partitions, the units of counts and
 * displacements of the v collectives with unit 1): the type is one block resized to the
 * distance between blocks in memory, so the call keeps its counts and displacements (in
 * blocks). MPI_ERR_BUFFER when the blocks do not all have the same layout in memory. */
bool f08_section_blocks(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count unit,
                        MPI_Fint datatype, const char *function, const char *argument,
                        MPI_Fint *ierror);

/* A buffer of which the call uses count datatypes from the start but cannot take a new type
 * (MPI_Fetch_and_op, MPI_Compare_and_swap: one datatype for several buffers): fine when they
 * lie in the section's first element, else MPI_ERR_BUFFER. */
bool f08_section_first(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count count,
                       MPI_Fint datatype, const char *function, const char *argument,
                       MPI_Fint *ierror);

/* The reductions, where sendbuf and recvbuf share one (count, datatype): count datatypes
 * (blocks == false: MPI_Iallreduce & co.) or blocks of one datatype (blocks == true: the
 * reduce_scatter routines, whose counts stay). Buffers the calling process does not use
 * (MPI_Ireduce's recvbuf but at the root; either, per the root argument, on an
 * intercommunicator) are passed as they are. Both used buffers need the same layout (shape
 * and strides; a contiguous array has stride one element); else, when fold is allowed (not
 * the blocks case and not persistent), sendbuf's data is copied into recvbuf now and the call
 * made with MPI_IN_PLACE - what MPI allows a program to see, as recvbuf is undefined and
 * sendbuf unchanged until completion; else MPI_ERR_BUFFER. On return *send_address is the
 * sendbuf argument for the call and `section` describes recvbuf's (and sendbuf's) type. */
struct f08_reduce_roles {
    bool send_used, recv_used;
};
struct f08_reduce_roles f08_reduce_roles_all(void);
struct f08_reduce_roles f08_reduce_roles_rooted(const MPI_Fint *root, const MPI_Fint *comm);
bool f08_section_reduce(struct f08_section *section, void **send_address,
                        const CFI_cdesc_t *sendbuf, const CFI_cdesc_t *recvbuf,
                        struct f08_reduce_roles roles, MPI_Count count, MPI_Fint datatype,
                        bool blocks, bool fold, const char *function, MPI_Fint *ierror);

/* After the call: free the type (pending operations keep their own reference). */
void f08_section_free(struct f08_section *section);

/* The count and datatype arguments for module mpi's entry point. */
static inline const MPI_Fint *f08_section_count(const struct f08_section *section,
                                                const MPI_Fint *count)
{
    return section->type != MPI_DATATYPE_NULL ? &section->count : count;
}

static inline const MPI_Count *f08_section_count_c(const struct f08_section *section,
                                                   const MPI_Count *count)
{
    return section->type != MPI_DATATYPE_NULL ? &section->count_c : count;
}

static inline const MPI_Fint *f08_section_datatype(const struct f08_section *section,
                                                   const MPI_Fint *datatype)
{
    return section->type != MPI_DATATYPE_NULL ? &section->datatype : datatype;
}

#endif
