/* configfile.h - mpiexec -configfile FILE: the command line's program sections one per line
 * of a file, as in the MPI standard's example (MPI 4.1 11.5.2) and MPICH. Owns reading and
 * splitting the file into words; options.c parses them like the command line's. */
#ifndef NODEMPI_MPIEXEC_CONFIGFILE_H
#define NODEMPI_MPIEXEC_CONFIGFILE_H

#include <stdbool.h>

struct configfile {
    char **words; /* count words, then NULL; a ":" word between two lines' sections */
    int count;
    char *text;   /* the words' storage */
};

/* Reads path: '#' at the start of a word comments out the rest of the line, a line ending in
 * '\' continues on the next, '...' and "..." keep blanks inside a word. False after a message
 * naming spelling and path (unreadable, unterminated quote, no program line). */
bool configfile_read(const char *path, const char *spelling, struct configfile *out);
void configfile_free(struct configfile *file);

#endif
