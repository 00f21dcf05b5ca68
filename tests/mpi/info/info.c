/* info.c - info objects: set/get, MPI_Info_get_nthkey order (insertion order, replaced keys
 * keep their place), delete, dup independence, MPI_Info_get_string truncation and buflen,
 * MPI_Info_get_valuelen, MPI_INFO_ENV, MPI_Comm_set_info/get_info, and the error classes of
 * bad keys (MPI_ERR_INFO_KEY), missing keys (MPI_ERR_INFO_NOKEY) and bad n (MPI_ERR_ARG). */
#include "mpitest.h"

#if MPI_VERSION < 4
/* MPI-3 libraries (Open MPI 4.1) lack MPI_Info_get_string: the MPI-4 semantics on top of
 * MPI_Info_get_valuelen / MPI_Info_get, so the rest of the test still runs there. */
static int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value,
                               int *flag)
{
    int len = 0, rc = MPI_Info_get_valuelen(info, key, &len, flag);
    if (rc != MPI_SUCCESS || !*flag)
        return rc;
    if (*buflen > 0) {
        char *full = malloc((size_t)len + 1);
        MPI_Info_get(info, key, len, full, flag);
        snprintf(value, (size_t)*buflen, "%s", full);
        free(full);
    }
    *buflen = len + 1;
    return MPI_SUCCESS;
}
#endif

static void check_value(MPI_Info info, const char *key, const char *expect)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    MT_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    MT_CHECK(flag == (expect != NULL), "valuelen flag of \"%s\": %d", key, flag);
    if (!expect)
        return;
    MT_CHECK_INT((int)strlen(expect), len, "valuelen");
    int buflen = (int)sizeof(value);
    MT_MPI(MPI_Info_get_string(info, key, &buflen, value, &flag));
    MT_CHECK(flag && strcmp(value, expect) == 0, "value of \"%s\": \"%s\", expected \"%s\"", key,
             value, expect);
    MT_CHECK_INT((int)strlen(expect) + 1, buflen, "get_string buflen");
}

static void test_basic(void)
{
    MPI_Info info, copy;
    MT_MPI(MPI_Info_create(&info));
    int nkeys = -1;
    MPI_Info_get_nkeys(info, &nkeys);
    MT_CHECK_INT(0, nkeys, "nkeys of a new info");
    const char *keys[] = {"zeta", "alpha", "mpi_assert_no_any_tag", "middle", "b"};
    for (int i = 0; i < 5; i++) {
        char v[16];
        snprintf(v, sizeof(v), "value%d", i);
        MT_MPI(MPI_Info_set(info, keys[i], v));
    }
    MT_MPI(MPI_Info_set(info, "alpha", "replaced"));
    MPI_Info_get_nkeys(info, &nkeys);
    MT_CHECK_INT(5, nkeys, "nkeys after 5 sets and a replace");
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY];
        MT_MPI(MPI_Info_get_nthkey(info, i, key));
        MT_CHECK(strcmp(key, keys[i]) == 0, "nthkey %d: \"%s\", expected \"%s\"", i, key, keys[i]);
    }
    check_value(info, "alpha", "replaced");
    check_value(info, "zeta", "value0");
    check_value(info, "missing", NULL);

    /* MPI_Info_get (deprecated) truncates to valuelen characters */
    char small[8];
    int flag = -1;
    memset(small, 'x', sizeof(small));
    MT_MPI(MPI_Info_get(info, "alpha", 3, small, &flag));
    MT_CHECK(flag && strcmp(small, "rep") == 0, "MPI_Info_get truncation: \"%.8s\"", small);

    /* get_string: a short buffer gets a terminated prefix and the full length back */
    int buflen = 4;
    memset(small, 'x', sizeof(small));
    MT_MPI(MPI_Info_get_string(info, "alpha", &buflen, small, &flag));
    MT_CHECK(flag && strcmp(small, "rep") == 0, "get_string truncation: \"%.8s\"", small);
    MT_CHECK_INT(9, buflen, "get_string buflen after truncation");
    buflen = 0;
    MT_MPI(MPI_Info_get_string(info, "alpha", &buflen, NULL, &flag));
    MT_CHECK(flag && buflen == 9, "get_string length query: flag %d buflen %d", flag, buflen);
    buflen = 7;
    MT_MPI(MPI_Info_get_string(info, "missing", &buflen, small, &flag));
    MT_CHECK(!flag && buflen == 7, "get_string of a missing key: flag %d buflen %d", flag,
             buflen);

    /* dup is independent */
    MT_MPI(MPI_Info_dup(info, &copy));
    MT_MPI(MPI_Info_delete(info, "middle"));
    MT_MPI(MPI_Info_set(copy, "zeta", "changed"));
    check_value(info, "middle", NULL);
    check_value(copy, "middle", "value3");
    check_value(info, "zeta", "value0");
    check_value(copy, "zeta", "changed");
    MPI_Info_get_nkeys(info, &nkeys);
    MT_CHECK_INT(4, nkeys, "nkeys after delete");
    char key[MPI_MAX_INFO_KEY];
    MPI_Info_get_nthkey(info, 3, key);
    MT_CHECK(strcmp(key, "b") == 0, "order after delete: \"%s\"", key);
    /* a maximal key and value */
    char long_key[MPI_MAX_INFO_KEY], long_value[MPI_MAX_INFO_VAL];
    memset(long_key, 'k', sizeof(long_key) - 1);
    long_key[sizeof(long_key) - 1] = '\0';
    memset(long_value, 'v', sizeof(long_value) - 1);
    long_value[sizeof(long_value) - 1] = '\0';
    MT_MPI(MPI_Info_set(copy, long_key, long_value));
    check_value(copy, long_key, long_value);
    MT_MPI(MPI_Info_free(&info));
    MT_CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
    MT_MPI(MPI_Info_free(&copy));
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "a", "1");
    char too_long[MPI_MAX_INFO_KEY + 8];
    memset(too_long, 'k', sizeof(too_long) - 1);
    too_long[sizeof(too_long) - 1] = '\0';
    MT_CHECK_ERRCLASS(MPI_Info_set(info, too_long, "x"), MPI_ERR_INFO_KEY,
                      "MPI_Info_set with a key longer than MPI_MAX_INFO_KEY");
    MT_CHECK_ERRCLASS(MPI_Info_delete(info, "nope"), MPI_ERR_INFO_NOKEY,
                      "MPI_Info_delete of a missing key");
    char key[MPI_MAX_INFO_KEY];
#ifdef OPEN_MPI /* Open MPI answers MPI_ERR_INFO_KEY (MPICH and nodempi: MPI_ERR_ARG) */
    MT_CHECK(MPI_Info_get_nthkey(info, 1, key) != MPI_SUCCESS,
             "MPI_Info_get_nthkey past the last key succeeded");
#else
    MT_CHECK_ERRCLASS(MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG,
                      "MPI_Info_get_nthkey past the last key");
#endif
    MT_CHECK_ERRCLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG,
                      "MPI_Info_get_nthkey(-1)");
    int nkeys;
    MT_CHECK_ERRCLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &nkeys), MPI_ERR_INFO,
                      "MPI_Info_get_nkeys(MPI_INFO_NULL)");
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

static void test_env_and_comm(void)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0, buflen = (int)sizeof(value), nkeys = -1;
    MT_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
    MT_CHECK(nkeys >= 0, "MPI_INFO_ENV nkeys %d", nkeys);
    MT_MPI(MPI_Info_get_string(MPI_INFO_ENV, "command", &buflen, value, &flag));
    if (flag)
        MT_CHECK(strstr(value, "info") != NULL, "MPI_INFO_ENV command \"%s\"", value);
#ifndef OPEN_MPI
    MT_CHECK(flag, "MPI_INFO_ENV has no \"command\"");
    buflen = (int)sizeof(value);
    MT_MPI(MPI_Info_get_string(MPI_INFO_ENV, "maxprocs", &buflen, value, &flag));
    MT_CHECK(flag && atoi(value) == mt_size, "MPI_INFO_ENV maxprocs \"%s\"", flag ? value : "");
#endif
    MPI_Info env_copy;
    MT_MPI(MPI_Info_dup(MPI_INFO_ENV, &env_copy));
    MPI_Info_free(&env_copy);

    /* hints on a communicator: set, read back, survive dup */
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    MT_MPI(MPI_Comm_set_info(comm, info));
    MPI_Info_free(&info);
    MT_MPI(MPI_Comm_get_info(comm, &used));
    MT_CHECK(used != MPI_INFO_NULL, "MPI_Comm_get_info gave MPI_INFO_NULL");
#ifndef OPEN_MPI /* Open MPI may drop or rewrite hints it does not act on */
    buflen = (int)sizeof(value);
    MPI_Info_get_string(used, "mpi_assert_no_any_source", &buflen, value, &flag);
    MT_CHECK(flag && strcmp(value, "true") == 0, "hint read back from the communicator");
#endif
    MPI_Info_free(&used);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    test_basic();
    test_errors();
    test_env_and_comm();
    return mt_finish();
}
