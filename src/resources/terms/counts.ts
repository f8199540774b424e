import type { Db } from '../../db/tables.js';

/**
 * A term's event count where a JSON answer shows it: in an event's embedded term (`…,"count":3,
 * "filter":"raw","id":7,…`, representEmbeddedTerm) and in a term's own JSON (`{"id":7,"count":3,
 * "description":…`, representTerm). Keys of JSON text: a string value cannot hold them unescaped.
 */
const EMBEDDED = /"count":(\d+),"filter":"raw","id":(\d+)/g;
const OWN = /\{"id":(\d+),"count":(\d+),"description"/g;
const ANY_COUNT = /"count":/g;

/**
 * The JSON answer `text` with every term's event count as stored now: what the response cache
 * does with an answer stale by count tags alone (db/cache-tags.ts, `countTag`). Null when a
 * `count` is not where a term's JSON puts it (`_fields` picked it alone, say) or a term it shows
 * is gone: the answer is then built again.
 */
export async function recountTerms(db: Db, text: string): Promise<string | null> {
  const ids = new Set<number>();
  let found = 0;
  for (const match of text.matchAll(EMBEDDED)) {
    ids.add(Number(match[2]));
    found++;
  }
  for (const match of text.matchAll(OWN)) {
    ids.add(Number(match[1]));
    found++;
  }
  if (found === 0 || found !== text.match(ANY_COUNT)?.length) return null;
  const rows = await db
    .selectFrom('terms')
    .select(['id', 'event_count'])
    .where('id', 'in', [...ids])
    .execute();
  const counts = new Map(rows.map((row) => [Number(row.id), Number(row.event_count)]));
  if (counts.size !== ids.size) return null;
  return text
    .replace(EMBEDDED, (_, _count, id) => `"count":${counts.get(Number(id))},"filter":"raw","id":${id}`)
    .replace(OWN, (_, id) => `{"id":${id},"count":${counts.get(Number(id))},"description"`);
}
