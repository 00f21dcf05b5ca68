/* test_attr.c - unit test of src/core/attr.c: keyval lifetime, set/get/delete, copy callbacks
 * (MPI_*_DUP_FN, NULL_COPY_FN, user functions, failing copies), delete callbacks (on
 * replace, delete, delete_all newest first, after the keyval was freed) and Fortran values
 * (numbers C sees by pointer, callbacks of Fortran keyvals see numbers). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

static int deleted[16], ndeleted;
static MPI_Comm delete_handle;

static int record_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    delete_handle = comm;
    deleted[ndeleted++] = (int)(intptr_t)value;
    return MPI_SUCCESS;
}

static int failing_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    return MPI_ERR_OTHER;
}

/* Copies value * 10 and counts calls through extra_state. */
static int times_ten(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (*(int *)extra)++;
    *(void **)out = (void *)((intptr_t)in * 10);
    *flag = 1;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

#define CB(f) ((core_attr_callback *)(f))
#define HANDLE ((void *)0x5000)

static void test_basic(void)
{
    void *list = NULL, *value;
    int key, flag = -1;
    CHECK(core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_NULL_COPY_FN), CB(record_delete), NULL,
                             &key) == MPI_SUCCESS, "create");
    CHECK(key != MPI_KEYVAL_INVALID && key > MPI_UNIVERSE_SIZE, "keyval %d", key);
    CHECK(core_attr_get(CORE_ATTR_COMM, list, key, &value, &flag) == MPI_SUCCESS && !flag,
          "unset attribute found");
    CHECK(core_attr_set(CORE_ATTR_COMM, &list, HANDLE, key, (void *)1) == MPI_SUCCESS, "set");
    CHECK(core_attr_get(CORE_ATTR_COMM, list, key, &value, &flag) == MPI_SUCCESS && flag &&
              value == (void *)1, "get after set");
    ndeleted = 0;
    CHECK(core_attr_set(CORE_ATTR_COMM, &list, HANDLE, key, (void *)2) == MPI_SUCCESS,
          "replace");
    CHECK(ndeleted == 1 && deleted[0] == 1, "replace did not delete the old value");
    CHECK(delete_handle == (MPI_Comm)HANDLE, "delete callback got the wrong handle");
    CHECK(core_attr_delete(CORE_ATTR_COMM, &list, HANDLE, key) == MPI_SUCCESS, "delete");
    CHECK(ndeleted == 2 && deleted[1] == 2, "delete callback not run");
    CHECK(core_attr_delete(CORE_ATTR_COMM, &list, HANDLE, key) == MPI_ERR_KEYVAL,
          "deleting an unset attribute succeeded");
    CHECK(list == NULL, "list not empty");
    /* wrong kind */
    CHECK(core_attr_set(CORE_ATTR_TYPE, &list, HANDLE, key, NULL) == MPI_ERR_KEYVAL,
          "comm keyval accepted for a datatype");
    CHECK(core_keyval_check(CORE_ATTR_WIN, key) == MPI_ERR_KEYVAL, "comm keyval valid for win");
    CHECK(core_keyval_free(CORE_ATTR_COMM, key) == MPI_SUCCESS, "free");
    CHECK(core_keyval_free(CORE_ATTR_COMM, key) == MPI_ERR_KEYVAL, "double free");
    CHECK(core_attr_set(CORE_ATTR_COMM, &list, HANDLE, key, NULL) == MPI_ERR_KEYVAL,
          "freed keyval accepted");
    CHECK(core_keyval_check(CORE_ATTR_COMM, MPI_TAG_UB) == MPI_ERR_KEYVAL,
          "predefined key is a user keyval");
}

static void test_copy_and_free(void)
{
    int calls = 0;
    int k_dup, k_null, k_user, k_late;
    core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_DUP_FN), CB(record_delete), NULL, &k_dup);
    core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_NULL_COPY_FN), CB(record_delete), NULL,
                       &k_null);
    core_keyval_create(CORE_ATTR_COMM, CB(times_ten), CB(record_delete), &calls, &k_user);
    core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_DUP_FN), CB(record_delete), NULL, &k_late);
    void *src = NULL, *dst = NULL, *value;
    int flag;
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_dup, (void *)3);
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_null, (void *)4);
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_user, (void *)5);
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_late, (void *)6);
    CHECK(core_attr_copy_all(CORE_ATTR_COMM, src, HANDLE, &dst) == MPI_SUCCESS, "copy_all");
    CHECK(calls == 1, "user copy called %d times", calls);
    core_attr_get(CORE_ATTR_COMM, dst, k_dup, &value, &flag);
    CHECK(flag && value == (void *)3, "DUP_FN value not copied");
    core_attr_get(CORE_ATTR_COMM, dst, k_null, &value, &flag);
    CHECK(!flag, "NULL_COPY_FN attribute copied");
    core_attr_get(CORE_ATTR_COMM, dst, k_user, &value, &flag);
    CHECK(flag && value == (void *)50, "user copy value %p", value);

    /* freeing the keyval keeps attributes alive; delete callbacks still run */
    core_keyval_free(CORE_ATTR_COMM, k_late);
    ndeleted = 0;
    CHECK(core_attr_delete_all(CORE_ATTR_COMM, &src, HANDLE) == MPI_SUCCESS, "delete_all");
    CHECK(ndeleted == 4, "delete_all ran %d callbacks", ndeleted);
    int newest_first[] = {6, 5, 4, 3};
    CHECK(memcmp(deleted, newest_first, sizeof(newest_first)) == 0,
          "delete order %d %d %d %d", deleted[0], deleted[1], deleted[2], deleted[3]);
    ndeleted = 0;
    core_attr_delete_all(CORE_ATTR_COMM, &dst, HANDLE);
    CHECK(ndeleted == 3, "copied attributes: %d deletes", ndeleted);
    /* the freed keyval's slot is gone now that no attribute uses it */
    CHECK(core_keyval_check(CORE_ATTR_COMM, k_late) == MPI_ERR_KEYVAL, "freed keyval alive");

    /* a failing copy undoes the partial copy */
    int k_fail;
    core_keyval_create(CORE_ATTR_COMM, CB(failing_copy), CB(MPI_COMM_NULL_DELETE_FN), NULL,
                       &k_fail);
    src = dst = NULL;
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_dup, (void *)7);
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_fail, (void *)8);
    CHECK(core_attr_copy_all(CORE_ATTR_COMM, src, HANDLE, &dst) == MPI_ERR_OTHER,
          "failing copy not reported");
    CHECK(dst == NULL, "partial copy left behind");

    /* a failing delete keeps the attribute */
    int k_stuck;
    core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_NULL_COPY_FN), CB(failing_delete), NULL,
                       &k_stuck);
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_stuck, (void *)9);
    CHECK(core_attr_delete(CORE_ATTR_COMM, &src, HANDLE, k_stuck) == MPI_ERR_OTHER,
          "failing delete not reported");
    core_attr_get(CORE_ATTR_COMM, src, k_stuck, &value, &flag);
    CHECK(flag && value == (void *)9, "attribute lost after failing delete");
    core_attr_drop_all(&src);
    CHECK(src == NULL, "drop_all left attributes");
    core_attr_finalize();
}

static void test_fortran_values(void)
{
    int calls = 0, k_c, k_f;
    core_keyval_create(CORE_ATTR_COMM, CB(MPI_COMM_DUP_FN), CB(MPI_COMM_NULL_DELETE_FN), NULL,
                       &k_c);
    core_keyval_create(CORE_ATTR_COMM, CB(times_ten), CB(record_delete), &calls, &k_f);
    CHECK(core_keyval_make_fortran(CORE_ATTR_COMM, k_f) == MPI_SUCCESS, "make_fortran keyval");
    void *src = NULL, *dst = NULL, *value;
    MPI_Aint number;
    int flag;

    /* A number set from Fortran: C gets a pointer to it, Fortran the number. */
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_c, (void *)42);
    core_attr_make_fortran(src, k_c, 42);
    core_attr_get(CORE_ATTR_COMM, src, k_c, &value, &flag);
    CHECK(flag && value && *(MPI_Aint *)value == 42, "C view of a Fortran number");
    core_attr_get_fortran(src, k_c, &number, &flag);
    CHECK(flag && number == 42, "Fortran view of a Fortran number: %ld", (long)number);
    /* A C pointer read from Fortran is the address as a number. */
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_f, (void *)0x1234);
    core_attr_get_fortran(src, k_f, &number, &flag);
    CHECK(flag && number == 0x1234, "Fortran view of a C value");
    /* Fortran number under a Fortran keyval: its copy callback sees 5, makes a number. */
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_f, (void *)5);
    core_attr_make_fortran(src, k_f, 5);

    CHECK(core_attr_copy_all(CORE_ATTR_COMM, src, HANDLE, &dst) == MPI_SUCCESS, "copy_all");
    core_attr_get_fortran(dst, k_f, &number, &flag);
    CHECK(flag && number == 50 && calls == 1, "Fortran copy: %ld", (long)number);
    core_attr_get(CORE_ATTR_COMM, dst, k_f, &value, &flag);
    CHECK(flag && *(MPI_Aint *)value == 50, "C view of a Fortran copy");
    core_attr_get(CORE_ATTR_COMM, dst, k_c, &value, &flag);
    void *src_value;
    core_attr_get(CORE_ATTR_COMM, src, k_c, &src_value, &flag);
    CHECK(flag && *(MPI_Aint *)value == 42 && value != src_value,
          "MPI_COMM_DUP_FN copy of a Fortran number has its own cell");
    /* The delete callback of a Fortran keyval sees the number too. */
    ndeleted = 0;
    core_attr_delete(CORE_ATTR_COMM, &dst, HANDLE, k_f);
    CHECK(ndeleted == 1 && deleted[0] == 50, "Fortran delete saw %d", deleted[0]);
    /* Setting from C again makes it a C value. */
    core_attr_set(CORE_ATTR_COMM, &src, HANDLE, k_c, (void *)7);
    core_attr_get(CORE_ATTR_COMM, src, k_c, &value, &flag);
    CHECK(value == (void *)7, "C set after Fortran set");
    core_attr_drop_all(&src);
    core_attr_drop_all(&dst);
    core_keyval_free(CORE_ATTR_COMM, k_c);
    core_keyval_free(CORE_ATTR_COMM, k_f);
    core_attr_finalize();
}

int main(void)
{
    test_basic();
    test_copy_and_free();
    test_fortran_values();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_attr: all passed\n");
    return 0;
}
