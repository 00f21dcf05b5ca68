/* soft.c - parse -soft triplets and pick the largest allowed count.
 * MPI 4.1 11.5 (and the "soft" key of MPI_Comm_spawn): "a" allows a; "a:b" allows a, a+1,
 * ..., b; "a:b:c" allows a, a+c, a+2c, ... not past b (c may be negative, counting down).
 * Triplets are comma-separated; the set is their union. */
#include "soft.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads one number at *p and moves past it; counts must be positive, strides non-zero. */
static bool read_number(const char **p, long *value)
{
    char *end = NULL;
    errno = 0;
    *value = strtol(*p, &end, 10);
    if (end == *p || errno || *value > (1L << 30) || *value < -(1L << 30))
        return false;
    *p = end;
    return true;
}

/* The largest member of the triplet a:b:c that is at most limit, or 0 when none is. */
static long largest_member(long a, long b, long c, long limit)
{
    if (c > 0) {
        if (a > limit || a > b)
            return 0;
        long top = b < limit ? b : limit;
        return a + (top - a) / c * c;
    }
    if (a < b) /* counting down from a never reaches b */
        return 0;
    /* a, a+c, ... down to b: the first member at most limit */
    if (a <= limit)
        return a;
    long steps = (a - limit + (-c) - 1) / (-c);
    long member = a + steps * c;
    return member >= b ? member : 0;
}

/* One triplet at *p; false when malformed. */
static bool read_triplet(const char **p, long *a, long *b, long *c)
{
    *c = 1;
    if (!read_number(p, a))
        return false;
    *b = *a;
    if (**p == ':') {
        ++*p;
        if (!read_number(p, b))
            return false;
        if (**p == ':') {
            ++*p;
            if (!read_number(p, c) || *c == 0)
                return false;
        }
    }
    return *a >= 1 && *b >= 1 && (**p == ',' || **p == '\0');
}

bool soft_pick_largest(const char *text, int limit, const char *spelling, int *chosen)
{
    long best = 0;
    for (const char *p = text;;) {
        long a, b, c;
        if (!read_triplet(&p, &a, &b, &c)) {
            fprintf(stderr,
                    "mpiexec: %s needs comma-separated counts a, a:b or a:b:c (positive, "
                    "stride not 0), not '%s'\n",
                    spelling, text);
            return false;
        }
        long member = largest_member(a, b, c, limit);
        if (member > best)
            best = member;
        if (*p == '\0')
            break;
        p++;
    }
    if (best < 1) {
        fprintf(stderr, "mpiexec: %s '%s' allows no rank count from 1 to %d\n", spelling, text,
                limit);
        return false;
    }
    *chosen = (int)best;
    return true;
}
