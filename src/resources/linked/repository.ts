import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { preparedInsert, preparedQuery } from '../../db/prepared.js';
import type { PostsTable, Trx } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import { boundedMemo } from '../../memo.js';
import { POST_COLUMNS } from '../post-like/columns.js';
import { isRecordId } from '../post-like/ids.js';
import { insertPost } from '../post-like/insert.js';
import { byKind, type LinkedKind, type LinkedRow } from './kind.js';

/** The attribute tables are chosen by kind at run time, so queries over them use an untyped handle. */
export const untyped = (trx: Trx) => trx as unknown as Kysely<any>;

/**
 * The records of a kind, posts row joined with attribute row, as `p` and `a`. `from` names `posts as
 * p` and may join it to other rows first (linkedOfEventsQuery).
 */
export function selectLinked(
  trx: Trx,
  kind: LinkedKind,
  from: SelectQueryBuilder<any, any, any> = untyped(trx).selectFrom('posts as p'),
) {
  return from
    .innerJoin(`${kind.table} as a`, 'a.post_id', 'p.id')
    .select([...POST_COLUMNS, ...kind.fields.map((f) => `a.${f.name}`)])
    .where('p.type', '=', kind.type);
}

export async function findLinkedById(trx: Trx, kind: LinkedKind, id: number): Promise<LinkedRow | undefined> {
  if (!isRecordId(id)) return undefined;
  return (await selectLinked(trx, kind).where('p.id', '=', id).executeTakeFirst()) as LinkedRow | undefined;
}

export async function getLinkedById(trx: Trx, kind: LinkedKind, id: number): Promise<LinkedRow> {
  const row = await findLinkedById(trx, kind, id);
  // Only reachable when the record vanished between two steps of one request (8).
  if (!row) throw restErrors.linkedNotFound(kind.type);
  return row;
}

export type Where = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

/** One page of a list, newest publication date first, then highest ID (VO-30), unless `order` says otherwise. */
export async function listLinkedPage(
  trx: Trx,
  kind: LinkedKind,
  where: Where,
  limit: number,
  offset: number,
  order: ReturnType<typeof sql>[] = [sql`p.date desc`, sql`p.id desc`],
): Promise<LinkedRow[]> {
  return (await order
    .reduce((query, by) => query.orderBy(by), selectLinked(trx, kind).where(where))
    .limit(limit)
    .offset(offset)
    .execute()) as LinkedRow[];
}

/** How many records the same condition matches (style.md rule 6). */
export async function countLinked(trx: Trx, kind: LinkedKind, where: Where): Promise<number> {
  const row = await untyped(trx)
    .selectFrom('posts as p')
    .innerJoin(`${kind.table} as a`, 'a.post_id', 'p.id')
    .select(sql<number>`count(*)`.as('n'))
    .where('p.type', '=', kind.type)
    .where(where)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PostValues {
  author: number;
  status: string;
  slug: string;
  title: string;
  description: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  image_id: number | null;
}

const insertAttributes = boundedMemo(8, byKind, (kind: LinkedKind) => preparedInsert(kind.table));

export async function insertLinked(
  trx: Trx,
  kind: LinkedKind,
  post: PostValues,
  attributes: Record<string, unknown>,
): Promise<number> {
  const [{ id }] = await insertPost(trx, [
    { type: kind.type, excerpt: '', password: '', parent_id: 0, ...post } satisfies Insertable<PostsTable>,
  ]);
  await insertAttributes(kind)(trx, [{ post_id: id, ...attributes }]);
  return id;
}

export async function updateLinkedRecord(
  trx: Trx,
  kind: LinkedKind,
  id: number,
  post: Partial<PostValues>,
  attributes: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(post).length) await trx.updateTable('posts').set(post).where('id', '=', id).execute();
  if (Object.keys(attributes).length)
    await untyped(trx).updateTable(kind.table).set(attributes).where('post_id', '=', id).execute();
}

/**
 * Candidates for reuse on create (4.9, VO-11): not trashed, same name and, when a description is
 * given, same description; compared trimmed and case-insensitively. Lowest ID first.
 */
export async function findSameNamed(
  trx: Trx,
  kind: LinkedKind,
  name: string,
  description: string | undefined,
): Promise<LinkedRow[]> {
  const values = { name: name.trim().toLowerCase(), description: description?.trim().toLowerCase() ?? '' };
  return (await sameNamedQuery(kind)(trx, values, description ? 'description' : 'name')) as LinkedRow[];
}

const sameNamedQuery = boundedMemo(8, byKind, (kind: LinkedKind) =>
  preparedQuery((db, v: { name: string; description: string }, shape: 'name' | 'description') => {
    let query = selectLinked(db, kind)
      .where('p.status', '<>', 'trash')
      .where(sql`lower(trim(p.title))`, '=', v.name);
    if (shape === 'description') query = query.where(sql`lower(trim(p.description))`, '=', v.description);
    return query.orderBy('p.id');
  }),
);

/** Removes exactly this record from every event's links, whatever the event's status (VO-15). */
export async function unlinkFromEvents(trx: Trx, kind: LinkedKind, id: number): Promise<void> {
  await untyped(trx).deleteFrom(kind.linkTable).where(kind.linkColumn, '=', id).execute();
}
