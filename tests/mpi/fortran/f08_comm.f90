! f08_comm.f90 - the environment, communicators, groups, info, error handling and attributes
! through `use mpi_f08`: init_thread/initialized/finalized/query_thread, processor name and
! versions, wtime/wtick; comm dup/split/split_type/compare/create/group/names/free; group
! incl/excl/union/intersection/translate_ranks/compare; info set/get/dup; MPI_ERRORS_RETURN
! giving the error code in IERROR, a user error handler (f08 interface), error_class/string;
! comm keyvals with f08 copy/delete callbacks and the predefined MPI_COMM_DUP_FN; handle
! comparison with == and /= and MPI_VAL shared with module mpi's handles.
module f08_comm_callbacks
    use mpi_f08
    implicit none
    integer :: handler_calls = 0, handler_code = MPI_SUCCESS, deletes = 0
contains
    subroutine record_error(comm, error_code)
        type(MPI_Comm) :: comm
        integer :: error_code
        if (comm == MPI_COMM_NULL) stop 'record_error: no communicator'
        handler_calls = handler_calls + 1
        handler_code = error_code
    end subroutine record_error

    ! Copies add one to the value, so a dup's attribute shows the copy function ran.
    subroutine copy_plus_one(oldcomm, comm_keyval, extra_state, attribute_val_in, &
                             attribute_val_out, flag, ierror)
        type(MPI_Comm) :: oldcomm
        integer :: comm_keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
        logical :: flag
        if (extra_state /= 77 .or. oldcomm == MPI_COMM_NULL .or. &
            comm_keyval == MPI_KEYVAL_INVALID) stop 'copy_plus_one: arguments'
        attribute_val_out = attribute_val_in + 1
        flag = .true.
        ierror = MPI_SUCCESS
    end subroutine copy_plus_one

    subroutine count_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
        type(MPI_Comm) :: comm
        integer :: comm_keyval, ierror
        integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
        if (extra_state /= 77 .or. comm == MPI_COMM_NULL .or. comm_keyval == MPI_KEYVAL_INVALID &
            .or. attribute_val < 1000) stop 'count_delete: arguments'
        deletes = deletes + 1
        ierror = MPI_SUCCESS
    end subroutine count_delete
end module f08_comm_callbacks

program f08_comm
    use mpi_f08
    use f08_comm_callbacks
    implicit none
    integer :: rank, nprocs, errs, provided, ierr, result, size, i, class, keyval, keyval2
    integer :: major, minor, length, nkeys, ranks(4)
    integer, allocatable :: members(:)
    logical :: flag
    type(MPI_Comm) :: dup, split, shared, created, half
    type(MPI_Group) :: world_group, evens, odds, both, none, first
    type(MPI_Info) :: info, info2
    type(MPI_Errhandler) :: handler
    integer(kind=MPI_ADDRESS_KIND) :: value
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=MPI_MAX_ERROR_STRING) :: message
    character(len=MPI_MAX_INFO_VAL) :: info_value
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: library
    double precision :: t0, t1

    errs = 0
    call MPI_Initialized(flag)
    if (flag) stop 'initialized before MPI_Init_thread'
    call MPI_Init_thread(MPI_THREAD_FUNNELED, provided)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    call MPI_Initialized(flag)
    if (.not. flag) call fail('initialized')
    call MPI_Query_thread(i)
    if (i /= provided .or. provided < MPI_THREAD_FUNNELED) call fail('query_thread')
    call MPI_Is_thread_main(flag)
    if (.not. flag) call fail('is_thread_main')
    call MPI_Get_processor_name(host, length)
    if (length <= 0 .or. len_trim(host) /= length) call fail('processor name')
    call MPI_Get_version(major, minor)
    if (major < 4) call fail('get_version')
    call MPI_Get_library_version(library, length)
    if (length <= 0 .or. len_trim(library) /= length) call fail('library version')
    t0 = MPI_Wtime()
    t1 = MPI_Wtime()
    if (t1 < t0) call fail('wtime')
    t0 = MPI_Wtick()
    if (t0 <= 0) call fail('wtick')

    ! Handles: MPI_VAL is module mpi's INTEGER handle; == and /= compare handles.
    if (MPI_COMM_WORLD%MPI_VAL == MPI_COMM_SELF%MPI_VAL) call fail('MPI_VAL')
    if (.not. (MPI_COMM_WORLD /= MPI_COMM_SELF) .or. MPI_INTEGER == MPI_REAL) call fail('/=')

    ! Dup, compare, names, split, split_type.
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    call MPI_Comm_compare(dup, MPI_COMM_WORLD, result)
    if (result /= MPI_CONGRUENT .or. dup == MPI_COMM_WORLD) call fail('dup/compare')
    call MPI_Comm_set_name(dup, 'f08 duplicate')
    call MPI_Comm_get_name(dup, name, length)
    if (name /= 'f08 duplicate' .or. length /= 13) call fail('comm name')
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, split)
    call MPI_Comm_size(split, size)
    call MPI_Comm_rank(split, i)
    if (size /= (nprocs + 1 - mod(rank, 2)) / 2 .or. i /= size - 1 - rank / 2) call fail('split')
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, shared)
    call MPI_Comm_size(shared, size)
    if (size /= nprocs) call fail('split_type')

    ! Groups.
    call MPI_Comm_group(MPI_COMM_WORLD, world_group)
    allocate(members((nprocs + 1) / 2))
    members = [(2 * i, i = 0, (nprocs + 1) / 2 - 1)]
    call MPI_Group_incl(world_group, (nprocs + 1) / 2, members, evens)
    call MPI_Group_excl(world_group, (nprocs + 1) / 2, members, odds)
    call MPI_Group_union(evens, odds, both)
    call MPI_Group_compare(both, world_group, result)
    if (result /= MPI_SIMILAR .and. result /= MPI_IDENT) call fail('group union')
    call MPI_Group_intersection(evens, odds, none)
    call MPI_Group_size(none, size)
    if (size /= 0) call fail('group intersection')
    call MPI_Group_size(evens, size)
    if (size /= (nprocs + 1) / 2) call fail('group size')
    call MPI_Group_translate_ranks(evens, 1, [size - 1], world_group, ranks)
    if (ranks(1) /= 2 * (size - 1)) call fail('translate_ranks')
    call MPI_Group_rank(evens, i)
    if (mod(rank, 2) == 1 .and. i /= MPI_UNDEFINED) call fail('group rank')
    call MPI_Comm_create(MPI_COMM_WORLD, evens, created)
    if ((mod(rank, 2) == 0) .neqv. (created /= MPI_COMM_NULL)) call fail('comm_create')
    if (created /= MPI_COMM_NULL) then
        call MPI_Comm_size(created, size)
        if (size /= (nprocs + 1) / 2) call fail('comm_create size')
        call MPI_Comm_free(created)
    end if
    call MPI_Group_range_incl(world_group, 1, reshape([0, 0, 1], [3, 1]), first)
    call MPI_Group_size(first, size)
    if (size /= 1) call fail('group_range_incl')
    call MPI_Group_free(first)
    call MPI_Group_free(evens)
    call MPI_Group_free(odds)
    call MPI_Group_free(both)
    call MPI_Group_free(none)
    call MPI_Group_free(world_group)
    if (world_group /= MPI_GROUP_NULL) call fail('group_free')

    ! Info.
    call MPI_Info_create(info)
    call MPI_Info_set(info, 'color', 'blue')
    call MPI_Info_get_nkeys(info, nkeys)
    call MPI_Info_dup(info, info2)
    length = len(info_value)
    call MPI_Info_get_string(info2, 'color', length, info_value, flag)
    if (nkeys /= 1 .or. .not. flag .or. info_value /= 'blue' .or. length /= 4) call fail('info')
    call MPI_Info_get_nthkey(info2, 0, name)
    if (name /= 'color') call fail('info nthkey')
    call MPI_Info_delete(info2, 'color')
    call MPI_Info_get_nkeys(info2, nkeys)
    if (nkeys /= 0) call fail('info delete')
    call MPI_Info_free(info)
    call MPI_Info_free(info2)

    ! Errors: MPI_ERRORS_RETURN gives the code in IERROR; a user handler sees it first.
    call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
    call MPI_Send(rank, 1, MPI_INTEGER, nprocs, 0, dup, ierr)
    call MPI_Error_class(ierr, class)
    if (ierr == MPI_SUCCESS .or. class /= MPI_ERR_RANK) call fail('errors_return class')
    call MPI_Error_string(ierr, message, length)
    if (length <= 0 .or. len_trim(message) /= length) call fail('error_string')
    call MPI_Comm_create_errhandler(record_error, handler)
    call MPI_Comm_set_errhandler(dup, handler)
    call MPI_Errhandler_free(handler)
    call MPI_Comm_get_errhandler(dup, handler)
    call MPI_Bcast(rank, 1, MPI_DATATYPE_NULL, 0, dup, ierr)
    call MPI_Error_class(ierr, class)
    if (handler_calls /= 1 .or. handler_code /= ierr .or. class /= MPI_ERR_TYPE) &
        call fail('user errhandler')
    call MPI_Errhandler_free(handler)

    ! Attributes: a keyval with f08 callbacks, and MPI_COMM_DUP_FN.
    call MPI_Comm_create_keyval(copy_plus_one, count_delete, keyval, 77_MPI_ADDRESS_KIND)
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval2, &
                                0_MPI_ADDRESS_KIND)
    call MPI_Comm_set_attr(dup, keyval, 1000_MPI_ADDRESS_KIND)
    call MPI_Comm_set_attr(dup, keyval2, 55_MPI_ADDRESS_KIND)
    call MPI_Comm_dup(dup, half)
    call MPI_Comm_get_attr(half, keyval, value, flag)
    if (.not. flag .or. value /= 1001) call fail('attr copy callback')
    call MPI_Comm_get_attr(half, keyval2, value, flag)
    if (.not. flag .or. value /= 55) call fail('MPI_COMM_DUP_FN')
    call MPI_Comm_delete_attr(half, keyval)
    if (deletes /= 1) call fail('attr delete callback')
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag)
    if (.not. flag .or. value < 32767) call fail('MPI_TAG_UB')
    call MPI_Comm_free(half)
    call MPI_Comm_free(dup)
    if (deletes /= 2 .or. dup /= MPI_COMM_NULL) call fail('comm_free deletes')
    call MPI_Comm_free_keyval(keyval)
    call MPI_Comm_free_keyval(keyval2)
    call MPI_Comm_free(split)
    call MPI_Comm_free(shared)

    deallocate(members)
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
    call MPI_Finalized(flag)
    if (.not. flag) errs = errs + 1
    if (errs /= 0) stop 1
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program f08_comm
