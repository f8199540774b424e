import { Type } from '@sinclair/typebox';
import { can, type Requester } from '../../auth/capabilities.js';
import { parseList } from '../../http/args.js';
import type { ArgDef } from '../../http/route.js';
import { utcWallMs } from '../../time/format.js';

/** Statuses a client may write (decisions.md X 10): records reach `trash` only through DELETE. */
const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** Every status a record can have, and so every value of the list `status` filter (common.md 8.1). */
export const REGISTERED_STATUSES = [...WRITABLE_STATUSES, 'trash'] as const;

/** Statuses whose publication date "floats" and whose slug may stay non-unique (common.md 8.3, 9.8). */
export const FLOATING_STATUSES: readonly string[] = ['draft', 'pending'];

/** What a list shows when the caller gave no `status` and may edit the type (common.md 8.6). */
const EDITOR_DEFAULT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** The `status` argument of create and update (common.md 5.3, X 10). */
export function statusArg(noun: string): ArgDef<string> {
  return {
    schema: Type.String({
      description: `The ${noun} status: publish, future, draft, pending or private.`,
      enum: [...WRITABLE_STATUSES],
    }),
    validate: (v) => typeof v === 'string' && (WRITABLE_STATUSES as readonly string[]).includes(v),
  };
}

/**
 * The status a write asks for, after the scale-back of callers who cannot publish (common.md 8.2,
 * 8.4, decisions.md X 7, X 11): an omitted status is `publish`/`draft` on create and unchanged on
 * update; `publish`, `future` and `private` from a non-publisher become `pending`.
 */
export function requestedStatus(who: Requester, requested: string | undefined, current?: string): string {
  const publisher = can(who, 'publish_posts');
  if (requested === undefined) return current ?? (publisher ? 'publish' : 'draft');
  if (!publisher && (requested === 'publish' || requested === 'future' || requested === 'private')) return 'pending';
  return requested;
}

/**
 * WordPress scheduling: a `publish` date at least 60 s ahead becomes `future`, a `future` one less than 60 s ahead
 * `publish` (common.md 8.2).
 */
export function scheduledStatus(status: string, dateUtc: string, nowUtcMs: number): string {
  if (status !== 'publish' && status !== 'future') return status;
  const at = utcWallMs(dateUtc);
  if (Number.isNaN(at)) return status;
  const ahead = at - nowUtcMs >= 60_000;
  if (status === 'publish' && ahead) return 'future';
  if (status === 'future' && !ahead) return 'publish';
  return status;
}

/**
 * The list `status` filter (common.md 8.6, decisions.md X 6/E20): callers who cannot edit the type
 * may only send exactly `publish`; others a comma list or array of registered statuses, or `any`
 * (the same as no filter). Sanitized to the list of statuses, or `null` for `any`.
 */
export function listStatusArg(noun: string): ArgDef<string[] | null> {
  return {
    schema: Type.String({
      description: `Only ${noun} with these statuses (comma-separated list); \`any\` for every status except trash. Non-public statuses need the right to edit ${noun}.`,
    }),
    validate: (value, ctx) => {
      if (!can(ctx.user, 'edit_posts')) return value === 'publish';
      const list = parseList(value);
      if (!list || list.length === 0) return false;
      if (list.length === 1 && list[0] === 'any') return true;
      return list.every((s) => typeof s === 'string' && (REGISTERED_STATUSES as readonly string[]).includes(s));
    },
    parse: (value) => {
      const list = (parseList(value) ?? []).map(String);
      return list.length === 1 && list[0] === 'any' ? null : [...new Set(list)];
    },
  };
}

/** The statuses a list covers: the filter's (`status`), or the default for this caller (common.md 8.6). */
export function listStatuses(who: Requester, status: string[] | null | undefined): string[] {
  if (status) return status;
  return can(who, 'edit_posts') ? EDITOR_DEFAULT_STATUSES : ['publish'];
}

/** `status` as list links echo it: the given list, else `publish` or `any` (common.md 6.5, E20). */
export function statusLinkValue(who: Requester, status: string[] | null | undefined): string {
  if (status) return status.join(',');
  return can(who, 'edit_posts') ? 'any' : 'publish';
}
