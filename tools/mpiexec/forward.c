/* forward.c - line assembly for the ranks' output and the stdin pump for rank 0.
 * A rank's bytes wait in its stream buffer until a newline completes a line; complete lines go
 * out with one write each (all of them at once when untagged). When mpiexec's stdout breaks
 * (EPIPE: `mpiexec ... | head`), the ranks' stdout pipes are closed so that the ranks see
 * EPIPE/SIGPIPE on their next write, as the last command of a shell pipeline would. */
#include "forward.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* mpiexec's stdout may come non-blocking from whoever started it: EAGAIN then means "wait",
 * not "broken". */
static void sink_write(struct output_sink *sink, const char *data, size_t len)
{
    while (len > 0 && !sink->broken) {
        ssize_t done = write(sink->fd, data, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done < 0 && errno == EAGAIN) {
            struct pollfd writable = {.fd = sink->fd, .events = POLLOUT};
            poll(&writable, 1, -1);
            continue;
        }
        if (done <= 0) {
            sink->broken = true;
            return;
        }
        data += done;
        len -= (size_t)done;
    }
}

void output_sink_init(struct output_sink *sink, int fd)
{
    sink->fd = fd;
    sink->broken = false;
    sink->unfinished_line_owner = NULL;
}

void output_sink_start_line(struct output_sink *sink)
{
    if (sink->unfinished_line_owner) {
        sink_write(sink, "\n", 1);
        sink->unfinished_line_owner->at_line_start = true;
        sink->unfinished_line_owner = NULL;
    }
}

void output_sink_message(struct output_sink *sink, const char *text)
{
    output_sink_start_line(sink);
    sink_write(sink, text, strlen(text));
}

/* Writes one piece of the stream's output: a line (ends_line) or the unfinished rest. */
static void stream_emit(struct output_stream *stream, const char *data, size_t len,
                        bool ends_line)
{
    struct output_sink *sink = stream->sink;
    if (sink->unfinished_line_owner && sink->unfinished_line_owner != stream)
        output_sink_start_line(sink);
    if (stream->tagged && stream->at_line_start) {
        int prefix = snprintf(sink->staging, sizeof(sink->staging), "[%d] ", stream->rank);
        memcpy(sink->staging + prefix, data, len);
        sink_write(sink, sink->staging, (size_t)prefix + len);
    } else {
        sink_write(sink, data, len);
    }
    stream->at_line_start = ends_line;
    sink->unfinished_line_owner = ends_line ? NULL : stream;
}

/* Forwards every complete line in the buffer and keeps the unfinished rest; a buffer full of a
 * single unfinished line goes out as it is. */
static void stream_forward_lines(struct output_stream *stream)
{
    char *last_newline = memrchr(stream->buffer, '\n', stream->used);
    if (!last_newline) {
        if (stream->used == sizeof(stream->buffer)) {
            stream_emit(stream, stream->buffer, stream->used, false);
            stream->used = 0;
        }
        return;
    }
    size_t complete = (size_t)(last_newline - stream->buffer) + 1;
    if (!stream->tagged) {
        stream_emit(stream, stream->buffer, complete, true);
    } else {
        for (size_t start = 0; start < complete;) {
            char *newline = memchr(stream->buffer + start, '\n', complete - start);
            size_t line = (size_t)(newline - stream->buffer) + 1 - start;
            stream_emit(stream, stream->buffer + start, line, true);
            start += line;
        }
    }
    stream->used -= complete;
    memmove(stream->buffer, stream->buffer + complete, stream->used);
}

void output_stream_init(struct output_stream *stream, int fd, int rank, bool tagged,
                        struct output_sink *sink)
{
    stream->fd = fd;
    stream->rank = rank;
    stream->tagged = tagged;
    stream->at_line_start = true;
    stream->sink = sink;
    stream->used = 0;
}

void output_stream_close(struct output_stream *stream)
{
    if (stream->used > 0 && !stream->sink->broken)
        stream_emit(stream, stream->buffer, stream->used, false);
    stream->used = 0;
    if (stream->fd >= 0)
        close(stream->fd);
    stream->fd = -1;
}

void output_stream_drain(struct output_stream *stream, int max_reads)
{
    for (int reads = 0; stream->fd >= 0 && (max_reads < 0 || reads < max_reads); reads++) {
        if (stream->sink->broken) {
            output_stream_close(stream);
            return;
        }
        ssize_t got = read(stream->fd, stream->buffer + stream->used,
                           sizeof(stream->buffer) - stream->used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && errno == EAGAIN)
            return;
        if (got <= 0) {
            output_stream_close(stream);
            return;
        }
        stream->used += (size_t)got;
        stream_forward_lines(stream);
    }
}

bool stdin_forwarder_open(struct stdin_forwarder *fwd, int *rank0_read_end)
{
    int fds[2];
    fwd->source_fd = -1;
    fwd->rank0_fd = -1;
    fwd->begin = fwd->end = 0;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    fwd->source_fd = STDIN_FILENO;
    fwd->rank0_fd = fds[1];
    *rank0_read_end = fds[0];
    return true;
}

void stdin_forwarder_close(struct stdin_forwarder *fwd)
{
    if (fwd->rank0_fd >= 0)
        close(fwd->rank0_fd);
    fwd->rank0_fd = -1;
    fwd->source_fd = -1;
}

int stdin_forwarder_poll_fd(const struct stdin_forwarder *fwd, short *events)
{
    if (fwd->rank0_fd < 0)
        return -1;
    if (fwd->begin < fwd->end) {
        *events = POLLOUT;
        return fwd->rank0_fd;
    }
    *events = POLLIN;
    return fwd->source_fd;
}

static void stdin_forwarder_write(struct stdin_forwarder *fwd)
{
    ssize_t done = write(fwd->rank0_fd, fwd->buffer + fwd->begin, fwd->end - fwd->begin);
    if (done > 0) {
        fwd->begin += (size_t)done;
        if (fwd->begin == fwd->end)
            fwd->begin = fwd->end = 0;
        return;
    }
    if (done < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    stdin_forwarder_close(fwd); /* EPIPE: rank 0 closed its stdin or has exited */
}

static void stdin_forwarder_read(struct stdin_forwarder *fwd)
{
    ssize_t got = read(fwd->source_fd, fwd->buffer, sizeof(fwd->buffer));
    if (got > 0) {
        fwd->begin = 0;
        fwd->end = (size_t)got;
        return;
    }
    if (got < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    /* EOF, or EIO from a terminal read in the background (SIGTTIN is blocked): rank 0 sees
     * the end of its input. The buffer is empty here, since reads only happen when it is. */
    stdin_forwarder_close(fwd);
}

void stdin_forwarder_step(struct stdin_forwarder *fwd)
{
    if (fwd->rank0_fd < 0)
        return;
    if (fwd->begin < fwd->end)
        stdin_forwarder_write(fwd);
    else
        stdin_forwarder_read(fwd);
}
