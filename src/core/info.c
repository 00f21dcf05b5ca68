/* info.c - info objects (an insertion-ordered array of key/value strings) and MPI_INFO_ENV.
 * Info objects are small (a handful of hints), so lookups are linear scans. MPI_INFO_ENV is
 * filled on first use from /proc/self (command line, cwd), uname, the runtime state and what
 * mpiexec passes (NODEMPI_INFO_*); it is one static object that MPI_Info_free refuses to free. */
#include "core/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/init.h"
#include "core/state.h"

static struct core_info env_info = {1, 0, 0, NULL};
static int env_filled;

struct core_info *core_info_new(void)
{
    return calloc(1, sizeof(struct core_info));
}

static void info_clear(struct core_info *info)
{
    for (int i = 0; i < info->nkeys; i++) {
        free(info->entries[i].key);
        free(info->entries[i].value);
    }
    free(info->entries);
    info->entries = NULL;
    info->nkeys = info->capacity = 0;
}

void core_info_free(struct core_info *info)
{
    if (!info || info->predefined)
        return;
    info_clear(info);
    free(info);
}

static int find_key(const struct core_info *info, const char *key)
{
    for (int i = 0; i < info->nkeys; i++)
        if (strcmp(info->entries[i].key, key) == 0)
            return i;
    return -1;
}

const char *core_info_get(const struct core_info *info, const char *key)
{
    int i = find_key(info, key);
    return i >= 0 ? info->entries[i].value : NULL;
}

int core_info_set(struct core_info *info, const char *key, const char *value)
{
    char *copy = strdup(value);
    if (!copy)
        return MPI_ERR_NO_MEM;
    int i = find_key(info, key);
    if (i >= 0) {
        free(info->entries[i].value);
        info->entries[i].value = copy;
        return MPI_SUCCESS;
    }
    if (info->nkeys == info->capacity) {
        int capacity = info->capacity ? 2 * info->capacity : 8;
        struct core_info_entry *grown =
            realloc(info->entries, sizeof(*grown) * (size_t)capacity);
        if (!grown) {
            free(copy);
            return MPI_ERR_NO_MEM;
        }
        info->entries = grown;
        info->capacity = capacity;
    }
    char *key_copy = strdup(key);
    if (!key_copy) {
        free(copy);
        return MPI_ERR_NO_MEM;
    }
    info->entries[info->nkeys].key = key_copy;
    info->entries[info->nkeys].value = copy;
    info->nkeys++;
    return MPI_SUCCESS;
}

int core_info_delete(struct core_info *info, const char *key)
{
    int i = find_key(info, key);
    if (i < 0)
        return MPI_ERR_INFO_NOKEY;
    free(info->entries[i].key);
    free(info->entries[i].value);
    memmove(&info->entries[i], &info->entries[i + 1],
            sizeof(info->entries[0]) * (size_t)(info->nkeys - i - 1));
    info->nkeys--;
    return MPI_SUCCESS;
}

int core_info_dup(const struct core_info *info, struct core_info **out)
{
    struct core_info *copy = core_info_new();
    if (!copy)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < info->nkeys; i++) {
        if (core_info_set(copy, info->entries[i].key, info->entries[i].value) != MPI_SUCCESS) {
            core_info_free(copy);
            return MPI_ERR_NO_MEM;
        }
    }
    *out = copy;
    return MPI_SUCCESS;
}

/* ---- MPI_INFO_ENV ------------------------------------------------------------------------- */

/* The command line from /proc/self/cmdline: "command" is argv[0], "argv" the rest joined by
 * spaces (what mpiexec was given after the program name). */
static void env_add_command_line(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return;
    char buf[MPI_MAX_INFO_VAL];
    size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    if (len == 0)
        return;
    core_info_set(&env_info, "command", buf);
    size_t first = strlen(buf) + 1;
    if (first >= len)
        return;
    for (size_t i = first; i + 1 < len; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    core_info_set(&env_info, "argv", buf + first);
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "MPI_THREAD_SINGLE";
    }
}

/* mpiexec passes what the user gave for the rank's program (-n, -soft, -host, -arch) as
 * NODEMPI_INFO_<KEY>; without it a key gets what the rank can find out itself, if anything. */
static const char *launcher_value(const char *key)
{
    char name[64];
    snprintf(name, sizeof(name), "NODEMPI_INFO_%s", key);
    const char *value = getenv(name);
    return value && *value ? value : NULL;
}

static void env_fill(void)
{
    char value[MPI_MAX_INFO_VAL];
    env_filled = 1;
    if (nodempi.initialized && !nodempi.finalized)
        core_at_finalize(core_info_finalize);
    env_add_command_line();
    snprintf(value, sizeof(value), "%d", nodempi.world_size > 0 ? nodempi.world_size : 1);
    const char *given = launcher_value("MAXPROCS");
    core_info_set(&env_info, "maxprocs", given ? given : value);
    if ((given = launcher_value("SOFT")))
        core_info_set(&env_info, "soft", given);
    if ((given = launcher_value("HOST"))) {
        core_info_set(&env_info, "host", given);
    } else if (gethostname(value, sizeof(value)) == 0) {
        value[sizeof(value) - 1] = '\0';
        core_info_set(&env_info, "host", value);
    }
    struct utsname names;
    if ((given = launcher_value("ARCH")))
        core_info_set(&env_info, "arch", given);
    else if (uname(&names) == 0)
        core_info_set(&env_info, "arch", names.machine);
    if (getcwd(value, sizeof(value)))
        core_info_set(&env_info, "wdir", value);
    core_info_set(&env_info, "thread_level", thread_level_name(nodempi.thread_level));
}

struct core_info *core_info_from_handle(MPI_Info handle)
{
    if (handle == MPI_INFO_ENV) {
        if (!env_filled)
            env_fill();
        return &env_info;
    }
    if ((uintptr_t)handle < 0x1000)
        return NULL;
    return (struct core_info *)handle;
}

MPI_Info core_info_to_handle(const struct core_info *info)
{
    if (info == &env_info)
        return MPI_INFO_ENV;
    return info ? (MPI_Info)info : MPI_INFO_NULL;
}

void core_info_finalize(void)
{
    info_clear(&env_info);
    env_filled = 0;
}
