/* test_config.c - unit test of src/core/config.c as the MPI_T control variables use it: the
 * table is exposed whole, core_config_set takes sizes, unsigned values and choice indices (and
 * refuses an index outside the choices), a written entry counts as explicitly set, and
 * core_config_load_once keeps tool writes where core_config_load starts afresh, and an invalid
 * environment value is reported on stderr with its choices in closed parentheses (the message
 * lacked the ")" until a session that ran Boost.MPI's tests under each NODEMPI_QUEUE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"

static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

/* The message core_config_load prints for NODEMPI_QUEUE=rings (not a design name), read back from
 * a temporary file standing in for stderr. */
static void check_invalid_value_message(void)
{
    FILE *capture = tmpfile();
    CHECK(capture != NULL, "tmpfile");
    if (!capture)
        return;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(capture), STDERR_FILENO);
    setenv("NODEMPI_QUEUE", "rings", 1);
    int rc = core_config_load();
    unsetenv("NODEMPI_QUEUE");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char line[256] = "";
    rewind(capture);
    if (!fgets(line, sizeof(line), capture))
        line[0] = '\0';
    fclose(capture);
    CHECK(rc != 0, "an invalid value fails the load");
    CHECK(strcmp(line, "nodempi: MPI_Init: invalid value 'rings' for NODEMPI_QUEUE (expected "
                       "auto|pair|orq|cor|hybrid); using auto\n") == 0,
          "message: %s", line);
}

static const struct core_config_entry *entry(const char *name)
{
    size_t count;
    const struct core_config_entry *table = core_config_table(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

int main(void)
{
    unsetenv("NODEMPI_EAGER_LIMIT");
    unsetenv("NODEMPI_CMA_THRESHOLD");
    unsetenv("NODEMPI_SKEW");
    CHECK(core_config_load_once() == 0, "load");
    size_t count;
    const struct core_config_entry *table = core_config_table(&count);
    CHECK(count >= 33 && table[0].name, "%zu entries", count);
    for (size_t i = 0; i < count; i++) {
        CHECK(strncmp(table[i].name, "NODEMPI_", 8) == 0 && table[i].meaning &&
                  table[i].target && table[i].default_value,
              "entry %zu incomplete", i);
        CHECK((table[i].kind == CORE_CONFIG_CHOICE) == (table[i].choices != NULL),
              "%s: choices iff a choice", table[i].name);
        CHECK(table[i].kind != CORE_CONFIG_STRING || table[i].change == CORE_CONFIG_AT_INIT,
              "%s: strings are set at MPI_Init", table[i].name);
    }

    const struct core_config_entry *eager = entry("NODEMPI_EAGER_LIMIT");
    const struct core_config_entry *cma = entry("NODEMPI_CMA_THRESHOLD");
    const struct core_config_entry *skew = entry("NODEMPI_SKEW");
    const struct core_config_entry *spin = entry("NODEMPI_SPIN_ROUNDS");
    CHECK(eager && cma && skew && spin, "entries missing");
    if (!eager || !cma || !skew || !spin)
        return 1;
    CHECK(core_config.eager_limit == 4096, "default eager limit %zu", core_config.eager_limit);
    size_t limit = 65536;
    CHECK(core_config_set(eager, &limit) == 0 && core_config.eager_limit == 65536, "size write");
    unsigned rounds = 7;
    CHECK(core_config_set(spin, &rounds) == 0 && core_config.spin_rounds == 7, "unsigned write");
    int off = 0, bad = 2, negative = -1;
    CHECK(core_config_set(skew, &off) == 0 && core_config.skew == 0, "choice write");
    CHECK(core_config_set(skew, &bad) != 0 && core_config.skew == 0, "choice 2 of off|on");
    CHECK(core_config_set(skew, &negative) != 0 && core_config.skew == 0, "choice -1");

    CHECK(!core_config_is_set("NODEMPI_CMA_THRESHOLD"), "threshold not set yet");
    size_t threshold = 1 << 20;
    core_config_set(cma, &threshold);
    CHECK(core_config_is_set("NODEMPI_CMA_THRESHOLD"), "a written entry counts as set");

    CHECK(core_config_load_once() == 0 && core_config.eager_limit == 65536,
          "load_once keeps a tool's write");
    CHECK(core_config_load() == 0 && core_config.eager_limit == 4096 &&
              !core_config_is_set("NODEMPI_CMA_THRESHOLD"),
          "load starts afresh");
    check_invalid_value_message();
    if (failures == 0)
        printf("test_config: ok\n");
    return failures ? 1 : 0;
}
