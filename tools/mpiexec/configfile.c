/* configfile.c - split a -configfile into words. The file is read whole and split in place:
 * a word is never longer than the text it came from (quotes and line continuations only
 * disappear), so each word is written over its own source and ends with a '\0'. */
#include "configfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Separates two lines' program sections, as ':' does on the command line. */
static char section_separator[] = ":";

static char *read_whole(const char *path, size_t *len)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return NULL;
    size_t capacity = 4096, used = 0;
    char *text = malloc(capacity);
    for (size_t got = 1; text && got > 0;) {
        if (used + 1 >= capacity) {
            char *grown = realloc(text, capacity *= 2);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
        got = fread(text + used, 1, capacity - used - 1, file);
        used += got;
    }
    fclose(file);
    if (text)
        text[used] = '\0';
    *len = used;
    return text;
}

static bool add_word(struct configfile *out, char *word)
{
    char **grown = realloc(out->words, sizeof(char *) * (size_t)(out->count + 2));
    if (!grown)
        return false;
    out->words = grown;
    out->words[out->count++] = word;
    out->words[out->count] = NULL;
    return true;
}

/* Copies one word from *in to *out (same buffer, out <= in), ending it with '\0', and moves
 * *in past the blank or newline that ended it (the '\0' may overwrite that character, so
 * *ended_line says whether it was a newline). Returns false on an unterminated quote. */
static bool split_word(char **in, char **out, bool *ended_line)
{
    char *src = *in, *dst = *out;
    char quote = 0;
    while (*src && (quote || !strchr(" \t\r\n", *src))) {
        if (quote && *src == quote) {
            quote = 0;
        } else if (!quote && (*src == '\'' || *src == '"')) {
            quote = *src;
        } else if (*src == '\\' && src[1] == '\n') {
            src++; /* a continued line: the word goes on */
        } else {
            *dst++ = *src;
        }
        src++;
    }
    if (quote)
        return false;
    *ended_line = *src == '\n';
    *in = *src ? src + 1 : src;
    *dst = '\0';
    *out = dst + 1;
    return true;
}

/* Splits text in place; line_words counts the current line's words (a separator precedes the
 * first word of each line after the first that had any). */
static bool split_text(char *text, struct configfile *out, const char **problem)
{
    char *in = text, *write = text;
    int line_words = 0;
    while (*in) {
        if (*in == '\\' && in[1] == '\n') {
            in += 2;
        } else if (*in == '\n') {
            line_words = 0;
            in++;
        } else if (*in == ' ' || *in == '\t' || *in == '\r') {
            in++;
        } else if (*in == '#') {
            in += strcspn(in, "\n");
        } else {
            if (line_words++ == 0 && out->count > 0 && !add_word(out, section_separator))
                return (*problem = "out of memory"), false;
            char *word = write;
            bool ended_line = false;
            if (!split_word(&in, &write, &ended_line))
                return (*problem = "a quote is not closed"), false;
            if (!add_word(out, word))
                return (*problem = "out of memory"), false;
            if (ended_line)
                line_words = 0;
        }
    }
    if (out->count == 0)
        return (*problem = "no program in the file"), false;
    return true;
}

bool configfile_read(const char *path, const char *spelling, struct configfile *out)
{
    *out = (struct configfile){0};
    size_t len = 0;
    out->text = read_whole(path, &len);
    if (!out->text) {
        fprintf(stderr, "mpiexec: %s %s: %s\n", spelling, path, strerror(errno ? errno : ENOMEM));
        return false;
    }
    const char *problem = NULL;
    if (!split_text(out->text, out, &problem)) {
        fprintf(stderr, "mpiexec: %s %s: %s\n", spelling, path, problem);
        configfile_free(out);
        return false;
    }
    return true;
}

void configfile_free(struct configfile *file)
{
    free(file->words);
    free(file->text);
    *file = (struct configfile){0};
}
