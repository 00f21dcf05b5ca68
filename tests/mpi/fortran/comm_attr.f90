! comm_attr.f90 - communicators, groups, topologies and attributes from Fortran:
! MPI_COMM_SPLIT, groups (incl, translate ranks), attribute keyvals whose copy and delete
! callbacks are Fortran subroutines (copy adds one, delete counts), the predefined
! MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN, MPI_TAG_UB read as a number, and a periodic
! Cartesian grid (LOGICAL periods in and out, MPI_CART_SUB with LOGICAL remain_dims), a
! distributed graph (MPI_UNWEIGHTED, LOGICAL weighted) and MPI_INTERCOMM_MERGE (LOGICAL high).
module attr_callbacks
    use mpi
    implicit none
    integer :: deletes = 0
contains
    subroutine copy_plus_one(oldcomm, keyval, extra_state, value_in, value_out, flag, ierror)
        integer :: oldcomm, keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
        logical :: flag
        if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) then
            ierror = MPI_ERR_OTHER
            return
        end if
        value_out = value_in + 1 + extra_state
        flag = .true.
        ierror = MPI_SUCCESS
    end subroutine copy_plus_one

    subroutine count_delete(comm, keyval, value, extra_state, ierror)
        integer :: comm, keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
        if (comm /= MPI_COMM_NULL .and. value >= 1000 .and. extra_state == 0) &
            deletes = deletes + 1
        if (keyval == MPI_KEYVAL_INVALID) deletes = -1000
        ierror = MPI_SUCCESS
    end subroutine count_delete
end module attr_callbacks

program comm_attr
    use mpi
    use attr_callbacks
    implicit none
    integer :: ierr, rank, nprocs, errs, half, hrank, hsize, world_group, group, i
    integer :: key_user, key_dup, key_null, dup, cart, row, cart_rank, coords(2), dims(2)
    integer :: translated(1), source, dest, last, graph, indegree, outdegree, inter, merged
    integer(kind=MPI_ADDRESS_KIND) :: value, zero
    logical :: flag, periods(2), weighted

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! Split into even and odd ranks, ordered by descending world rank.
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
    call MPI_Comm_rank(half, hrank, ierr)
    call MPI_Comm_size(half, hsize, ierr)
    if (hsize /= (nprocs + 1 - mod(rank, 2)) / 2) call fail('split size')
    last = nprocs - 1
    if (mod(last, 2) /= mod(rank, 2)) last = last - 1
    if (hrank /= (last - rank) / 2) call fail('split rank')

    ! Groups: a group of this rank alone, its rank 0 translated back to the world group.
    call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
    call MPI_Group_incl(world_group, 1, [rank], group, ierr)
    call MPI_Group_translate_ranks(group, 1, [0], world_group, translated, ierr)
    if (translated(1) /= rank) call fail('translate ranks')
    call MPI_Group_free(group, ierr)
    call MPI_Group_free(world_group, ierr)
    if (world_group /= MPI_GROUP_NULL) call fail('group free')

    ! Attributes: a Fortran copy callback, a predefined one, a null one.
    zero = 0
    call MPI_Comm_create_keyval(copy_plus_one, count_delete, key_user, zero, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key_dup, zero, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, key_null, zero, ierr)
    value = 1000 + rank
    call MPI_Comm_set_attr(half, key_user, value, ierr)
    call MPI_Comm_set_attr(half, key_dup, value * 2, ierr)
    call MPI_Comm_set_attr(half, key_null, value, ierr)
    call MPI_Comm_dup(half, dup, ierr)
    call MPI_Comm_get_attr(dup, key_user, value, flag, ierr)
    if (.not. flag .or. value /= 1001 + rank) call fail('Fortran copy callback')
    call MPI_Comm_get_attr(dup, key_dup, value, flag, ierr)
    if (.not. flag .or. value /= 2000 + 2 * rank) call fail('MPI_COMM_DUP_FN')
    call MPI_Comm_get_attr(dup, key_null, value, flag, ierr)
    if (flag) call fail('MPI_COMM_NULL_COPY_FN copied')
    call MPI_Comm_free(dup, ierr)           ! deletes key_user's copy
    call MPI_Comm_delete_attr(half, key_null, ierr)
    if (deletes /= 2) call fail('delete callbacks')
    call MPI_Comm_free_keyval(key_null, ierr)
    if (key_null /= MPI_KEYVAL_INVALID) call fail('free keyval')

    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag, ierr)
    if (.not. flag .or. value < 32767) call fail('MPI_TAG_UB')

    ! A 2-D periodic grid (dims from MPI_DIMS_CREATE), neighbours by MPI_CART_SHIFT, rows.
    dims = 0
    call MPI_Dims_create(nprocs, 2, dims, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.true., .false.], .false., cart, ierr)
    call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
    if (.not. periods(1) .or. periods(2)) call fail('cart_get periods')
    call MPI_Cart_rank(cart, coords, cart_rank, ierr)
    if (cart_rank /= rank) call fail('cart_rank')
    call MPI_Cart_shift(cart, 0, 1, source, dest, ierr)
    if (dest /= mod(coords(1) + 1, dims(1)) * dims(2) + coords(2)) call fail('cart_shift')
    call MPI_Cart_sub(cart, [.false., .true.], row, ierr)
    call MPI_Comm_size(row, i, ierr)
    if (i /= dims(2)) call fail('cart_sub')
    call MPI_Comm_free(row, ierr)
    call MPI_Comm_free(cart, ierr)

    ! A distributed graph (each rank's successor): MPI_DIST_GRAPH_NEIGHBORS_COUNT's LOGICAL.
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [mod(rank + nprocs - 1, nprocs)], &
                                        MPI_UNWEIGHTED, 1, [mod(rank + 1, nprocs)], &
                                        MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
    call MPI_Dist_graph_neighbors_count(graph, indegree, outdegree, weighted, ierr)
    if (indegree /= 1 .or. outdegree /= 1 .or. weighted) call fail('dist graph unweighted')
    call MPI_Comm_free(graph, ierr)
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [mod(rank + nprocs - 1, nprocs)], &
                                        [5], 1, [mod(rank + 1, nprocs)], [5], MPI_INFO_NULL, &
                                        .false., graph, ierr)
    call MPI_Dist_graph_neighbors_count(graph, indegree, outdegree, weighted, ierr)
    if (.not. weighted) call fail('dist graph weighted')
    call MPI_Comm_free(graph, ierr)

    ! The two halves as an intercommunicator, merged with the odd ranks high (LOGICAL high).
    if (nprocs > 1) then
        ! The other half's leader (its rank 0) is its highest world rank (key -rank above).
        last = nprocs - 1
        if (mod(last, 2) == mod(rank, 2)) last = last - 1
        call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, last, 7, inter, ierr)
        call MPI_Intercomm_merge(inter, mod(rank, 2) == 1, merged, ierr)
        call MPI_Comm_rank(merged, i, ierr)
        if (mod(rank, 2) == 0 .and. i >= hsize) call fail('intercomm_merge low')
        if (mod(rank, 2) == 1 .and. i < nprocs - hsize) call fail('intercomm_merge high')
        call MPI_Comm_free(merged, ierr)
        call MPI_Comm_free(inter, ierr)
    end if

    call MPI_Comm_free(half, ierr)          ! deletes key_user's original
    if (deletes /= 3) call fail('delete on free')
    call MPI_Comm_free_keyval(key_user, ierr)
    call MPI_Comm_free_keyval(key_dup, ierr)

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize(ierr)
    if (errs /= 0) stop 1
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program comm_attr
