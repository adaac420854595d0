/* fuzz_systems_identity: every system of the kit's table, every engine variant it has.
 *
 * Property: for each system of core/systems.def (tests/kit/kit_system.h) -- one per
 * input, the seed's remainder modulo the number of systems -- the case the kit
 * generates from a seed read from the input answers every query target, fed words
 * read from the input or picked from the target's boundary words, the same in each
 * engine variant the system has as in its reference -- one variant per input, the
 * input's last byte modulo the number of variants, so every variant is fuzzed on its
 * share of the inputs --, consuming exactly the words the contract says, and the
 * reference's answer passes the system's invariants (wsel_kit_identity_of). The loop
 * names no system and no mode: a system added to the table is fuzzed here with no
 * edit.
 *
 * Input: 8 bytes of seed, then per query one control byte (even: words from the input,
 * 8 bytes each; odd: boundary words, 2 bytes of index each), until the input ends.
 *
 * Bounded work (fuzz/README.md): one system and one of its variants per input, the
 * boundary words worked out only for a query that uses them, the kit's small cases
 * (wsel_kit_cases_small: 1..3 weighted resources, sets of at most 8 items or 8 groups of
 * at most 8 addresses) and at most MAX_QUERIES
 * queries; the full-size cases run the same identity in stats/systems.c (`make stats`,
 * `make check`). The case of the last input's seed is kept: an input with the same
 * seed (most of the mutations libFuzzer makes keep the first 8 bytes) resets it with
 * the system's case_reset (kit_system.h) instead of building it anew -- back to what
 * case_new builds from the seed, so the run is a function of the input alone; a system
 * without case_reset gets a new case every input. */
#include "fuzz.h"
#include "kit/kit_system.h"

#define MAX_QUERIES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_producer fp = fuzz_producer_make(data, size);
    wsel_kit_cases_small(true);
    uint64_t seed = fuzz_bits(&fp, 8);
    size_t nsys;
    const wsel_kit_system *const *sys = wsel_kit_systems(&nsys);
    static uint64_t pool[16384];
    uint64_t w[WSEL_WORDS_MAX];
    char why[2048];
    const wsel_kit_system *s = sys[seed % nsys];
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_system_variants(s, names, WSEL_KIT_MAX_VARIANTS);
    const char *const *one = nv ? &names[size ? data[size - 1] % nv : 0] : names;
    static void *c;
    static const wsel_kit_system *c_sys;
    static uint64_t c_seed;
    if (c && (c_sys != s || c_seed != seed || !s->case_reset || s->case_reset(c) != WSEL_OK)) {
        c_sys->case_free(c);
        c = NULL;
    }
    if (!c) {
        c = s->case_new(seed, why, sizeof why);
        FUZZ_ASSERT_MSG(c != NULL, "%s: case %llu: %s", s->name, (unsigned long long)seed, why);
        c_sys = s;
        c_seed = seed;
    }
    size_t nq = s->queries(c);
    for (unsigned k = 0; k < MAX_QUERIES && nq; k++) {
        size_t q = k % nq;
        size_t n = s->words(c, q);
        FUZZ_ASSERT_MSG(n <= WSEL_WORDS_MAX, "%s: %zu words", s->name, n);
        bool edges = fuzz_bits(&fp, 1) & 1;
        size_t np = edges ? s->boundary(c, q, pool, sizeof pool / sizeof pool[0]) : 0;
        edges = edges && np > 0;
        for (size_t i = 0; i < n; i++)
            w[i] = edges ? pool[fuzz_bits(&fp, 2) % np] : fuzz_bits(&fp, 8);
        const char *bad = wsel_kit_identity_of(s, c, q, w, n, one, nv ? 1 : 0, why, sizeof why);
        FUZZ_ASSERT_MSG(!bad, "case %llu: %s\n--- case:\n%.3000s", (unsigned long long)seed,
                        bad, s->case_text(c));
        if (!fp.left)
            break;
    }
    return 0;
}
