import { isTruthy } from '../../http/args.js';
import type { RequestContext } from '../../http/route.js';
import { autop } from '../../text/html.js';
import { representImage, type ImageRow } from '../post-like/images.js';
import { jsonLdVisible } from '../post-like/visibility.js';
import { authorString, globalId, postUrl } from '../post-like/urls.js';
import { isPhpEmpty } from './args.js';
import type { LinkedKind, LinkedRow } from './kind.js';
import { plainAttribute } from './write.js';

/** The schema.org summary: the excerpt, else the first 55 words of the description (1.6, VO-21). */
function summary(row: LinkedRow): string {
  const words = plainAttribute(row.excerpt || row.description)
    .split(' ')
    .filter(Boolean);
  return words.length > 55 ? `${words.slice(0, 55).join(' ')} […]` : words.join(' ');
}

/**
 * A venue or organizer as the reference shapes it (venues-organizers.md 1.1, 1.2): keys in order,
 * PHP-empty values dropped except the map flags and global ids; coordinates whenever both are stored,
 * 0 included (E19); `json_ld` on single reads only. Pure: everything it needs is loaded.
 */
export function representLinked(
  kind: LinkedKind,
  row: LinkedRow,
  image: ImageRow | undefined,
  ctx: RequestContext,
  options: { jsonLd: boolean },
): Record<string, unknown> {
  const url = postUrl(ctx.urls, kind.type, row.slug);
  const name = row.title.trim();
  const entries: Array<[string, unknown]> = [
    ['id', row.id],
    ['author', authorString(row.author)],
    ['status', row.status],
    ['date', row.date],
    ['date_utc', row.date_utc],
    ['modified', row.modified],
    ['modified_utc', row.modified_utc],
    ['url', url],
    [kind.type, name],
    ['description', autop(row.description).trim()],
    ['excerpt', autop(row.excerpt).trim()],
    ['slug', row.slug],
    ['image', representImage(image)],
  ];
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) if (!isPhpEmpty(value)) out[key] = value;

  const hasCoordinates = typeof row.geo_lat === 'number' && typeof row.geo_lng === 'number';
  for (const field of kind.fields) {
    if (field.kind === 'flag') continue;
    const value = row[field.name];
    if (field.kind === 'coordinate') {
      if (hasCoordinates) out[field.name] = value;
    } else if (!isPhpEmpty(value)) out[field.name] = value;
  }
  if (options.jsonLd && jsonLdVisible(row.status, ctx.user)) {
    out.json_ld = kind.jsonLd({
      row,
      name: plainAttribute(name),
      description: summary(row),
      imageUrl: image?.url,
      url,
    });
  }
  // An unset flag reads as on (1.3).
  for (const field of kind.fields)
    if (field.kind === 'flag') out[field.name] = row[field.name] === null || isTruthy(row[field.name]);
  const id = globalId(ctx.urls, row.id);
  out.global_id = id;
  out.global_id_lineage = [id];
  return out;
}
