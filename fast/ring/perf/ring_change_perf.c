/* Instructions of one add + remove pair (doc/ring.md section 13), for callgrind: the
 * bench's change fixture (bench/ring_cases.c: a 10 000-slot wheel of 50 IP-literal hosts
 * 10.0.x.y of weights 1..100 drawn from seed 17, given at construction), then PAIRS
 * times: add host 10.250.0.1:80 weight 30, remove it; with engine `fast` each change is
 * followed by a sync and a reclaim, as the bench's. Run it twice under callgrind with two
 * pair counts and divide the difference (doc/ring.md section 13).
 *
 *   ring-change-perf ref|fast PAIRS
 *
 * Not part of the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wsel.h"
#include "kit/kit.h"

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "ref") != 0 && strcmp(argv[1], "fast") != 0)) {
        fprintf(stderr, "usage: %s ref|fast PAIRS\n", argv[0]);
        return 2;
    }
    bool fast = strcmp(argv[1], "fast") == 0;
    long pairs = atol(argv[2]);
    enum { HOSTS = 50, SLOTS = 10000 };
    wsel_ring_host_spec spec[HOSTS];
    char names[HOSTS][32];
    uint64_t st = 17;
    for (uint32_t i = 0; i < HOSTS; i++) {
        snprintf(names[i], sizeof names[i], "10.%u.%u.%u", i / 50000, (i / 200) % 250,
                 1 + i % 200);
        spec[i] = (wsel_ring_host_spec){names[i], 80, (int64_t)wsel_kit_range(&st, 1, 100)};
    }
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = SLOTS;
    o.hosts = spec;
    o.n_hosts = HOSTS;
    wsel_ring *r = NULL;
    wsel_ring_fast *f = NULL;
    if (wsel_ring_new(&o, &r, NULL) != WSEL_OK || (fast && wsel_ring_fast_new(r, &f, NULL))) {
        fprintf(stderr, "ring-change-perf: could not build the ring\n");
        return 1;
    }
    int rc = 0;
    for (long i = 0; i < pairs; i++)
        for (int add = 1; add >= 0; add--) {
            rc |= add ? wsel_ring_add_host(r, "10.250.0.1", 80, 30, NULL)
                      : wsel_ring_remove_host(r, "10.250.0.1", 80, NULL, NULL);
            if (fast) {
                rc |= wsel_ring_fast_sync(f, NULL);
                wsel_ring_fast_reclaim(f);
            }
        }
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
    if (rc)
        fprintf(stderr, "ring-change-perf: a change failed\n");
    return rc != 0;
}
