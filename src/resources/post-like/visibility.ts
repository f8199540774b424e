import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { can, canReadRecord, type Requester } from '../../auth/capabilities.js';

/**
 * Which of `statuses` the caller may read on records of others, and on their own records
 * (common.md 7.3 `read_post`). Trashed records are judged by the rule for their previous status
 * being unknown here, so the stricter of the two applies: edit others' posts.
 */
function readableStatuses(who: Requester, statuses: readonly string[]) {
  const others = statuses.filter(
    (status) =>
      canReadRecord(who, { author: 0, status, trashed_status: 'publish' }) &&
      canReadRecord(who, { author: 0, status, trashed_status: 'draft' }),
  );
  const own = who && can(who, 'read') ? statuses.filter((s) => !others.includes(s)) : [];
  return { others, own };
}

/**
 * The statuses the caller may read on every record, when that is all visibility asks; `null`
 * when their own records add others (the condition then depends on the author).
 */
export function visibleStatuses(who: Requester, statuses: readonly string[]): string[] | null {
  const { others, own } = readableStatuses(who, statuses);
  return own.length ? null : others;
}

/**
 * SQL condition keeping the records of `statuses` the caller could read singly (decisions.md X 8):
 * `alias` names the `posts` table in the query. A list with this condition and its count agree.
 */
export function visibleRecords(who: Requester, statuses: readonly string[], alias = 'posts') {
  const { others, own } = readableStatuses(who, statuses);
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const branches: Expression<SqlBool>[] = [];
    if (others.length) branches.push(eb(`${alias}.status`, 'in', others));
    if (own.length && who)
      branches.push(eb.and([eb(`${alias}.author`, '=', who.id), eb(`${alias}.status`, 'in', own)]));
    return branches.length ? eb.or(branches) : sql<SqlBool>`1 = 0`;
  };
}

/**
 * Whether a record of `status` carries `json_ld` for the caller: anonymous callers only on published
 * records, others unless the record is private and they may not read private posts (events.md 1.11,
 * venues-organizers.md 1.6).
 */
export function jsonLdVisible(status: string, who: Requester): boolean {
  if (who === null) return status === 'publish';
  return status !== 'private' || can(who, 'read_private_posts');
}
