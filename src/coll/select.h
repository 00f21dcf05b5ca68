/* select.h - names of the algorithms each collective can run, in the order of the selection
 * tables of src/coll/select.c. core/config.c builds its NODEMPI_COLL_<OP> entries from these
 * strings (index 0 "auto" = the table decides; index i = algorithm i of the table), so the
 * names users type and the algorithms that exist cannot drift apart (tests/unit/coll checks
 * that every name here has a builder). Macros only: no code, no dependency on coll. */
#ifndef NODEMPI_COLL_SELECT_H
#define NODEMPI_COLL_SELECT_H

#define COLL_BARRIER_CHOICES "auto|dissemination|linear|tree"
#define COLL_BCAST_CHOICES "auto|binomial|scatter_allgather|linear"
#define COLL_REDUCE_CHOICES "auto|binomial|reduce_scatter_gather|linear"
#define COLL_ALLREDUCE_CHOICES "auto|recursive_doubling|rabenseifner|ring|reduce_bcast"
#define COLL_GATHER_CHOICES "auto|binomial|linear"
#define COLL_GATHERV_CHOICES "auto|linear"
#define COLL_SCATTER_CHOICES "auto|binomial|linear"
#define COLL_SCATTERV_CHOICES "auto|linear"
#define COLL_ALLGATHER_CHOICES "auto|recursive_doubling|bruck|ring|linear"
#define COLL_ALLGATHERV_CHOICES "auto|ring|linear"
#define COLL_ALLTOALL_CHOICES "auto|bruck|linear|pairwise"
#define COLL_ALLTOALLV_CHOICES "auto|linear|pairwise"
#define COLL_ALLTOALLW_CHOICES "auto|linear|pairwise"
#define COLL_REDUCE_SCATTER_CHOICES "auto|ring|reduce_scatterv|recursive_halving"
#define COLL_REDUCE_SCATTER_BLOCK_CHOICES "auto|recursive_halving|ring|reduce_scatter"
#define COLL_SCAN_CHOICES "auto|recursive_doubling|linear"
#define COLL_EXSCAN_CHOICES "auto|recursive_doubling|linear"

/* Slots in core_config.coll_algorithm, indexed by enum coll_kind (src/coll/coll.h). */
#define COLL_CONFIG_SLOTS 24

#endif
