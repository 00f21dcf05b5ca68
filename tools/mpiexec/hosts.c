/* hosts.c - check that every host of a host list or hostfile is this node and count its
 * slots. A name is compared with the cheap answers first (localhost, the loopback addresses,
 * gethostname and its short form); only a name none of them matches costs a resolver call for
 * the canonical name ("hostname -f"), so a plain "-host localhost" never touches DNS. */
#include "hosts.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Far above any node's core count; it only keeps slot sums away from int overflow. */
enum { SLOTS_MAX = 1 << 20 };

static bool same_short_name(const char *name, const char *host)
{
    size_t short_len = strcspn(host, ".");
    return strlen(name) == short_len && strncmp(name, host, short_len) == 0;
}

static bool is_canonical_name(const char *name, const char *host)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_flags = AI_CANONNAME};
    struct addrinfo *found = NULL;
    if (getaddrinfo(host, NULL, &hints, &found) != 0)
        return false;
    bool same = found && found->ai_canonname && strcmp(found->ai_canonname, name) == 0;
    freeaddrinfo(found);
    return same;
}

bool hosts_is_this_node(const char *name)
{
    if (strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 ||
        strcmp(name, "::1") == 0)
        return true;
    char host[256];
    if (gethostname(host, sizeof(host)) != 0)
        return false;
    host[sizeof(host) - 1] = '\0';
    if (strcmp(name, host) == 0 || same_short_name(name, host))
        return true;
    return strchr(name, '.') && is_canonical_name(name, host);
}

static bool parse_slots(const char *text, int *slots)
{
    char *end = NULL;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno || n < 1 || n > SLOTS_MAX)
        return false;
    *slots = (int)n;
    return true;
}

/* One "host" or "host:N" entry, copied into a bounded buffer so the caller's text stays. */
static bool add_entry(const char *entry, size_t len, const char *where, int *slots)
{
    char name[256];
    if (len == 0 || len >= sizeof(name)) {
        fprintf(stderr, "mpiexec: %s: empty or overlong host entry\n", where);
        return false;
    }
    memcpy(name, entry, len);
    name[len] = '\0';
    int count = 1;
    char *colon = strrchr(name, ':');
    if (colon && strcmp(name, "::1") != 0) {
        if (!parse_slots(colon + 1, &count)) {
            fprintf(stderr, "mpiexec: %s: '%s' needs a slot count from 1 to %d after ':'\n", where,
                    name, SLOTS_MAX);
            return false;
        }
        *colon = '\0';
    }
    if (!hosts_is_this_node(name)) {
        fprintf(stderr,
                "mpiexec: %s: host '%s' is not this node (nodempi runs every rank "
                "here; use "
                "localhost or this machine's name)\n",
                where, name);
        return false;
    }
    if (*slots > SLOTS_MAX - count) {
        fprintf(stderr, "mpiexec: %s: more than %d slots in all\n", where, SLOTS_MAX);
        return false;
    }
    *slots += count;
    return true;
}

bool hosts_add_list(const char *list, const char *spelling, int *slots)
{
    char where[320];
    snprintf(where, sizeof(where), "%s %s", spelling, list);
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        if (!add_entry(p, len, where, slots))
            return false;
        if (p[len] == '\0')
            return true;
        p += len + 1;
    }
}

/* "slots=N" (Open MPI) counts; "max_slots=M" is a limit nodempi does not enforce (it always
 * allows oversubscription); anything else is a mistake worth reporting. */
static bool apply_hostfile_word(const char *word, const char *where, int *count)
{
    if (strncmp(word, "slots=", 6) == 0 && parse_slots(word + 6, count))
        return true;
    int ignored;
    if (strncmp(word, "max_slots=", 10) == 0 && parse_slots(word + 10, &ignored))
        return true;
    fprintf(stderr, "mpiexec: %s: cannot use '%s' (expected slots=N or max_slots=N)\n", where,
            word);
    return false;
}

static bool add_hostfile_line(char *line, const char *where, int *slots)
{
    line[strcspn(line, "#\r\n")] = '\0';
    char *save = NULL;
    char *host = strtok_r(line, " \t", &save);
    if (!host)
        return true; /* blank or comment */
    int before = *slots;
    if (!add_entry(host, strlen(host), where, slots))
        return false;
    int count = *slots - before;
    for (char *word; (word = strtok_r(NULL, " \t", &save));) {
        if (!apply_hostfile_word(word, where, &count))
            return false;
    }
    if (count > SLOTS_MAX - before) {
        fprintf(stderr, "mpiexec: %s: more than %d slots in all\n", where, SLOTS_MAX);
        return false;
    }
    *slots = before + count;
    return true;
}

bool hosts_add_file(const char *path, const char *spelling, int *slots)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "mpiexec: %s %s: %s\n", spelling, path, strerror(errno));
        return false;
    }
    char line[1024];
    char where[1200];
    bool ok = true;
    int before = *slots;
    for (int number = 1; ok && fgets(line, sizeof(line), file); number++) {
        snprintf(where, sizeof(where), "%s %s line %d", spelling, path, number);
        ok = add_hostfile_line(line, where, slots);
    }
    fclose(file);
    if (ok && *slots == before) { /* an empty file is more likely a mistake than a request */
        fprintf(stderr, "mpiexec: %s %s: no host in the file\n", spelling, path);
        return false;
    }
    return ok;
}
