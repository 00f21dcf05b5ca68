/* unit_check.h - what the unit tests (tests/unit/<layer>/test_*.c, no MPI runtime) share: the
 * CHECK macro that counts and reports failures without stopping, and the closing summary.
 * Header-only; include it as "../common/unit_check.h". */
#ifndef NODEMPI_UNIT_CHECK_H
#define NODEMPI_UNIT_CHECK_H

#include <stdio.h>

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

/* The exit status of main: 1 and the number of failed checks, or 0 and "<name>: all checks
 * passed". */
static inline int unit_finish(const char *name)
{
    if (failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
