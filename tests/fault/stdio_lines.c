/* stdio_lines.c - output forwarding under load: every rank writes argv[1] lines to stdout in
 * three separate write() calls each and argv[2] lines to stderr, then an unfinished last line;
 * rank 0 counts the lines and bytes of its stdin, the others check that theirs is empty. */
#include <string.h>

#include "fault_report.h"

static void write_all(int fd, const char *text)
{
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t done = write(fd, text, len);
        if (done <= 0)
            return;
        text += done;
        len -= (size_t)done;
    }
}

/* Each line goes out in pieces, so only mpiexec's line assembly can keep it whole. */
static void write_lines(int fd, int rank, int count, const char *stream)
{
    char piece[64];
    for (int i = 0; i < count; i++) {
        snprintf(piece, sizeof(piece), "%s rank %d ", stream, rank);
        write_all(fd, piece);
        snprintf(piece, sizeof(piece), "line %d ", i);
        write_all(fd, piece);
        write_all(fd, "end\n");
    }
}

static void report_stdin(int rank)
{
    char buffer[4096];
    long lines = 0, bytes = 0;
    ssize_t got;
    while ((got = read(STDIN_FILENO, buffer, sizeof(buffer))) > 0) {
        bytes += got;
        for (ssize_t i = 0; i < got; i++)
            lines += buffer[i] == '\n';
    }
    char text[128];
    snprintf(text, sizeof(text), "stdin rank %d lines %ld bytes %ld\n", rank, lines, bytes);
    write_all(STDOUT_FILENO, text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = fault_world_rank();
    fault_report_ready();
    int out_lines = argc > 1 ? atoi(argv[1]) : 1000;
    int err_lines = argc > 2 ? atoi(argv[2]) : 100;
    report_stdin(rank);
    write_lines(STDOUT_FILENO, rank, out_lines, "out");
    write_lines(STDERR_FILENO, rank, err_lines, "err");
    char tail[32];
    snprintf(tail, sizeof(tail), "tail rank %d", rank);
    write_all(STDOUT_FILENO, tail);
    MPI_Finalize();
    return 0;
}
