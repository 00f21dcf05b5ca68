/* errclass: every predefined error class of MPI-3.1 is its own class under MPI_Error_class,
 * the classes are distinct, MPI_SUCCESS is 0, all are <= MPI_ERR_LASTCODE, and MPI_Error_string
 * gives non-empty NUL-terminated text with resultlen = strlen < MPI_MAX_ERROR_STRING. */
#include "../common/mpitest.h"

#define CLASS(c) {c, #c}
static const struct {
    int cls;
    const char *name;
} classes[] = {
    CLASS(MPI_SUCCESS), CLASS(MPI_ERR_BUFFER), CLASS(MPI_ERR_COUNT), CLASS(MPI_ERR_TYPE),
    CLASS(MPI_ERR_TAG), CLASS(MPI_ERR_COMM), CLASS(MPI_ERR_RANK), CLASS(MPI_ERR_REQUEST),
    CLASS(MPI_ERR_ROOT), CLASS(MPI_ERR_GROUP), CLASS(MPI_ERR_OP), CLASS(MPI_ERR_TOPOLOGY),
    CLASS(MPI_ERR_DIMS), CLASS(MPI_ERR_ARG), CLASS(MPI_ERR_UNKNOWN), CLASS(MPI_ERR_TRUNCATE),
    CLASS(MPI_ERR_OTHER), CLASS(MPI_ERR_INTERN), CLASS(MPI_ERR_PENDING), CLASS(MPI_ERR_IN_STATUS),
    CLASS(MPI_ERR_ACCESS), CLASS(MPI_ERR_AMODE), CLASS(MPI_ERR_ASSERT), CLASS(MPI_ERR_BAD_FILE),
    CLASS(MPI_ERR_BASE), CLASS(MPI_ERR_CONVERSION), CLASS(MPI_ERR_DISP),
    CLASS(MPI_ERR_DUP_DATAREP), CLASS(MPI_ERR_FILE_EXISTS), CLASS(MPI_ERR_FILE_IN_USE),
    CLASS(MPI_ERR_FILE), CLASS(MPI_ERR_INFO_KEY), CLASS(MPI_ERR_INFO_NOKEY),
    CLASS(MPI_ERR_INFO_VALUE), CLASS(MPI_ERR_INFO), CLASS(MPI_ERR_IO), CLASS(MPI_ERR_KEYVAL),
    CLASS(MPI_ERR_LOCKTYPE), CLASS(MPI_ERR_NAME), CLASS(MPI_ERR_NO_MEM), CLASS(MPI_ERR_NOT_SAME),
    CLASS(MPI_ERR_NO_SPACE), CLASS(MPI_ERR_NO_SUCH_FILE), CLASS(MPI_ERR_PORT),
    CLASS(MPI_ERR_QUOTA), CLASS(MPI_ERR_READ_ONLY), CLASS(MPI_ERR_RMA_ATTACH),
    CLASS(MPI_ERR_RMA_CONFLICT), CLASS(MPI_ERR_RMA_RANGE), CLASS(MPI_ERR_RMA_SHARED),
    CLASS(MPI_ERR_RMA_SYNC), CLASS(MPI_ERR_RMA_FLAVOR), CLASS(MPI_ERR_SERVICE),
    CLASS(MPI_ERR_SIZE), CLASS(MPI_ERR_SPAWN), CLASS(MPI_ERR_UNSUPPORTED_DATAREP),
    CLASS(MPI_ERR_UNSUPPORTED_OPERATION), CLASS(MPI_ERR_WIN),
};
#define NCLASSES ((int)(sizeof classes / sizeof classes[0]))

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_CHECK_INT(0, MPI_SUCCESS, "MPI_SUCCESS");

    int *lastcode = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastcode, &flag);
    MT_CHECK(flag && lastcode && *lastcode >= MPI_ERR_LASTCODE,
             "MPI_LASTUSEDCODE attribute missing or < MPI_ERR_LASTCODE");

    for (int i = 0; i < NCLASSES; i++) {
        int c = classes[i].cls, cls = -1, len = -1;
        char msg[MPI_MAX_ERROR_STRING + 1];
        MT_CHECK(c >= 0 && c <= MPI_ERR_LASTCODE, "%s = %d outside [0, MPI_ERR_LASTCODE=%d]",
                 classes[i].name, c, MPI_ERR_LASTCODE);
        MT_CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS, "MPI_Error_class(%s) failed",
                 classes[i].name);
        MT_CHECK(cls == c, "MPI_Error_class(%s = %d) = %d", classes[i].name, c, cls);
        memset(msg, 0x7f, sizeof msg);
        MT_CHECK(MPI_Error_string(c, msg, &len) == MPI_SUCCESS, "MPI_Error_string(%s) failed",
                 classes[i].name);
        MT_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING, "MPI_Error_string(%s): resultlen %d",
                 classes[i].name, len);
        if (len > 0 && len < MPI_MAX_ERROR_STRING) {
            MT_CHECK(msg[len] == '\0', "MPI_Error_string(%s): no NUL at resultlen",
                     classes[i].name);
            MT_CHECK((int)strlen(msg) == len, "MPI_Error_string(%s): strlen %zu != resultlen %d",
                     classes[i].name, strlen(msg), len);
        }
        for (int j = 0; j < i; j++)
            MT_CHECK(classes[j].cls != c, "%s and %s have the same value %d", classes[j].name,
                     classes[i].name, c);
    }
    return mt_finish();
}
