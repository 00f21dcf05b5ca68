/* soft.h - the MPI standard's "soft" rank counts (mpiexec -soft, the "soft" info key): a comma
 * list of triplets a, a:b or a:b:c naming the counts a job may start with. One node can start
 * any count, so the launcher takes the largest one the user allows. */
#ifndef NODEMPI_MPIEXEC_SOFT_H
#define NODEMPI_MPIEXEC_SOFT_H

#include <stdbool.h>

/* The largest count of text that is at most limit, in *chosen. False after a message naming
 * spelling when text is malformed or allows no count from 1 to limit. */
bool soft_pick_largest(const char *text, int limit, const char *spelling, int *chosen);

#endif
