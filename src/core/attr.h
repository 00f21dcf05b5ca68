/* attr.h - keyvals and attribute lists for communicators, datatypes and windows.
 * An object that carries attributes owns one `void *` list head (struct core_comm.attributes,
 * struct dt_type.attributes, the window's) initialised to NULL; every operation takes the
 * object's kind, its list head and its MPI handle (passed to the user's callbacks). Copy
 * callbacks run on dup (core_attr_copy_all), delete callbacks on delete/replace/free
 * (core_attr_delete_all, newest attribute first). Predefined attributes (MPI_TAG_UB, ...) are
 * the API layer's: they never enter these lists. */
#ifndef NODEMPI_CORE_ATTR_H
#define NODEMPI_CORE_ATTR_H

#include <mpi.h>

enum core_attr_kind { CORE_ATTR_COMM, CORE_ATTR_TYPE, CORE_ATTR_WIN };

/* Callbacks of any kind, stored untyped; attr.c calls them through the kind's real type.
 * The ABI's MPI_*_NULL_COPY_FN / NULL_DELETE_FN (0) and MPI_*_DUP_FN (1) are recognised. */
typedef void core_attr_callback(void);

/* Keyvals: ints above every predefined attribute key. A freed keyval stays alive until the
 * last attribute using it is deleted, so its delete callback still runs. */
int core_keyval_create(enum core_attr_kind kind, core_attr_callback *copy_fn,
                       core_attr_callback *delete_fn, void *extra_state, int *keyval);
int core_keyval_free(enum core_attr_kind kind, int keyval);          /* MPI_ERR_KEYVAL */
int core_keyval_check(enum core_attr_kind kind, int keyval);         /* MPI_ERR_KEYVAL */

/* Set (running the delete callback on a replaced value first), get, delete. The error of a
 * failing user callback is returned as is (the attribute is then left in place). */
int core_attr_set(enum core_attr_kind kind, void **list, void *handle, int keyval, void *value);
int core_attr_get(enum core_attr_kind kind, void *list, int keyval, void **value, int *flag);
int core_attr_delete(enum core_attr_kind kind, void **list, void *handle, int keyval);

/* Dup: copy every attribute of src (owned by old_handle) whose copy callback says so into
 * *dst (empty on entry). On a callback error the copies made so far are dropped without
 * delete callbacks (the new object never existed) and the error is returned. */
int core_attr_copy_all(enum core_attr_kind kind, void *src, void *old_handle, void **dst);
/* Free: delete every attribute, newest first. Stops at the first callback error. */
int core_attr_delete_all(enum core_attr_kind kind, void **list, void *handle);

/* Forget every attribute without calling delete callbacks (objects being torn down after a
 * callback already failed). */
void core_attr_drop_all(void **list);

/* Fortran (src/fortran/attributes.c). A Fortran attribute value is a number: it is stored in
 * the attribute itself and C sees a pointer to it (MPI-4.1 19.3.7); a keyval created in Fortran
 * hands its callbacks the value as Fortran sees it (the number, or a C value's address). */
int core_keyval_make_fortran(enum core_attr_kind kind, int keyval);  /* MPI_ERR_KEYVAL */
/* The attribute keyval of *list, just set by core_attr_set with value, becomes Fortran's. */
void core_attr_make_fortran(void *list, int keyval, MPI_Aint value);
/* The value as Fortran sees it: its number, or a C attribute's pointer as a number. */
void core_attr_get_fortran(void *list, int keyval, MPI_Aint *value, int *flag);

/* MPI_Finalize: drop the keyval table. */
void core_attr_finalize(void);

#endif
