/* test_select.c - unit test of src/coll/select.c and the NODEMPI_COLL_<OP> tunables: every
 * choice string of src/coll/select.h names exactly the algorithms of its selection table, in
 * table order, and every NODEMPI_COLL_<OP> variable lands in the slot of its collective. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/select.h"
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

static const struct {
    enum coll_kind kind;
    const char *variable;
} variables[] = {
    {COLL_BARRIER, "NODEMPI_COLL_BARRIER"},
    {COLL_BCAST, "NODEMPI_COLL_BCAST"},
    {COLL_REDUCE, "NODEMPI_COLL_REDUCE"},
    {COLL_ALLREDUCE, "NODEMPI_COLL_ALLREDUCE"},
    {COLL_GATHER, "NODEMPI_COLL_GATHER"},
    {COLL_GATHERV, "NODEMPI_COLL_GATHERV"},
    {COLL_SCATTER, "NODEMPI_COLL_SCATTER"},
    {COLL_SCATTERV, "NODEMPI_COLL_SCATTERV"},
    {COLL_ALLGATHER, "NODEMPI_COLL_ALLGATHER"},
    {COLL_ALLGATHERV, "NODEMPI_COLL_ALLGATHERV"},
    {COLL_ALLTOALL, "NODEMPI_COLL_ALLTOALL"},
    {COLL_ALLTOALLV, "NODEMPI_COLL_ALLTOALLV"},
    {COLL_ALLTOALLW, "NODEMPI_COLL_ALLTOALLW"},
    {COLL_REDUCE_SCATTER, "NODEMPI_COLL_REDUCE_SCATTER"},
    {COLL_REDUCE_SCATTER_BLOCK, "NODEMPI_COLL_REDUCE_SCATTER_BLOCK"},
    {COLL_SCAN, "NODEMPI_COLL_SCAN"},
    {COLL_EXSCAN, "NODEMPI_COLL_EXSCAN"},
};
#define NVARS (int)(sizeof(variables) / sizeof(variables[0]))

int main(void)
{
    CHECK(NVARS == COLL_NEIGHBOR_ALLGATHER, "a collective without a NODEMPI_COLL_ variable");
    for (int v = 0; v < NVARS; v++) {
        enum coll_kind kind = variables[v].kind;
        char expect[512] = "auto";
        int n = 0;
        for (const char *name; (name = coll_algorithm_name(kind, n)); n++) {
            strcat(expect, "|");
            strcat(expect, name);
        }
        CHECK(n > 0, "%s: empty table", variables[v].variable);
        CHECK(strcmp(expect, coll_algorithm_choices(kind)) == 0, "%s: choices \"%s\" but table "
              "\"%s\"", variables[v].variable, coll_algorithm_choices(kind), expect);

        /* the last algorithm by name must land in this collective's slot as index n */
        setenv(variables[v].variable, coll_algorithm_name(kind, n - 1), 1);
        core_config_load();
        CHECK(core_config.coll_algorithm[kind] == n, "%s=%s gave slot value %d, want %d",
              variables[v].variable, coll_algorithm_name(kind, n - 1),
              core_config.coll_algorithm[kind], n);
        for (int other = 0; other < COLL_CONFIG_SLOTS; other++)
            CHECK(other == (int)kind || core_config.coll_algorithm[other] == 0,
                  "%s also changed slot %d", variables[v].variable, other);
        unsetenv(variables[v].variable);
        core_config_load();
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_select: all checks passed\n");
    return 0;
}
