import { Type } from '@sinclair/typebox';
import { restErrors, paramReasons } from '../../http/errors.js';
import { args } from '../../http/args.js';
import { pagingArgs, resolvePaging } from '../../http/pagination.js';
import { Valid, defineRoute, endpoint, everyone, type RequestContext, type RouteDef } from '../../http/route.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { nowUtcWall } from '../../time/format.js';
import { currentPosition, purgedUpTo, readChangesAfter, representChange } from './feed.js';
import { decodeSyncToken, encodeSyncToken } from './token.js';

const changeArgs = {
  since: args.string<number>(
    'The next_since of the previous answer; absent, the answer holds the current token only.',
    {
      validate: (value) => {
        const position = typeof value === 'string' ? decodeSyncToken(value) : undefined;
        return position === undefined ? paramReasons.notASyncToken(value) : new Valid(position);
      },
    },
  ),
  per_page: pagingArgs('changes').per_page,
};

const ChangeJson = Type.Object({
  type: Type.Union(['event', 'venue', 'organizer', 'category', 'tag'].map((t) => Type.Literal(t))),
  id: Type.Integer(),
  action: Type.Union(
    ['created', 'updated', 'trashed', 'restored', 'deleted', 'hidden'].map((a) => Type.Literal(a)),
    {
      description: '`hidden`: the caller may not read the record as the change left it.',
    },
  ),
  modified_utc: Type.String({ description: 'The record’s last change (UTC); for a deletion, its time.' }),
  rest_url: Type.String(),
});

const ChangesJson = Type.Object({
  changes: Type.Array(ChangeJson),
  next_since: Type.String({ description: 'The token to send as since next time.' }),
  more: Type.Boolean({ description: 'More changes follow at once: ask again with next_since.' }),
});

/** `GET /changes`: the changes committed after `since`, oldest first (docs/api.md "Staying in sync"). */
async function listChanges(ctx: RequestContext, input: { since?: number | null; per_page?: number | null }) {
  // Scheduled records whose time has come are published, and so reported, before the read.
  await publishDueForRead(ctx, nowUtcWall());
  const db = ctx.app.db;
  if (input.since === undefined || input.since === null) {
    return { body: { changes: [], next_since: encodeSyncToken(await currentPosition(db)), more: false } };
  }
  const since = input.since;
  const { perPage } = resolvePaging({ page: 1, per_page: input.per_page ?? undefined }, ctx.settings);
  const rows = await readChangesAfter(db, since, perPage + 1);
  // Read after the page: a purge committed in between removed only changes older than the page's.
  if (since < (await purgedUpTo(db))) throw restErrors.syncTokenExpired();
  const page = rows.slice(0, perPage);
  const last = page.at(-1)?.token ?? since;
  return {
    body: {
      changes: page.map((row) => representChange(ctx, row)),
      next_since: encodeSyncToken(last),
      more: rows.length > perPage,
    },
  };
}

export function changesRoutes(): RouteDef[] {
  return [
    defineRoute('/changes', [
      endpoint({
        methods: ['GET'],
        args: changeArgs,
        permission: everyone,
        handler: listChanges,
        summary: 'Changes to events, venues, organizers, categories and tags after a sync token, oldest first.',
        response: ChangesJson,
        errorStatuses: [400, 410],
      }),
    ]),
  ];
}
