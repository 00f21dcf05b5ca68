/* forward.h - the ranks' stdout/stderr to mpiexec's own (and to their files), line by line, and
 * mpiexec's stdin to the rank(s) --stdin names. Owns the per-pipe line buffers and the rule that
 * makes lines of different ranks never mix: mpiexec is the only writer of its stdout/stderr and
 * writes whole lines. Reads from ranks never block (their pipes are non-blocking); writes to
 * mpiexec's own stdout may, which is the back-pressure a slow reader should exert. */
#ifndef NODEMPI_MPIEXEC_FORWARD_H
#define NODEMPI_MPIEXEC_FORWARD_H

#include <stdbool.h>
#include <stddef.h>

/* A line longer than this is forwarded in pieces; 64 KiB is the Linux pipe capacity, so one
 * read can never return more than fits. */
enum { FORWARD_BUFFER_BYTES = 64 * 1024, FORWARD_TAG_BYTES = 128 };

struct output_stream;

/* mpiexec's stdout or stderr, or a file of one rank's output (output_files.c). */
struct output_sink {
    int fd;      /* -1 until open_file has opened it */
    bool broken; /* a write failed (EPIPE): from now on ranks' output to it is not written */
    /* The stream whose unfinished last line ends this sink's output: anyone else writing here
     * first ends that line, so two ranks never share one (the owner's rest starts a new one). */
    struct output_stream *unfinished_line_owner;
    /* Opens the file at the first write and returns its fd, or -1 after saying why (Hydra
     * creates a -outfile-pattern file only when the rank writes). NULL: fd is open. */
    int (*open_file)(struct output_sink *sink);
};

/* One rank's stdout or stderr pipe. Its lines go to up to two sinks: the terminal (mpiexec's
 * stdout or stderr) and a file; either may be NULL, not both. */
struct output_stream {
    int fd; /* read end; -1 after EOF */
    char tag[FORWARD_TAG_BYTES]; /* written before each line: "[rank] " (--tag-output), "" */
    struct output_sink *sinks[2];
    bool mid_line[2]; /* the last piece written to sinks[i] did not end a line */
    size_t used;
    char buffer[FORWARD_BUFFER_BYTES];
};

void output_sink_init(struct output_sink *sink, int fd);
/* A file sink: open_file opens it at the first write. */
void output_sink_init_lazy(struct output_sink *sink, int (*open_file)(struct output_sink *sink));
/* Ends another stream's unfinished line, so mpiexec's own message starts on a fresh line. */
void output_sink_start_line(struct output_sink *sink);
/* mpiexec's own one-line message (text ends with a newline), on a line of its own. */
void output_sink_message(struct output_sink *sink, const char *text);

/* tag: the prefix of every line ("" for none, cut at FORWARD_TAG_BYTES - 1). */
void output_stream_init(struct output_stream *stream, int fd, const char *tag,
                        struct output_sink *terminal, struct output_sink *file);
/* Reads up to max_reads times (or until the pipe is empty) and forwards complete lines; at
 * EOF also forwards the unfinished last line and closes the pipe. max_reads < 0: no limit. */
void output_stream_drain(struct output_stream *stream, int max_reads);
/* Forwards what is buffered, unfinished line included, and closes the pipe. */
void output_stream_close(struct output_stream *stream);

/* mpiexec's stdin to one rank (rank 0 by default, --stdin N) or to every rank (--stdin all),
 * through a pipe each. A terminal with nothing typed, or a stdin nobody reads, never blocks the
 * job: the forwarder acts only when poll says it can. With several readers a block of input is
 * dropped only when every reader has taken it, so the slowest reader paces mpiexec's reads. */
struct stdin_forwarder {
    int source_fd;       /* mpiexec's stdin; -1 once at EOF or when no reader is left */
    int ntargets;
    int *target_fds;     /* write ends of the readers' pipes, non-blocking; -1 when closed */
    size_t *target_done; /* how much of the buffered block each reader has taken */
    size_t end;          /* bytes in buffer; 0: read more */
    char buffer[FORWARD_BUFFER_BYTES];
};

/* Creates ntargets stdin pipes; read_ends[i] is what reader i gets as fd 0 (close-on-exec).
 * False with errno set if a pipe cannot be made (none is left open then). */
bool stdin_forwarder_open(struct stdin_forwarder *fwd, int ntargets, int *read_ends);
/* The descriptor to poll now and for what, or -1 when the forwarder is done. */
int stdin_forwarder_poll_fd(const struct stdin_forwarder *fwd, short *events);
/* Reads or writes what it can, after poll reported the descriptor from
 * stdin_forwarder_poll_fd. */
void stdin_forwarder_step(struct stdin_forwarder *fwd);
void stdin_forwarder_close(struct stdin_forwarder *fwd);

#endif
