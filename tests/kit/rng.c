/* Random sources of the kit (kit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"

static void replay_fill(void *ctx, uint64_t *out, size_t n)
{
    wsel_kit_replay *r = ctx;
    for (size_t i = 0; i < n; i++) {
        if (r->pos < r->n) {
            out[i] = r->words[r->pos++];
        } else {
            out[i] = 0;
            r->overrun++;
        }
    }
}

wsel_rng wsel_kit_replay_rng(wsel_kit_replay *r, const uint64_t *words, size_t n)
{
    r->words = words;
    r->n = n;
    r->pos = 0;
    r->overrun = 0;
    return (wsel_rng){ replay_fill, r, NULL };
}

static void fixed_fill(void *ctx, uint64_t *out, size_t n)
{
    wsel_kit_fixed *f = ctx;
    for (size_t i = 0; i < n; i++, f->used++)
        out[i] = f->used < f->n ? f->w[f->used] : 0;
}

wsel_rng wsel_kit_fixed_rng(wsel_kit_fixed *f)
{
    return (wsel_rng){ fixed_fill, f, NULL };
}

static void counting_fill(void *ctx, uint64_t *out, size_t n)
{
    wsel_kit_counter *c = ctx;
    c->words += n;
    c->calls++;
    c->inner.fill(c->inner.ctx, out, n);
}

wsel_rng wsel_kit_counting_rng(wsel_kit_counter *c, wsel_rng inner)
{
    c->inner = inner;
    c->words = 0;
    c->calls = 0;
    return (wsel_rng){ counting_fill, c, NULL };
}

uint64_t wsel_kit_mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t wsel_kit_mix(uint64_t *state)
{
    uint64_t z = *state;
    *state += 0x9e3779b97f4a7c15ull;
    return wsel_kit_mix64(z);
}

uint64_t wsel_kit_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo + 1;
    if (span == 0)
        return wsel_kit_mix(state);
    return lo + wsel_kit_mix(state) % span;
}

double wsel_kit_unit(uint64_t w)
{
    return (double)(w >> 11) * 0x1p-53;
}

static uint64_t rotr64(uint64_t x, int k)
{
    return (x >> k) | (x << (64 - k));
}

/* One lane of the default generator stepped backwards: the inverse of the xoshiro256
 * state update of core/prng.c (s1 from s1' ^ s2' = s1 ^ (s1 << 17)). */
static void lane_unstep(uint64_t s[4][4], int l)
{
    uint64_t s3a = rotr64(s[3][l], 45);
    uint64_t y = s[1][l] ^ s[2][l];
    uint64_t s1 = y ^ (y << 17) ^ (y << 34) ^ (y << 51);
    uint64_t s0 = s[0][l] ^ s3a;
    s[2][l] = s[1][l] ^ s1 ^ s0;
    s[0][l] = s0;
    s[1][l] = s1;
    s[3][l] = s3a ^ s1;
}

/* One step's output, rotl(s0 + s3, 23) + s0, can be chosen freely through s3; the state
 * b steps earlier is found by stepping back, so word i lands in block b = (i - k) / 4. */
void wsel_kit_prng_plant(wsel_prng *p, uint64_t *state, unsigned k, size_t i, uint64_t word)
{
    for (unsigned j = 0; j < 4; j++)
        p->buf[j] = wsel_kit_mix(state);
    p->pos = 4 - k;
    bool in_buf = i < k;
    if (in_buf)
        p->buf[4 - k + i] = word;
    size_t b = in_buf ? 0 : (i - k) / 4, lane = in_buf ? 4 : (i - k) % 4;
    for (size_t l = 0; l < 4; l++) {
        uint64_t out = l == lane ? word : wsel_kit_mix(state);
        p->s[0][l] = wsel_kit_mix(state);
        p->s[1][l] = wsel_kit_mix(state);
        p->s[2][l] = wsel_kit_mix(state);
        p->s[3][l] = rotr64(out - p->s[0][l], 23) - p->s[0][l];
        for (size_t j = 0; j < b; j++)
            lane_unstep(p->s, (int)l);
    }
}

bool wsel_kit_under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

const char *wsel_kit_srcpath(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("WSEL_SRCDIR");
    if (root && *root) {
        snprintf(buf, sizeof buf, "%s/%s", root, rel);
        return buf;
    }
    snprintf(buf, sizeof buf, "%s", rel);
    if (access(buf, R_OK) == 0)
        return buf;
    snprintf(buf, sizeof buf, "../%s", rel);
    if (access(buf, R_OK) == 0)
        return buf;
    snprintf(buf, sizeof buf, "%s", rel);
    return buf;
}
