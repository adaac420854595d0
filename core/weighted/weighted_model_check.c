/* Pure checks of configured values (addresses, CNAME targets, near-miss key names) and
 * the one validator of a whole set that every engine and the odds calculator apply. */
#include <arpa/inet.h>
#include <ctype.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "../addr.h"
#include "weighted_model.h"

static bool has_nul(const char *s, size_t len)
{
    return strlen(s) != len;
}

/* Optimal string alignment distance, ignoring case: insertions, deletions, substitutions
 * and swaps of neighbours each cost 1, so "mutli" is one edit from "multi". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t cost = ca != cb;
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[la][lb];
}

const char *wsel_config_key_hint(const char *key)
{
    static const char *const keywords[] = { "service_types", "multi", "up_thresh",
                                            "addrs_v4", "addrs_v6" };
    if (!key || !*key)
        return NULL;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
        /* The keyword itself (keys are case-sensitive) is not a misspelling. */
        if (strcmp(key, keywords[k]) != 0 && edit_distance(key, keywords[k]) <= 2)
            return keywords[k];
    }
    return NULL;
}

bool wsel__numeric_host(const char *s, int family, struct sockaddr_storage *out)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = family;
    hints.ai_flags = AI_NUMERICHOST;
    bool ok = getaddrinfo(s, NULL, &hints, &res) == 0 && res &&
              res->ai_addrlen <= sizeof *out;
    if (ok) {
        memset(out, 0, sizeof *out);
        memcpy(out, res->ai_addr, res->ai_addrlen);
    }
    if (res)
        freeaddrinfo(res);
    return ok;
}

/* 4 or 6 when `s` is an IPv4 / IPv6 address (binary form in addr), else 0. */
int wsel__ip_family(const char *s, size_t len, uint8_t addr[16])
{
    memset(addr, 0, 16);
    if (has_nul(s, len))
        return 0;
    int fam = wsel__addr_parse(s, len, false, addr);
    if (fam)
        return fam;
    /* gdnsd reads addresses with a numeric getaddrinfo, which also takes inet_aton's
     * spellings (127.1, 3221225985, 0x7f.0.0.1, 0300.0.2.1): take what gdnsd takes
     * (doc/weighted.md §3.5, D1); the loader warns about the spelling. */
    struct sockaddr_storage ss;
    if (strspn(s, "0123456789.xXabcdefABCDEF") == len && len &&
        wsel__numeric_host(s, AF_INET, &ss)) {
        memcpy(addr, &((const struct sockaddr_in *)(void *)&ss)->sin_addr, 4);
        return 4;
    }
    /* ... and IPv6 text with a scope id (fe80::1%lo, fe80::1%1), by the same getaddrinfo:
     * an interface name only for link-local addresses and only when this host has the
     * interface, a number for any IPv6 address (D1). */
    if (memchr(s, '%', len) && s[len] == '\0' && wsel__numeric_host(s, AF_INET6, &ss)) {
        memcpy(addr, &((const struct sockaddr_in6 *)(void *)&ss)->sin6_addr, 16);
        return 6;
    }
    memset(addr, 0, 16);
    return 0;
}

/* Reads a domain name from zone-file text as gdnsd reads a CNAME (doc/weighted.md §3.5,
 * D4): an unescaped '.' ends a label, `\DDD` is the byte DDD, `\X` is X (so `\.` is a dot
 * inside a label and `\000` a NUL byte in it). The wire form (length-prefixed labels, the
 * root's 0 last) goes to wire[]; returns its length, or 0 with *why set. */
size_t wsel__dname_wire(const char *s, size_t len, uint8_t wire[WSEL__DNAME_WIRE],
                        const char **why)
{
    size_t w = 0, lab = 0; /* wire bytes written; start of the current label */
    bool open = false;     /* a label has begun */
    *why = NULL;
    if (len == 0)
        return *why = "is empty", 0;
    size_t bs = 0; /* backslashes before the last byte: an even count leaves it unescaped */
    while (bs + 1 < len && s[len - 2 - bs] == '\\')
        bs++;
    if (s[len - 1] != '.')
        return *why = "is not fully qualified (does not end in '.')", 0;
    if (bs % 2)
        return *why = "is not fully qualified (its final '.' is escaped, so it belongs to "
                      "the last label)", 0;
    if (len == 1) {
        wire[0] = 0;
        return 1;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned c = (unsigned char)s[i];
        if (c == '.') {
            if (!open)
                return *why = "has an empty label", 0;
            wire[lab] = (uint8_t)(w - lab - 1);
            open = false;
            continue;
        }
        if (!open) { /* its length byte; the byte check below bounds w */
            lab = w++;
            open = true;
        }
        if (c == '\\' && i + 1 < len) {
            c = (unsigned char)s[++i];
            if (c >= '0' && c <= '9' && i + 2 < len && isdigit((unsigned char)s[i + 1]) &&
                isdigit((unsigned char)s[i + 2])) {
                c = (c - '0') * 100 + (unsigned)(s[i + 1] - '0') * 10 + (unsigned)(s[i + 2] - '0');
                i += 2;
                if (c > 255)
                    return *why = "has an escape above \\255", 0;
            }
        }
        if (w - lab - 1 >= 63)
            return *why = "has a label longer than 63 octets", 0;
        if (w >= 255)
            return *why = "is longer than 255 octets in wire form", 0;
        wire[w++] = (uint8_t)c;
    }
    if (w >= 255)
        return *why = "is longer than 255 octets in wire form", 0;
    wire[w++] = 0;
    return w;
}

/* The presentation text of a wire-form name as gdnsd puts it in answers: lower case
 * (measured: gdnsd 3.8.1 answers `q.example.net.` for a CNAME configured as
 * `Q.Example.NET.`), '.', '\\' and '"' inside a label escaped with a backslash, bytes
 * up to the space and from 0x7f as \DDD: zone-file text that, between quotes in a
 * config, reads back as the same name. Returns the text's length. */
size_t wsel__dname_text(const uint8_t *wire, char out[WSEL__DNAME_TEXT])
{
    size_t o = 0;
    if (wire[0] == 0) {
        out[o++] = '.';
    }
    for (size_t i = 0; wire[i]; i += (size_t)wire[i] + 1) {
        for (size_t k = 1; k <= wire[i]; k++) {
            unsigned c = wire[i + k];
            if (c <= ' ' || c >= 0x7f) {
                snprintf(out + o, 5, "\\%03u", c);
                o += 4;
                continue;
            }
            if (c == '.' || c == '\\' || c == '"')
                out[o++] = '\\';
            out[o++] = (char)tolower((int)c);
        }
        out[o++] = '.';
    }
    out[o] = '\0';
    return o;
}

/* True when wire-form `name` equals wire-form `zone` or lies below it, label by label,
 * ignoring ASCII case. */
bool wsel__dname_in_zone(const uint8_t *name, size_t nlen, const uint8_t *zone, size_t zlen)
{
    if (zlen > nlen)
        return false;
    /* the suffix must start at a label boundary of name */
    size_t at = 0;
    while (nlen - at > zlen && name[at])
        at += (size_t)name[at] + 1;
    if (nlen - at != zlen)
        return false;
    for (size_t i = 0; i < zlen; i++)
        if (tolower(name[at + i]) != tolower(zone[i]))
            return false;
    return true;
}

static bool mode_grouped(wsel_mode m)
{
    return m == WSEL_MODE_GROUPED_SINGLE || m == WSEL_MODE_GROUPED_MULTI;
}

/* The rules the loader guarantees, for sets it did not build: the model structs are
 * public, and reading past an array, or two engines consuming different numbers of
 * words, is worse than refusing. Sizes and the group layout are checked before any item
 * is read, so a count that lies about its array is refused, not followed. */
const char *wsel__set_problem(const wsel_set *set)
{
    if (!set)
        return "no set";
    if (!set->items || set->n_items < 1)
        return "a set needs at least one item";
    switch (set->mode) {
    case WSEL_MODE_CNAME:
    case WSEL_MODE_UNGROUPED_SINGLE:
    case WSEL_MODE_UNGROUPED_MULTI:
    case WSEL_MODE_GROUPED_SINGLE:
    case WSEL_MODE_GROUPED_MULTI:
        break;
    default:
        return "unknown mode";
    }
    if (set->grouped != mode_grouped(set->mode))
        return "the grouped flag disagrees with the mode";
    if (!set->grouped) {
        if (set->n_items > WSEL_MAX_ITEMS)
            return "an ungrouped set holds at most 64 items";
    } else {
        if (!set->groups || set->n_groups < 1 || set->n_groups > WSEL_MAX_ITEMS)
            return "a grouped set needs 1..64 groups";
        uint32_t next = 0, largest = 0;
        for (uint32_t g = 0; g < set->n_groups; g++) {
            const wsel_group *grp = &set->groups[g];
            if (grp->count < 1 || grp->count > WSEL_MAX_ITEMS)
                return "a group holds 1..64 addresses";
            if (grp->first != next || grp->count > set->n_items - next)
                return "groups must cover the items in order, without gaps or overlaps";
            next += grp->count;
            if (grp->count > largest)
                largest = grp->count;
        }
        if (next != set->n_items)
            return "groups must cover the items in order, without gaps or overlaps";
        if (set->max_group != largest)
            return "max_group is not the largest group's size";
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < set->n_items; i++) {
        uint32_t w = set->items[i].weight;
        if (w < 1 || w > WSEL_MAX_WEIGHT)
            return "item weights must be 1..1048575";
        total += w;
    }
    for (uint32_t g = 0; set->grouped && g < set->n_groups; g++) {
        const wsel_group *grp = &set->groups[g];
        uint64_t gt = 0;
        for (uint32_t j = 0; j < grp->count; j++)
            gt += set->items[grp->first + j].weight;
        if (grp->total != gt)
            return "a group's total is not the sum of its weights";
    }
    if (set->total != total)
        return "total is not the sum of the weights";
    if (set->threshold != (uint64_t)ceil((double)set->total * set->up_thresh))
        return "threshold is not ceil(total * up_thresh)";
    return NULL;
}
