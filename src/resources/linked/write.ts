import { can, canEditRecord } from '../../auth/capabilities.js';
import { restErrors } from '../../http/errors.js';
import type { RequestContext } from '../../http/route.js';
import { lockNames } from '../../db/name-locks.js';
import type { Trx } from '../../db/tables.js';
import { plainText, sanitizeInline, sanitizePost } from '../../text/html.js';
import { sanitizeSlug } from '../../text/slug.js';
import { FLOATING_STATUSES, requestedStatus, scheduledStatus } from '../post-like/status.js';
import { publicationDates, type Now, type PublicationInput } from '../post-like/dates.js';
import { resolveImageInput } from '../post-like/images.js';
import { uniqueSlug } from '../post-like/slug.js';
import { restoreFromTrash, trashRecord } from '../post-like/trash.js';
import type { LinkedKind, LinkedRow } from './kind.js';
import {
  findSameNamed,
  insertLinked,
  selectLinked,
  unlinkFromEvents,
  updateLinkedRecord,
  untyped,
  type PostValues,
} from './repository.js';

/**
 * A write's input: the values of the fields the client sent, by wire name. A key present with
 * `null` (or `""`) is an explicit empty value, which clears the field (decisions.md principle 3).
 */
export interface LinkedInput extends PublicationInput {
  author?: number | null;
  status?: string | null;
  image?: string | number | null;
  /** The name (`venue` / `organizer`), `description` and the attributes. */
  [field: string]: unknown;
}

const PERCENT = '\u{F8FF}';

/**
 * Text attributes are stored as plain text (4.5): tags stripped, whitespace collapsed, trimmed;
 * percent-encoded sequences are kept, unlike the reference (VO-22).
 */
export function plainAttribute(value: string): string {
  return plainText(value.replace(/%(?=[0-9a-f]{2})/gi, PERCENT)).replaceAll(PERCENT, '%');
}

/** Administrators and editors store HTML verbatim only when the site allows it (decisions.md X 16). */
function unfiltered(ctx: RequestContext): boolean {
  return ctx.settings.unfiltered_html && can(ctx.user, 'unfiltered_html');
}

function storedName(value: unknown, ctx: RequestContext): string {
  const text = typeof value === 'string' ? value : '';
  return unfiltered(ctx) ? text.trim() : sanitizeInline(text);
}

function storedDescription(value: unknown, ctx: RequestContext): string {
  const text = typeof value === 'string' ? value : '';
  return unfiltered(ctx) ? text : sanitizePost(text);
}

/** Column values of the attributes present in `input`; empty values clear (4.5, E19, 1.3). */
function attributeValues(kind: LinkedKind, input: LinkedInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of kind.fields) {
    if (!(field.name in input)) continue;
    const value = input[field.name];
    switch (field.kind) {
      case 'flag':
        out[field.name] = value === null ? null : value ? '1' : '0';
        break;
      case 'coordinate':
        out[field.name] = typeof value === 'number' ? value : null;
        break;
      default:
        out[field.name] = typeof value === 'string' ? plainAttribute(value) : '';
    }
  }
  return out;
}

/** The attributes to write: the given ones plus what derives from them (4.4, VO-9). */
function attributeChanges(
  kind: LinkedKind,
  input: LinkedInput,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const given = attributeValues(kind, input);
  if (!kind.derive || !kind.derive.inputs.some((name) => name in given)) return given;
  return { ...given, ...kind.derive.apply({ ...stored, ...given }, given) };
}

/** Attribute values of a new record: flags on, text empty, no coordinates (1.3, 4.4). */
function newAttributes(kind: LinkedKind, input: LinkedInput): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const field of kind.fields) {
    defaults[field.name] = field.kind === 'flag' ? '1' : field.kind === 'coordinate' ? null : '';
  }
  const given = attributeValues(kind, input);
  for (const field of kind.fields) if (field.kind === 'flag' && given[field.name] === null) delete given[field.name];
  const merged = { ...defaults, ...given };
  return kind.derive ? { ...merged, ...kind.derive.apply(merged, given) } : merged;
}

export interface CreateOutcome {
  id: number;
  /** False when an existing record was reused (4.9). */
  created: boolean;
}

/**
 * Creates a record, or reuses one the caller may edit with the same name (and description, when
 * given), applying only the given attributes to it (4.9 as decided by VO-11). Used by `POST` and by
 * inline event data, inside the caller's transaction.
 */
export async function createOrReuseLinked(
  trx: Trx,
  kind: LinkedKind,
  input: LinkedInput,
  ctx: RequestContext,
  now: Now,
): Promise<CreateOutcome> {
  const name = storedName(input[kind.type], ctx);
  if (name === '') throw restErrors.couldNotCreateLinked(kind.type);
  const description = storedDescription(input.description, ctx);

  // Reuse by name must hold under concurrent creates of one name (db/name-locks.ts).
  await lockNames(trx, [`${kind.type}-name:${name.trim().toLowerCase()}`]);
  const candidates = await findSameNamed(trx, kind, name, description || undefined);
  const match = candidates.find((row) => canEditRecord(ctx.user, row));
  if (match) {
    await applyAttributes(trx, kind, match, input, ctx, now);
    return { id: match.id, created: false };
  }

  const status0 = requestedStatus(ctx.user, input.status ?? undefined);
  const dates = publicationDates(input, status0, ctx.settings.timezone, now);
  const status = scheduledStatus(status0, dates.date_utc, now.ms);
  const base = sanitizeSlug(name);
  // Drafts and pending records may share a slug; it is made unique when they are published (4.6).
  const slug = base && !FLOATING_STATUSES.includes(status) ? await uniqueSlug(trx, kind.type, base) : base;
  const post: PostValues = {
    author: input.author ?? ctx.user?.id ?? 0,
    status,
    slug,
    title: name,
    description,
    ...dates,
    modified: dates.date,
    modified_utc: dates.date_utc,
    image_id: 'image' in input ? await resolveImageInput(trx, input.image ?? null, ctx, now) : null,
  };
  const id = await insertLinked(trx, kind, post, newAttributes(kind, input));
  // A name without slug characters gets the ID as its slug (common.md 9.8).
  if (!slug) await updateLinkedRecord(trx, kind, id, { slug: await uniqueSlug(trx, kind.type, String(id), id) }, {});
  return { id, created: true };
}

/** The reuse path: only the given attributes and image change (VO-11 with VO-7/8/9 semantics). */
async function applyAttributes(
  trx: Trx,
  kind: LinkedKind,
  row: LinkedRow,
  input: LinkedInput,
  ctx: RequestContext,
  now: Now,
): Promise<void> {
  const attributes = attributeChanges(kind, input, row);
  const post: Partial<PostValues> = {};
  if ('image' in input) post.image_id = await resolveImageInput(trx, input.image ?? null, ctx, now);
  if (Object.keys(attributes).length || 'image' in input)
    Object.assign(post, { modified: now.local, modified_utc: now.utc });
  await updateLinkedRecord(trx, kind, row.id, post, attributes);
}

/**
 * A partial update (5.3 as decided: X 7, VO-7 to VO-10, VO-37): only what the input names
 * changes; explicit empty values clear; leaving the trash restores the slug.
 */
export async function updateLinked(
  trx: Trx,
  kind: LinkedKind,
  row: LinkedRow,
  input: LinkedInput,
  ctx: RequestContext,
  now: Now,
): Promise<void> {
  const post: Partial<PostValues> = { modified: now.local, modified_utc: now.utc };
  if (typeof input[kind.type] === 'string') post.title = storedName(input[kind.type], ctx);
  if ('description' in input) post.description = storedDescription(input.description, ctx);
  if (typeof input.author === 'number') post.author = input.author;
  if ('image' in input) post.image_id = await resolveImageInput(trx, input.image ?? null, ctx, now);

  const requested = typeof input.status === 'string' ? requestedStatus(ctx.user, input.status, row.status) : row.status;
  const dates = publicationDates(input, requested, ctx.settings.timezone, now, {
    date: row.date,
    date_utc: row.date_utc,
  });
  const status = scheduledStatus(requested, dates.date_utc, now.ms);
  Object.assign(post, dates, { status });

  if (row.status === 'trash' && status !== 'trash') {
    post.slug = await restoreFromTrash(trx, kind.type, row);
  } else if (FLOATING_STATUSES.includes(row.status) && !FLOATING_STATUSES.includes(status) && row.slug) {
    post.slug = await uniqueSlug(trx, kind.type, row.slug, row.id);
  }
  await updateLinkedRecord(trx, kind, row.id, post, attributeChanges(kind, input, row));
}

/**
 * Saving a published event publishes the drafts and pending records already linked to it that the
 * caller may publish; trashed ones stay in the trash (7.3 as decided by VO-28). Called by event
 * writes before the links of the request replace the stored ones. One probe of every kind's links
 * first: an event seldom links such a record, and then nothing more is read.
 */
export async function publishLinkedOfEvent(
  trx: Trx,
  kinds: readonly LinkedKind[],
  eventId: number,
  ctx: RequestContext,
  now: Now,
): Promise<number[]> {
  if (!can(ctx.user, 'publish_posts')) return [];
  const linkedIds = kinds
    .map((kind) =>
      untyped(trx).selectFrom(kind.linkTable).select(`${kind.linkColumn} as id`).where('event_id', '=', eventId),
    )
    .reduce((all, next) => all.unionAll(next));
  const floating: Array<{ id: number; type: string }> = await untyped(trx)
    .selectFrom('posts')
    .select(['id', 'type'])
    .where('id', 'in', linkedIds)
    .where('status', 'in', FLOATING_STATUSES)
    .execute();
  const published: number[] = [];
  for (const kind of kinds) {
    const ids = floating.filter((row) => row.type === kind.type).map((row) => row.id);
    if (!ids.length) continue;
    const rows = (await selectLinked(trx, kind).where('p.id', 'in', ids).execute()) as LinkedRow[];
    for (const row of rows.filter((r) => canEditRecord(ctx.user, r))) {
      await updateLinked(trx, kind, row, { status: 'publish' }, ctx, now);
      published.push(row.id);
    }
  }
  return published;
}

/** DELETE: to the trash, slug freed, and unlinked from every event (6.2, VO-15, VO-27). */
export async function trashLinked(trx: Trx, kind: LinkedKind, row: LinkedRow, now: Now): Promise<void> {
  if (row.status === 'trash' || !(await trashRecord(trx, row, now))) throw restErrors.linkedIsInTrash(kind.type);
  await unlinkFromEvents(trx, kind, row.id);
}
