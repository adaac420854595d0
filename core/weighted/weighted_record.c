/* Checking zone records (DYNA / DYNC) against the resources they name. */
#include <string.h>

#include "weighted_model.h"

/* True when the CNAME target `name` (presentation text, as the loader keeps it) equals
 * the zone `zone` (zone-file text, a final dot optional) or lies below it: label by
 * label, so an escaped dot (`foo.example\\.com.`) does not end a label, ignoring case. */
static bool in_zone(const char *name, const char *zone)
{
    uint8_t nw[WSEL__DNAME_WIRE], zw[WSEL__DNAME_WIRE];
    char ztext[WSEL__DNAME_TEXT];
    const char *why;
    size_t zl = strlen(zone);
    if (zl == 0 || (zl == 1 && zone[0] == '.'))
        return true; /* everything is inside the root zone */
    if (zl + 2 > sizeof ztext)
        return false;
    memcpy(ztext, zone, zl + 1);
    size_t zwl = wsel__dname_wire(ztext, zl, zw, &why);
    if (!zwl) { /* no final dot: add it */
        ztext[zl] = '.';
        ztext[zl + 1] = '\0';
        zwl = wsel__dname_wire(ztext, zl + 1, zw, &why);
    }
    size_t nwl = wsel__dname_wire(name, strlen(name), nw, &why);
    return zwl && nwl && wsel__dname_in_zone(nw, nwl, zw, zwl);
}

int wsel_config_check_record(const wsel_config *cfg, const char *name, wsel_rrtype type,
                             const char *zone_origin, bool *deprecated, wsel_error *err)
{
    if (deprecated)
        *deprecated = false;
    if (!cfg || !name || (type != WSEL_RR_DYNA && type != WSEL_RR_DYNC))
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "bad argument to wsel_config_check_record");
    const wsel_resource *res = wsel_config_find(cfg, name);
    if (!res)
        return wsel__fail(err, WSEL_E_NORESOURCE, NULL, 0, 0, name, NULL, NULL,
                          "resource '%.200s' is not defined; expected one of the weighted "
                          "stanza's resources", name);
    const char *rr = type == WSEL_RR_DYNA ? "DYNA" : "DYNC";
    if (type == WSEL_RR_DYNA) {
        if (res->is_cname)
            return wsel__fail(err, WSEL_E_RECORD, res->loc.file, res->loc.line, res->loc.col,
                              res->name, NULL, NULL,
                              "resource '%.200s' holds CNAMEs; a DYNA record needs an "
                              "address resource (use DYNC for CNAMEs)", res->name);
        wsel_error_clear(err);
        return WSEL_OK;
    }
    if (!res->is_cname) {
        /* gdnsd 3.8 accepts this but warns that the use is deprecated. */
        if (deprecated)
            *deprecated = true;
        wsel_error_clear(err);
        return WSEL_OK;
    }
    const wsel_set *set = &res->sets[0];
    for (uint32_t i = 0; zone_origin && i < set->n_items; i++) {
        const wsel_item *it = &set->items[i];
        if (in_zone(it->value, zone_origin))
            return wsel__fail(err, WSEL_E_RECORD, it->loc.file, it->loc.line, it->loc.col,
                              res->name, NULL, it->label,
                              "%s record for resource '%.200s': CNAME target '%.200s' (item "
                              "'%.100s') lies inside the record's own zone '%.200s'; expected "
                              "targets outside the zone", rr, res->name, it->value, it->label,
                              zone_origin);
    }
    wsel_error_clear(err);
    return WSEL_OK;
}
