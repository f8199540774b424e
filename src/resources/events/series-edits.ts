/**
 * Writes that touch a recurring series (issue 34), each inside the caller's transaction: creating
 * one, editing the whole series, one occurrence alone or the series from one occurrence on
 * (`scope`), trashing and restoring.
 */
import { DateTime } from 'luxon';
import type { Trx } from '../../db/tables.js';
import type { RequestContext } from '../../http/route.js';
import { parseWall } from '../../time/format.js';
import { expandRecurrence, type Recurrence } from '../../time/recurrence.js';
import type { Now } from '../post-like/dates.js';
import { restoreFromTrash, trashRecord, trashRecords } from '../post-like/trash.js';
import { getEventById, type EventRow, type Unlinked } from './repository.js';
import type { EventWriteInput } from './schema.js';
import {
  findMembership,
  findSeries,
  recurrenceRefused,
  saveRecurrence,
  storedRecurrence,
  syncSeries,
} from './series.js';
import { writeEvent } from './write.js';

/** `all`: the series (the default on its first event); `following`: this occurrence and the later ones. */
export type SeriesScope = 'all' | 'following';

/**
 * Creates an event; with `recurrence`, the series and its occurrences up to the horizon. Returns
 * the event's ID and the relations it is known to lack.
 */
export async function createEventOrSeries(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
): Promise<{ id: number; unlinked: Unlinked }> {
  const { id, unlinked } = await writeEvent(trx, input, ctx, now);
  if (!input.recurrence) return { id, unlinked: { ...unlinked, series: true } };
  await saveRecurrence(trx, id, input.recurrence);
  await syncSeries(trx, await getEventById(trx, id), ctx.settings, now, { copy: false });
  return { id, unlinked };
}

const dayOf = (wall: string) => wall.slice(0, 10);

/** Changes the exception dates of a series. */
async function editExdates(trx: Trx, seriesId: number, edit: (exdates: string[]) => string[]): Promise<void> {
  const series = await findSeries(trx, seriesId);
  if (!series) return;
  const recurrence = storedRecurrence(series);
  await saveRecurrence(trx, seriesId, { ...recurrence, exdates: [...new Set(edit(recurrence.exdates))].sort() });
}

/**
 * Gives back the occurrences trashed with their series' first event (same moment), with their
 * slugs and statuses; those trashed alone before stay in the trash.
 */
async function restoreMembers(trx: Trx, parent: EventRow): Promise<void> {
  if (!parent.trashed_at) return;
  const rows = await trx
    .selectFrom('posts as p')
    .innerJoin('event_series_members as m', 'm.event_id', 'p.id')
    .select(['p.id', 'p.slug', 'p.trashed_slug', 'p.trashed_status'])
    .where('m.series_id', '=', parent.id)
    .where('p.status', '=', 'trash')
    .where('p.trashed_at', '=', parent.trashed_at)
    .execute();
  for (const row of rows) {
    const slug = await restoreFromTrash(trx, 'event', row);
    await trx
      .updateTable('posts')
      .set({ slug, status: row.trashed_status ?? 'draft' })
      .where('id', '=', row.id)
      .execute();
  }
}

/**
 * An edit of the series led by `parent` (or of an event that becomes one): the parent, then its
 * occurrences. Returns the relations `parent` is known to lack, its series among them when it
 * leads none.
 */
async function editSeries(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  parent: EventRow,
): Promise<Unlinked> {
  const { unlinked } = await writeEvent(trx, input, ctx, now, parent);
  if (input.recurrence) await saveRecurrence(trx, parent.id, input.recurrence);
  else if (!(await findSeries(trx, parent.id))) return { ...unlinked, series: true };
  const updated = await getEventById(trx, parent.id);
  if (updated.status === 'trash') return unlinked;
  if (parent.status === 'trash') await restoreMembers(trx, parent);
  await syncSeries(trx, updated, ctx.settings, now, { copy: true });
  return unlinked;
}

/** `UNTIL` as RFC 5545 writes an instant: UTC, basic format. */
const untilInstant = (instant: DateTime) => instant.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");

function withPart(rrule: string, name: 'COUNT' | 'UNTIL', value: string): string {
  const kept = rrule.split(';').filter((part) => !/^(COUNT|UNTIL)=/.test(part));
  return [...kept, `${name}=${value}`].join(';');
}

/**
 * The rules of a series cut before the occurrence starting at `from`: the first part ends just
 * before it (its `COUNT` the occurrences it keeps, else an `UNTIL`); the second starts there with
 * the rest of the count. Extra and exception dates go to the part holding their day.
 */
function splitRecurrence(recurrence: Recurrence, parent: EventRow, from: string): [Recurrence, Recurrence] {
  const count = /(?:^|;)COUNT=(\d+)/.exec(recurrence.rrule);
  let before: string;
  let after = recurrence.rrule;
  if (count) {
    const bare = { rrule: recurrence.rrule, rdates: [], exdates: [] };
    const window = { since: parent.utc_start_date, through: '9999-12-31 00:00:00' };
    const { starts } = expandRecurrence(bare, parent.start_date, parent.timezone, window, Infinity);
    const kept = starts.filter((start) => start < from).length;
    before = withPart(recurrence.rrule, 'COUNT', String(kept));
    after = withPart(recurrence.rrule, 'COUNT', String(Math.max(1, Number(count[1]) - kept)));
  } else {
    before = withPart(recurrence.rrule, 'UNTIL', untilInstant(parseWall(from, parent.timezone)!.minus({ seconds: 1 })));
  }
  const part = (dates: string[], later: boolean) => dates.filter((d) => dayOf(d) >= dayOf(from) === later);
  return [
    { rrule: before, rdates: part(recurrence.rdates, false), exdates: part(recurrence.exdates, false) },
    { rrule: after, rdates: part(recurrence.rdates, true), exdates: part(recurrence.exdates, true) },
  ];
}

/**
 * `scope=following` on an occurrence: the series ends before it, and it leads a new series of the
 * later occurrences with the rest of the rule, to which the edit then applies.
 */
async function splitSeries(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  occurrence: EventRow,
  member: { series_id: number; original_start: string },
): Promise<void> {
  const parent = await getEventById(trx, member.series_id);
  const series = (await findSeries(trx, parent.id))!;
  const [before, after] = splitRecurrence(storedRecurrence(series), parent, member.original_start);
  const later = (eb: Trx) =>
    eb
      .selectFrom('event_series_members')
      .select('event_id')
      .where('series_id', '=', parent.id)
      .where('original_start', '>', member.original_start);
  await trx.updateTable('posts').set({ parent_id: occurrence.id }).where('id', 'in', later(trx)).execute();
  await trx
    .updateTable('event_series_members')
    .set({ series_id: occurrence.id })
    .where('series_id', '=', parent.id)
    .where('original_start', '>', member.original_start)
    .execute();
  await trx.deleteFrom('event_series_members').where('event_id', '=', occurrence.id).execute();
  await trx.updateTable('posts').set({ parent_id: 0 }).where('id', '=', occurrence.id).execute();
  await saveRecurrence(trx, parent.id, before);
  await saveRecurrence(trx, occurrence.id, after);
  await syncSeries(trx, parent, ctx.settings, now, { copy: false });
  await editSeries(trx, input, ctx, now, await getEventById(trx, occurrence.id));
}

/**
 * An update of `current` (events.md 5) where series are concerned: on a series' first event (or
 * with `scope=all` on an occurrence) the series changes; with `scope=following` on an occurrence
 * the series splits there; on an occurrence otherwise it alone changes. Returns what the answer's
 * event is known to lack.
 */
export async function updateEventOrSeries(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  current: EventRow,
  scope: SeriesScope | undefined,
): Promise<Unlinked> {
  const member = await findMembership(trx, current);
  if (!member) return editSeries(trx, input, ctx, now, current);
  if (scope === 'all') await editSeries(trx, input, ctx, now, await getEventById(trx, member.series_id));
  else if (scope === 'following') await splitSeries(trx, input, ctx, now, current, member);
  else await editOccurrence(trx, input, ctx, now, current, member);
  return {};
}

/** An occurrence edited alone: marked detached; restoring it from the trash takes its day off the exception dates. */
async function editOccurrence(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  current: EventRow,
  member: { series_id: number; original_start: string },
): Promise<void> {
  if (input.recurrence)
    throw recurrenceRefused('an occurrence takes a rule only with scope=following (a new series from it) or scope=all');
  await writeEvent(trx, input, ctx, now, current);
  await trx.updateTable('event_series_members').set({ detached: 1 }).where('event_id', '=', current.id).execute();
  if (current.status === 'trash') {
    const day = dayOf(member.original_start);
    await editExdates(trx, member.series_id, (dates) => dates.filter((d) => d !== day && d !== member.original_start));
  }
}

/**
 * DELETE (events.md 6) where series are concerned: a series' first event, or an occurrence with
 * `scope=all`, trashes the whole series; an occurrence alone is trashed and its day added to the
 * series' exception dates, so that the rule never brings it back. `false`: it was in the trash.
 */
export async function trashEventOrSeries(
  trx: Trx,
  row: EventRow,
  now: Now,
  scope: SeriesScope | undefined,
): Promise<boolean> {
  const member = await findMembership(trx, row);
  if (member && scope !== 'all') {
    if (!(await trashRecord(trx, row, now))) return false;
    await editExdates(trx, member.series_id, (dates) => [...dates, dayOf(member.original_start)]);
    return true;
  }
  const parent = member ? await getEventById(trx, member.series_id) : row;
  if (parent.status === 'trash' || !(await trashRecord(trx, parent, now))) return false;
  const members = await trx
    .selectFrom('event_series_members')
    .select('event_id')
    .where('series_id', '=', parent.id)
    .execute();
  await trashRecords(
    trx,
    members.map((m) => m.event_id),
    now,
  );
  return true;
}
