/* copy_choice.h - how blocking collectives have their rendezvous messages copied
 * (copy_choice.c). */
#ifndef NODEMPI_COLL_COPY_CHOICE_H
#define NODEMPI_COLL_COPY_CHOICE_H

#include "coll/coll.h"

/* Before a blocking collective: 1 when a hint was set (then call _end after it). */
int coll_copy_choice_begin(const struct coll_args *a);
void coll_copy_choice_end(void);

#endif
