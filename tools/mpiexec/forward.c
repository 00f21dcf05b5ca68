/* forward.c - line assembly for the ranks' output and the stdin pump for rank 0.
 * A rank's bytes wait in its stream buffer until a newline completes a line; complete lines go
 * out with one write each (all of them at once when untagged), to the terminal and, when asked
 * for, to the rank's file. When mpiexec's stdout breaks (EPIPE: `mpiexec ... | head`) and no
 * file takes the output, the ranks' stdout pipes are closed so that the ranks see EPIPE/SIGPIPE
 * on their next write, as the last command of a shell pipeline would. */
#include "forward.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where a tagged line is assembled, so that tag and line go out in one write (mpiexec is
 * single-threaded: one buffer serves every sink). */
static char staging[FORWARD_TAG_BYTES + FORWARD_BUFFER_BYTES];

/* mpiexec's stdout may come non-blocking from whoever started it: EAGAIN then means "wait",
 * not "broken". A file sink that cannot be opened counts as broken (open_file said why). */
static void sink_write(struct output_sink *sink, const char *data, size_t len)
{
    if (sink->fd < 0 && !sink->broken) {
        sink->fd = sink->open_file ? sink->open_file(sink) : -1;
        sink->broken = sink->fd < 0;
    }
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
    *sink = (struct output_sink){.fd = fd};
}

void output_sink_init_lazy(struct output_sink *sink, int (*open_file)(struct output_sink *sink))
{
    *sink = (struct output_sink){.fd = -1, .open_file = open_file};
}

void output_sink_start_line(struct output_sink *sink)
{
    if (sink->unfinished_line_owner) {
        sink_write(sink, "\n", 1);
        sink->unfinished_line_owner = NULL; /* its owner sees it lost the line (stream_emit) */
    }
}

void output_sink_message(struct output_sink *sink, const char *text)
{
    output_sink_start_line(sink);
    sink_write(sink, text, strlen(text));
}

/* Writes one piece of the stream's output to sinks[i]: a line (ends_line) or the unfinished
 * rest. The stream is at a line start unless its last piece there left a line open that is
 * still its own (someone else ending it made the rest a new line, which gets a tag too). */
static void stream_emit_to(struct output_stream *stream, int i, const char *data, size_t len,
                           bool ends_line)
{
    struct output_sink *sink = stream->sinks[i];
    if (!sink || sink->broken)
        return;
    bool at_line_start = !stream->mid_line[i] || sink->unfinished_line_owner != stream;
    if (sink->unfinished_line_owner && sink->unfinished_line_owner != stream)
        output_sink_start_line(sink);
    size_t tag_len = strlen(stream->tag);
    if (tag_len && at_line_start) {
        memcpy(staging, stream->tag, tag_len);
        memcpy(staging + tag_len, data, len);
        sink_write(sink, staging, tag_len + len);
    } else {
        sink_write(sink, data, len);
    }
    stream->mid_line[i] = !ends_line;
    sink->unfinished_line_owner = ends_line ? NULL : stream;
}

static void stream_emit(struct output_stream *stream, const char *data, size_t len,
                        bool ends_line)
{
    stream_emit_to(stream, 0, data, len, ends_line);
    stream_emit_to(stream, 1, data, len, ends_line);
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
    if (!stream->tag[0]) {
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

/* Nothing more can be written anywhere: reading on would only fill the pipe's buffer. */
static bool stream_sinks_broken(const struct output_stream *stream)
{
    for (int i = 0; i < 2; i++) {
        if (stream->sinks[i] && !stream->sinks[i]->broken)
            return false;
    }
    return true;
}

void output_stream_init(struct output_stream *stream, int fd, const char *tag,
                        struct output_sink *terminal, struct output_sink *file)
{
    stream->fd = fd;
    snprintf(stream->tag, sizeof(stream->tag), "%s", tag);
    stream->sinks[0] = terminal;
    stream->sinks[1] = file;
    stream->mid_line[0] = stream->mid_line[1] = false;
    stream->used = 0;
}

void output_stream_close(struct output_stream *stream)
{
    if (stream->used > 0)
        stream_emit(stream, stream->buffer, stream->used, false);
    stream->used = 0;
    if (stream->fd >= 0)
        close(stream->fd);
    stream->fd = -1;
}

void output_stream_drain(struct output_stream *stream, int max_reads)
{
    for (int reads = 0; stream->fd >= 0 && (max_reads < 0 || reads < max_reads); reads++) {
        if (stream_sinks_broken(stream)) {
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

bool stdin_forwarder_open(struct stdin_forwarder *fwd, int ntargets, int *read_ends)
{
    fwd->source_fd = -1;
    fwd->end = 0;
    fwd->ntargets = 0;
    fwd->target_fds = calloc((size_t)ntargets, sizeof(int));
    fwd->target_done = calloc((size_t)ntargets, sizeof(size_t));
    if (!fwd->target_fds || !fwd->target_done) {
        stdin_forwarder_close(fwd);
        errno = ENOMEM;
        return false;
    }
    for (int i = 0; i < ntargets; i++) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) {
            int err = errno;
            for (int j = 0; j < i; j++) {
                close(read_ends[j]);
                read_ends[j] = -1;
            }
            stdin_forwarder_close(fwd);
            errno = err;
            return false;
        }
        fcntl(fds[1], F_SETFL, O_NONBLOCK);
        fwd->target_fds[fwd->ntargets++] = fds[1];
        read_ends[i] = fds[0];
    }
    fwd->source_fd = STDIN_FILENO;
    return true;
}

void stdin_forwarder_close(struct stdin_forwarder *fwd)
{
    for (int i = 0; i < fwd->ntargets; i++) {
        if (fwd->target_fds[i] >= 0)
            close(fwd->target_fds[i]);
    }
    free(fwd->target_fds);
    free(fwd->target_done);
    fwd->target_fds = NULL;
    fwd->target_done = NULL;
    fwd->ntargets = 0;
    fwd->source_fd = -1;
}

/* The first open reader that has not taken all of the buffered block, or -1. */
static int stdin_forwarder_lagging(const struct stdin_forwarder *fwd)
{
    for (int i = 0; i < fwd->ntargets; i++) {
        if (fwd->target_fds[i] >= 0 && fwd->target_done[i] < fwd->end)
            return i;
    }
    return -1;
}

int stdin_forwarder_poll_fd(const struct stdin_forwarder *fwd, short *events)
{
    int lagging = stdin_forwarder_lagging(fwd);
    if (lagging >= 0) {
        *events = POLLOUT;
        return fwd->target_fds[lagging];
    }
    *events = POLLIN;
    return fwd->source_fd;
}

/* Offers the rest of the block to every reader that still lacks some; EAGAIN leaves it for
 * the next step, EPIPE (the reader closed its stdin or exited) drops the reader. */
static void stdin_forwarder_write(struct stdin_forwarder *fwd)
{
    for (int i = 0; i < fwd->ntargets; i++) {
        if (fwd->target_fds[i] < 0 || fwd->target_done[i] >= fwd->end)
            continue;
        ssize_t done = write(fwd->target_fds[i], fwd->buffer + fwd->target_done[i],
                             fwd->end - fwd->target_done[i]);
        if (done > 0) {
            fwd->target_done[i] += (size_t)done;
        } else if (!(done < 0 && (errno == EAGAIN || errno == EINTR))) {
            close(fwd->target_fds[i]);
            fwd->target_fds[i] = -1;
        }
    }
    if (stdin_forwarder_lagging(fwd) < 0)
        fwd->end = 0;
}

static bool stdin_forwarder_has_reader(const struct stdin_forwarder *fwd)
{
    for (int i = 0; i < fwd->ntargets; i++) {
        if (fwd->target_fds[i] >= 0)
            return true;
    }
    return false;
}

static void stdin_forwarder_read(struct stdin_forwarder *fwd)
{
    ssize_t got = read(fwd->source_fd, fwd->buffer, sizeof(fwd->buffer));
    if (got > 0) {
        fwd->end = (size_t)got;
        for (int i = 0; i < fwd->ntargets; i++)
            fwd->target_done[i] = 0;
        return;
    }
    if (got < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    /* EOF, or EIO from a terminal read in the background (SIGTTIN is blocked): the readers see
     * the end of their input. The buffer is empty here, since reads only happen when it is. */
    stdin_forwarder_close(fwd);
}

void stdin_forwarder_step(struct stdin_forwarder *fwd)
{
    if (fwd->source_fd < 0)
        return;
    if (fwd->end > 0)
        stdin_forwarder_write(fwd);
    else
        stdin_forwarder_read(fwd);
    if (fwd->source_fd >= 0 && !stdin_forwarder_has_reader(fwd))
        stdin_forwarder_close(fwd); /* nobody reads any more: stop reading mpiexec's stdin */
}
