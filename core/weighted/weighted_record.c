/* Checking zone records (DYNA / DYNC) against the resources they name. */
#include <ctype.h>
#include <string.h>

#include "weighted_model.h"

/* Length of a domain name without its one trailing dot ("." becomes ""). */
static size_t bare_len(const char *s)
{
    size_t n = strlen(s);
    return n && s[n - 1] == '.' ? n - 1 : n;
}

/* True when `name` equals `zone` or lies below it, ignoring case and trailing dots. */
static bool in_zone(const char *name, const char *zone)
{
    size_t nl = bare_len(name), zl = bare_len(zone);
    if (zl == 0)
        return true; /* everything is inside the root zone */
    if (nl < zl)
        return false;
    if (nl > zl && name[nl - zl - 1] != '.')
        return false;
    for (size_t i = 0; i < zl; i++)
        if (tolower((unsigned char)name[nl - zl + i]) != tolower((unsigned char)zone[i]))
            return false;
    return true;
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
