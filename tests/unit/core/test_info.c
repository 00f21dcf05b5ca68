/* test_info.c - unit test of src/core/info.c: insertion order, replace in place, delete,
 * dup independence, and MPI_INFO_ENV's keys. */
#include <stdio.h>
#include <string.h>

#include "core/info.h"

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

int main(void)
{
    struct core_info *info = core_info_new(), *copy = NULL;
    char key[32], value[32];
    for (int i = 0; i < 40; i++) {
        snprintf(key, sizeof(key), "key%02d", 39 - i);
        snprintf(value, sizeof(value), "v%d", i);
        CHECK(core_info_set(info, key, value) == MPI_SUCCESS, "set %s", key);
    }
    CHECK(info->nkeys == 40, "nkeys %d", info->nkeys);
    CHECK(strcmp(info->entries[0].key, "key39") == 0, "order: first key %s",
          info->entries[0].key);
    core_info_set(info, "key39", "replaced");
    CHECK(info->nkeys == 40 && strcmp(info->entries[0].value, "replaced") == 0,
          "replace moved or duplicated the key");
    CHECK(core_info_delete(info, "key20") == MPI_SUCCESS, "delete");
    CHECK(core_info_delete(info, "key20") == MPI_ERR_INFO_NOKEY, "delete twice");
    CHECK(core_info_get(info, "key20") == NULL, "deleted key found");
    CHECK(strcmp(info->entries[19].key, "key19") == 0, "order after delete: %s",
          info->entries[19].key);
    CHECK(core_info_dup(info, &copy) == MPI_SUCCESS && copy->nkeys == 39, "dup");
    core_info_set(copy, "key00", "changed");
    CHECK(strcmp(core_info_get(info, "key00"), "v39") == 0, "dup shares values");
    core_info_free(copy);
    core_info_free(info);

    struct core_info *env = core_info_from_handle(MPI_INFO_ENV);
    CHECK(env && env->predefined, "MPI_INFO_ENV");
    const char *command = env ? core_info_get(env, "command") : NULL;
    CHECK(command && strstr(command, "test_info"), "command = %s", command ? command : "(none)");
    CHECK(env && core_info_get(env, "maxprocs"), "maxprocs missing");
    CHECK(env && core_info_get(env, "host") && core_info_get(env, "arch") &&
              core_info_get(env, "wdir") && core_info_get(env, "thread_level"),
          "host/arch/wdir/thread_level missing");
    core_info_free(env); /* predefined: ignored */
    CHECK(core_info_from_handle(MPI_INFO_ENV)->nkeys > 0, "MPI_INFO_ENV freed");
    CHECK(core_info_from_handle(MPI_INFO_NULL) == NULL, "MPI_INFO_NULL");
    core_info_finalize();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_info: all passed\n");
    return 0;
}
