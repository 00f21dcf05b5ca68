/* forward.h - the ranks' stdout/stderr to mpiexec's own, line by line, and mpiexec's stdin to
 * rank 0. Owns the per-pipe line buffers and the rule that makes lines of different ranks
 * never mix: mpiexec is the only writer of its stdout/stderr and writes whole lines. Reads
 * from ranks never block (their pipes are non-blocking); writes to mpiexec's own stdout may,
 * which is the back-pressure a slow reader should exert. */
#ifndef NODEMPI_MPIEXEC_FORWARD_H
#define NODEMPI_MPIEXEC_FORWARD_H

#include <stdbool.h>
#include <stddef.h>

/* A line longer than this is forwarded in pieces; 64 KiB is the Linux pipe capacity, so one
 * read can never return more than fits. */
enum { FORWARD_BUFFER_BYTES = 64 * 1024 };

struct output_stream;

/* mpiexec's stdout or stderr. */
struct output_sink {
    int fd;
    bool broken; /* a write failed (EPIPE): from now on ranks' output to it is not read */
    /* The stream whose unfinished last line ends this sink's output: anyone else writing here
     * first ends that line, so two ranks never share one (the owner's rest starts a new one). */
    struct output_stream *unfinished_line_owner;
    char staging[FORWARD_BUFFER_BYTES + 32]; /* "[rank] " + one line */
};

/* One rank's stdout or stderr pipe. */
struct output_stream {
    int fd; /* read end; -1 after EOF */
    int rank;
    bool tagged; /* --tag-output */
    bool at_line_start;
    struct output_sink *sink;
    size_t used;
    char buffer[FORWARD_BUFFER_BYTES];
};

void output_sink_init(struct output_sink *sink, int fd);
/* Ends another stream's unfinished line, so mpiexec's own message starts on a fresh line. */
void output_sink_start_line(struct output_sink *sink);
/* mpiexec's own one-line message (text ends with a newline), on a line of its own. */
void output_sink_message(struct output_sink *sink, const char *text);

void output_stream_init(struct output_stream *stream, int fd, int rank, bool tagged,
                        struct output_sink *sink);
/* Reads up to max_reads times (or until the pipe is empty) and forwards complete lines; at
 * EOF also forwards the unfinished last line and closes the pipe. max_reads < 0: no limit. */
void output_stream_drain(struct output_stream *stream, int max_reads);
/* Forwards what is buffered, unfinished line included, and closes the pipe. */
void output_stream_close(struct output_stream *stream);

/* mpiexec's stdin to rank 0 through a pipe. A terminal with nothing typed, or a stdin nobody
 * reads, never blocks the job: the forwarder acts only when poll says it can. */
struct stdin_forwarder {
    int source_fd; /* mpiexec's stdin; -1 once at EOF or when rank 0 stopped reading */
    int rank0_fd;  /* write end of rank 0's stdin pipe, non-blocking; -1 when closed */
    size_t begin, end;
    char buffer[FORWARD_BUFFER_BYTES];
};

/* Creates rank 0's stdin pipe; *rank0_read_end is what rank 0 gets as fd 0. False with errno
 * set if the pipe cannot be made. */
bool stdin_forwarder_open(struct stdin_forwarder *fwd, int *rank0_read_end);
/* The descriptor to poll now and for what, or -1 when the forwarder is done. */
int stdin_forwarder_poll_fd(const struct stdin_forwarder *fwd, short *events);
/* One read or write, after poll reported the descriptor from stdin_forwarder_poll_fd. */
void stdin_forwarder_step(struct stdin_forwarder *fwd);
void stdin_forwarder_close(struct stdin_forwarder *fwd);

#endif
