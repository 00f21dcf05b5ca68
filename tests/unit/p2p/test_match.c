/* test_match.c - the matching queues alone: posted receives and unexpected messages match in
 * order, wildcards only on the receive side, contexts never mix, unposting (cancel) works. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/internal.h"

static int failures;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static struct core_request *posted(int source, int tag)
{
    struct core_request *r = calloc(1, sizeof(*r));
    r->peer = source;
    r->tag = tag;
    return r;
}

static struct p2p_unexpected *arrived(int src, int tag)
{
    struct p2p_unexpected *u = calloc(1, sizeof(*u));
    u->src = src;
    u->tag = tag;
    return u;
}

static void test_posted_order_and_wildcards(void)
{
    struct p2p_match_queues *q = p2p_queues(10);
    struct core_request *any = posted(MPI_ANY_SOURCE, 5);
    struct core_request *from2 = posted(2, MPI_ANY_TAG);
    struct core_request *exact = posted(2, 5);
    p2p_post(q, any);
    p2p_post(q, from2);
    p2p_post(q, exact);
    CHECK(p2p_match_posted(q, 3, 4) == NULL);  /* nobody accepts source 3 tag 4 */
    CHECK(p2p_match_posted(q, 2, 5) == any);   /* oldest first, even if a later one is exact */
    CHECK(p2p_match_posted(q, 2, 5) == from2);
    CHECK(p2p_match_posted(q, 2, 5) == exact);
    CHECK(p2p_match_posted(q, 2, 5) == NULL);
    free(any);
    free(from2);
    free(exact);
}

static void test_contexts_are_separate(void)
{
    struct core_request *r = posted(MPI_ANY_SOURCE, MPI_ANY_TAG);
    p2p_post(p2p_queues(20), r);
    CHECK(p2p_match_posted(p2p_queues(21), 0, 0) == NULL);
    CHECK(p2p_match_posted(p2p_queues(20), 0, 0) == r);
    free(r);
}

static void test_unexpected_order(void)
{
    struct p2p_match_queues *q = p2p_queues(30);
    struct p2p_unexpected *a = arrived(1, 7), *b = arrived(2, 7), *c = arrived(1, 8);
    p2p_unexpected_append(q, a);
    p2p_unexpected_append(q, b);
    p2p_unexpected_append(q, c);
    CHECK(p2p_match_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG) == a);
    CHECK(p2p_match_unexpected(q, 1, 8) == c);
    CHECK(p2p_match_unexpected(q, 2, MPI_ANY_TAG) == b);
    CHECK(p2p_match_unexpected(q, 3, MPI_ANY_TAG) == NULL);
    p2p_unexpected_remove(q, a);
    CHECK(p2p_match_unexpected(q, MPI_ANY_SOURCE, 7) == b);
    p2p_unexpected_remove(q, c);
    p2p_unexpected_remove(q, b);
    CHECK(q->unexpected_head == NULL && q->unexpected_tail == NULL);
    free(a);
    free(b);
    free(c);
}

static void test_unpost(void)
{
    struct p2p_match_queues *q = p2p_queues(40);
    struct core_request *a = posted(0, 1), *b = posted(0, 1), *c = posted(0, 1);
    p2p_post(q, a);
    p2p_post(q, b);
    p2p_post(q, c);
    CHECK(p2p_unpost(q, b) == 1);
    CHECK(p2p_unpost(q, b) == 0); /* a second cancel finds nothing */
    CHECK(p2p_match_posted(q, 0, 1) == a);
    CHECK(p2p_match_posted(q, 0, 1) == c);
    CHECK(p2p_unpost(q, a) == 0); /* matched receives cannot be cancelled */
    free(a);
    free(b);
    free(c);
}

static void test_many_contexts(void)
{
    /* Enough contexts to grow the table several times; all stay findable. */
    for (uint32_t ctx = 1000; ctx < 3000; ctx += 2)
        p2p_queues(ctx)->posted_head = (struct core_request *)(uintptr_t)ctx;
    for (uint32_t ctx = 1000; ctx < 3000; ctx += 2)
        CHECK(p2p_queues(ctx)->posted_head == (struct core_request *)(uintptr_t)ctx);
    for (uint32_t ctx = 1000; ctx < 3000; ctx += 2)
        p2p_queues(ctx)->posted_head = NULL;
}

int main(void)
{
    test_posted_order_and_wildcards();
    test_contexts_are_separate();
    test_unexpected_order();
    test_unpost();
    test_many_contexts();
    p2p_free_queues();
    if (failures)
        return 1;
    printf("matching: all checks passed\n");
    return 0;
}
