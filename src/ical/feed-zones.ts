import { tzlib_get_ical_block } from 'timezones-ical-library';

/** A zone as a feed names it: the TZID of its VTIMEZONE block, and the block. */
export interface FeedZone {
  tzid: string;
  vtimezone: string;
}

/** Blocks by zone name; tzdata has a few hundred names, so this stays small. */
const blocks = new Map<string, FeedZone | null>();

/**
 * The VTIMEZONE of an IANA zone, generated from tzdata by timezones-ical-library; an alias gets its
 * canonical zone's block and TZID (`US/Eastern` → `America/New_York`). Null for UTC, fixed offsets
 * (`UTC+5`) and names tzdata does not know: times in those are written in UTC instead, which every
 * client reads without a VTIMEZONE.
 */
export function feedZone(zone: string): FeedZone | null {
  let known = blocks.get(zone);
  if (known !== undefined) return known;
  known = null;
  if (zone !== '' && !/^UTC([+-]|$)/i.test(zone)) {
    const block = tzlib_get_ical_block(zone);
    const tzid = Array.isArray(block) ? /^TZID=(.+)$/.exec(block[1] ?? '')?.[1] : undefined;
    if (tzid && tzid !== 'Etc/UTC') known = { tzid, vtimezone: block[0]! };
  }
  blocks.set(zone, known);
  return known;
}
