/* fuzz_statefile: the extfile state loader on a fixed small config.
 *
 * The first input byte picks the mode.
 *  - Raw (even byte): the rest is the file. The loader never crashes or leaks; a
 *    rejection is WSEL_E_STATE (or WSEL_E_NOMEM) with a line number within the input
 *    and a non-empty message, and changes no state at all (every key, every service,
 *    every set version as before); an accepted file loads again with the same result.
 *  - Structured (odd byte): the rest picks lines from the documented grammar
 *        ADDRESS_OR_NAME => UP|DOWN[/TTL]   # comment
 *    (keys in canonical and other spellings, mixed-case states, TTLs at and past the
 *    limit, blank and comment lines, CRLF) plus known-bad lines. The expected outcome
 *    is computed here: rejection at the first bad line, with that line number and no
 *    change; or acceptance, after which every key of the config has exactly the state
 *    its line gave (or its earlier state if no line named it) and sets whose items
 *    changed have a new version. */
#include <arpa/inet.h>

#include "fuzz.h"
#include "wsel.h"

static const char config_text[] =
    "service_types => {\n"
    "  s1 => { plugin => extfile, file => s1 }\n"
    "  s2 => { plugin => extfile, file => s2 }\n"
    "}\n"
    "plugins => { weighted => {\n"
    "  service_types => [ s1, s2 ]\n"
    "  v4 => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 20 ], c => [ 192.0.2.1, 5 ] }\n"
    "  v6 => { multi => true, a => [ 2001:db8::1, 3 ], b => [ 2001:DB8::a:0:0:2, 4 ] }\n"
    "  cn => { service_types => s2, a => [ www.Example.org., 1 ], b => [ cdn.example.net., 2 ] }\n"
    "  both => { addrs_v4 => { g => { x => [ 198.51.100.7, 1 ] } }\n"
    "            addrs_v6 => { service_types => s1, y => [ ::ffff:1.2.3.4, 2 ] } }\n"
    "} }\n";

/* Every key the config holds, in canonical form, with other spellings of it. */
typedef struct key_spell {
    const char *canon;
    const char *alt[3];
} key_spell;

static const key_spell keys[] = {
    { "192.0.2.1", { "192.0.2.1", "\"192.0.2.1\"", NULL } },
    { "192.0.2.2", { "192.0.2.2", NULL, NULL } },
    { "2001:db8::1", { "2001:DB8::1", "2001:db8:0:0:0:0:0:1", "2001:0db8::0001" } },
    { "2001:db8::a:0:0:2", { "2001:db8:0:0:a::2", "2001:DB8::A:0:0:2", NULL } },
    { "www.example.org.", { "WWW.EXAMPLE.ORG.", "www.Example.org.", NULL } },
    { "cdn.example.net.", { "cdn.example.net.", "Cdn.Example.Net.", NULL } },
    { "198.51.100.7", { "198.51.100.7", NULL, NULL } },
    { "::ffff:1.2.3.4", { "::FFFF:1.2.3.4", "::ffff:102:304", NULL } },
    /* Keys the config does not hold: legal, they just match nothing. */
    { "203.0.113.9", { "203.0.113.9", NULL, NULL } },
    { "unused.example.", { "Unused.Example.", NULL, NULL } },
};
#define N_KEYS (sizeof keys / sizeof keys[0])
#define N_CFG_KEYS 8 /* the first 8 are in the config */

static const char *const services[] = { "s1", "s2" };

static wsel_config *cfg;

static void setup(void)
{
    if (cfg)
        return;
    wsel_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    wsel_error err;
    int rc = wsel_config_load_buffer("statefile.conf", config_text, sizeof config_text - 1, &opts,
                                     &cfg, &err);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "fixed config rejected: %s", err.message);
}

typedef struct snapshot {
    wsel_mstate ms[2][N_KEYS];
    uint64_t version[16];
    size_t n_sets;
} snapshot;

static void snap(const wsel_state *st, snapshot *s)
{
    for (int v = 0; v < 2; v++)
        for (size_t k = 0; k < N_KEYS; k++)
            s->ms[v][k] = wsel_state_get(st, services[v], keys[k].canon);
    s->n_sets = wsel_config_set_count(cfg);
    FUZZ_ASSERT(s->n_sets <= 16);
    for (size_t i = 0; i < s->n_sets; i++)
        s->version[i] = wsel_state_set_version(st, wsel_config_set(cfg, i));
}

static bool same_ms(wsel_mstate a, wsel_mstate b)
{
    return a.up == b.up && a.ttl == b.ttl;
}

static void assert_unchanged(const wsel_state *st, const snapshot *before)
{
    snapshot now;
    snap(st, &now);
    for (int v = 0; v < 2; v++)
        for (size_t k = 0; k < N_KEYS; k++)
            FUZZ_ASSERT_MSG(same_ms(now.ms[v][k], before->ms[v][k]),
                            "rejected input changed %s/%s", services[v], keys[k].canon);
    for (size_t i = 0; i < now.n_sets; i++)
        FUZZ_ASSERT_MSG(now.version[i] == before->version[i],
                        "rejected input bumped the version of set %zu", i);
}

static void check_rejection(const wsel_error *err, int rc, unsigned n_lines)
{
    FUZZ_ASSERT_MSG(rc == WSEL_E_STATE || rc == WSEL_E_NOMEM, "status %d", rc);
    FUZZ_ASSERT(err->code == rc);
    FUZZ_ASSERT(err->message[0] != '\0');
    if (rc == WSEL_E_STATE)
        FUZZ_ASSERT_MSG(err->line >= 1 && err->line <= n_lines,
                        "error line %u outside 1..%u: %s", err->line, n_lines, err->message);
}

static unsigned count_lines(const uint8_t *d, size_t n)
{
    unsigned lines = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] == '\n')
            lines++;
    return lines + (n && d[n - 1] != '\n');
}

/* Some earlier state, so that "unchanged" and "kept" mean something. */
static void preset(wsel_state *st)
{
    FUZZ_ASSERT(wsel_state_set(st, "s1", "192.0.2.1", false, 30, NULL, NULL) == WSEL_OK);
    FUZZ_ASSERT(wsel_state_set(st, "s2", "2001:db8::1", true, 77, NULL, NULL) == WSEL_OK);
    FUZZ_ASSERT(wsel_state_set(st, "s1", "www.example.org.", false, 0, NULL, NULL) == WSEL_OK);
}

static void run_raw(wsel_state *st, const uint8_t *data, size_t size, int svc)
{
    snapshot before;
    snap(st, &before);
    wsel_error err;
    int rc = wsel_state_load_extfile_buffer(st, services[svc], "raw.state", (const char *)data,
                                            size, &err);
    if (rc != WSEL_OK) {
        check_rejection(&err, rc, count_lines(data, size));
        assert_unchanged(st, &before);
        return;
    }
    snapshot once;
    snap(st, &once);
    rc = wsel_state_load_extfile_buffer(st, services[svc], "raw.state", (const char *)data, size,
                                        &err);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "accepted input rejected the second time: %s", err.message);
    snapshot twice;
    snap(st, &twice);
    for (size_t k = 0; k < N_KEYS; k++) {
        FUZZ_ASSERT(same_ms(once.ms[svc][k], twice.ms[svc][k]));
        /* A load for one service type leaves the other alone. */
        FUZZ_ASSERT_MSG(same_ms(once.ms[!svc][k], before.ms[!svc][k]),
                        "loading %s changed %s/%s", services[svc], services[!svc], keys[k].canon);
    }
}

/* A state file written from the documented grammar, and what it must set. */
typedef struct structured {
    char text[8192];
    size_t len;
    unsigned n_lines, first_bad;  /* first_bad: 0 when every line is valid */
    bool named[N_KEYS];
    wsel_mstate want[N_KEYS];
} structured;

/* One key line: a spelling of key k, UP or DOWN, maybe a TTL, maybe in a bad shape. */
static void structured_entry(fuzz_producer *fp, structured *sd, size_t k, const char *crlf)
{
    const key_spell *ks = &keys[k];
    unsigned a = (unsigned)fuzz_range(fp, 0, 3);
    const char *spell = a < 3 && ks->alt[a] ? ks->alt[a] : ks->canon;
    static const char *const ups[] = { "UP", "up", "Up", "uP" };
    static const char *const downs[] = { "DOWN", "down", "Down", "dOwN" };
    bool up = fuzz_bool(fp);
    const char *word = up ? ups[fuzz_range(fp, 0, 3)] : downs[fuzz_range(fp, 0, 3)];
    uint32_t ttl = WSEL_MAX_TTL;
    char ttl_text[32] = "";
    bool bad = false;
    switch (fuzz_range(fp, 0, 7)) {
    case 0: break;
    case 1: ttl = 0; snprintf(ttl_text, sizeof ttl_text, "/0"); break;
    case 2: ttl = WSEL_MAX_TTL; snprintf(ttl_text, sizeof ttl_text, "/%u", ttl); break;
    case 3: snprintf(ttl_text, sizeof ttl_text, "/%u", WSEL_MAX_TTL + 1); bad = true; break;
    case 4: snprintf(ttl_text, sizeof ttl_text, "/"); bad = true; break;
    default:
        ttl = (uint32_t)fuzz_range(fp, 0, 86400);
        snprintf(ttl_text, sizeof ttl_text, "/%u", ttl);
        break;
    }
    unsigned shape = (unsigned)fuzz_range(fp, 0, 7);
    const char *lead = (shape & 1) ? "  " : "";
    const char *tail = (shape & 2) ? "   # monitor said so" : "";
    if (shape == 6) {
        word = "MAYBE";
        bad = true;
    } else if (shape == 7) {
        bad = true; /* no => */
    }
    sd->len += (size_t)snprintf(sd->text + sd->len, sizeof sd->text - sd->len, "%s%s%s%s%s%s%s",
                                lead, spell, shape == 7 ? " " : (shape & 4) ? "=>" : " => ", word,
                                ttl_text, tail, crlf);
    if (bad) {
        if (!sd->first_bad)
            sd->first_bad = sd->n_lines;
        return;
    }
    sd->named[k] = true;
    sd->want[k].up = up;
    sd->want[k].ttl = ttl;
}

static void structured_text(fuzz_producer *fp, structured *sd)
{
    const char *crlf = fuzz_bool(fp) ? "\r\n" : "\n";
    unsigned count = (unsigned)fuzz_range(fp, 0, 24);
    for (unsigned i = 0; i < count && sd->len + 200 < sizeof sd->text; i++) {
        unsigned kind = (unsigned)fuzz_range(fp, 0, 15);
        sd->n_lines++;
        if (kind == 0) {
            sd->len += (size_t)snprintf(sd->text + sd->len, sizeof sd->text - sd->len, "%s", crlf);
            continue;
        }
        if (kind == 1) {
            sd->len += (size_t)snprintf(sd->text + sd->len, sizeof sd->text - sd->len,
                                        "%s comment => DOWN%s", fuzz_bool(fp) ? "#" : "  ;", crlf);
            continue;
        }
        /* Each key at most once: the header leaves repeats open (this loader refuses
         * them, as gdnsd's config hash would). */
        size_t k = (size_t)fuzz_range(fp, 0, N_KEYS - 1);
        for (size_t tries = 0; sd->named[k] && tries < N_KEYS; tries++)
            k = (k + 1) % N_KEYS;
        if (sd->named[k]) {
            sd->len += (size_t)snprintf(sd->text + sd->len, sizeof sd->text - sd->len, "%s", crlf);
            continue;
        }
        structured_entry(fp, sd, k, crlf);
    }
}

/* Every set holding a key whose state changed must announce it. */
static void check_versions(const snapshot *before, const snapshot *after, int svc)
{
    for (size_t i = 0; i < after->n_sets; i++) {
        const wsel_set *set = wsel_config_set(cfg, i);
        bool uses_svc = false;
        for (uint32_t s = 0; s < set->n_services; s++)
            uses_svc = uses_svc || strcmp(set->services[s], services[svc]) == 0;
        bool changed = false;
        for (uint32_t j = 0; j < set->n_items; j++)
            for (size_t k = 0; k < N_CFG_KEYS; k++)
                if (strcmp(set->items[j].key, keys[k].canon) == 0 &&
                    !same_ms(after->ms[svc][k], before->ms[svc][k]))
                    changed = true;
        if (uses_svc && changed)
            FUZZ_ASSERT_MSG(after->version[i] != before->version[i],
                            "set %zu changed but kept its version", i);
    }
}

static void run_structured(wsel_state *st, fuzz_producer *fp, int svc)
{
    structured sd;
    memset(&sd, 0, sizeof sd);
    structured_text(fp, &sd);
    const char *text = sd.text;
    size_t len = sd.len;
    snapshot before;
    snap(st, &before);
    wsel_error err;
    int rc = wsel_state_load_extfile_buffer(st, services[svc], "structured.state", text, len, &err);
    if (sd.first_bad) {
        FUZZ_ASSERT_MSG(rc == WSEL_E_STATE, "bad line %u accepted (rc %d):\n%.*s", sd.first_bad,
                        rc, (int)len, text);
        FUZZ_ASSERT_MSG(err.line == sd.first_bad, "error on line %u, first bad line is %u: %s",
                        err.line, sd.first_bad, err.message);
        FUZZ_ASSERT(err.message[0] != '\0');
        assert_unchanged(st, &before);
        return;
    }
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "valid input rejected: %s\n%.*s", err.message, (int)len, text);
    snapshot after;
    snap(st, &after);
    /* Keys outside the config may or may not be kept; only the config's are checked. */
    for (size_t k = 0; k < N_CFG_KEYS; k++) {
        wsel_mstate w = sd.named[k] ? sd.want[k] : before.ms[svc][k];
        FUZZ_ASSERT_MSG(same_ms(after.ms[svc][k], w), "%s/%s is %s/%u, expected %s/%u",
                        services[svc], keys[k].canon, after.ms[svc][k].up ? "UP" : "DOWN",
                        after.ms[svc][k].ttl, w.up ? "UP" : "DOWN", w.ttl);
        FUZZ_ASSERT(same_ms(after.ms[!svc][k], before.ms[!svc][k]));
    }
    check_versions(&before, &after, svc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    wsel_state *st = NULL;
    wsel_error err;
    FUZZ_ASSERT(wsel_state_new(cfg, &st, &err) == WSEL_OK);
    preset(st);
    uint8_t mode = size ? data[0] : 0;
    int svc = (mode >> 1) & 1;
    if (mode & 1) {
        fuzz_producer fp = fuzz_producer_make(data + 1, size - 1);
        run_structured(st, &fp, svc);
    } else {
        run_raw(st, size ? data + 1 : data, size ? size - 1 : 0, svc);
    }
    wsel_state_free(st);
    return 0;
}
