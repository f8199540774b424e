import { Type } from '@sinclair/typebox';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { paramReasons } from '../../http/errors.js';
import type { LinkValue } from '../../http/pagination.js';
import type { ArgDef, ArgValues, RequestContext } from '../../http/route.js';
import { formatWall } from '../../time/format.js';
import { parseDateInput, readsClock } from '../../time/parse.js';

/**
 * `modified_after`, `modified_before` and `orderby=modified` of the event, venue and organizer
 * lists: a client catching up reads what changed since its last visit, newest change first. The
 * bounds are instants in UTC; a relative one ("yesterday") is refused, so that a cached list never
 * depends on the clock through them.
 */
function modifiedBound(description: string): ArgDef<string> {
  return {
    schema: Type.String({ description, format: 'date-time' }),
    validate: (v) => (parseDateInput(v, 'UTC') !== null && !readsClock(v)) || paramReasons.invalidDate(v),
    parse: (v) => formatWall(parseDateInput(v, 'UTC')!.toUTC()),
  };
}

export function modifiedArgs(plural: string) {
  return {
    modified_after: modifiedBound(`Only ${plural} last changed after this time (UTC).`),
    modified_before: modifiedBound(`Only ${plural} last changed before this time (UTC).`),
    orderby: {
      schema: Type.String({ enum: ['modified'], description: 'modified: newest change first.' }),
      validate: (v) => v === 'modified',
    } satisfies ArgDef<string>,
  };
}

export type ModifiedInput = Partial<ArgValues<ReturnType<typeof modifiedArgs>>>;

/** The bounds as conditions on the `posts` row `alias`. */
export function modifiedConditions(
  eb: ExpressionBuilder<any, any>,
  input: ModifiedInput,
  alias: string,
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (input.modified_after) conditions.push(eb(`${alias}.modified_utc`, '>', input.modified_after));
  if (input.modified_before) conditions.push(eb(`${alias}.modified_utc`, '<', input.modified_before));
  return conditions;
}

/** `orderby=modified`: the newest change first, then the highest ID; `undefined` for the list's own order. */
export function modifiedOrder(input: ModifiedInput, alias: string) {
  if (input.orderby !== 'modified') return undefined;
  return [sql`${sql.ref(`${alias}.modified_utc`)} desc`, sql`${sql.ref(`${alias}.id`)} desc`];
}

/** The parameters as links repeat them, as the client gave them. */
export function modifiedLinkParams(ctx: RequestContext): Array<[string, LinkValue]> {
  return (['modified_after', 'modified_before', 'orderby'] as const).map((name) => [
    name,
    ctx.given[name] as LinkValue,
  ]);
}
