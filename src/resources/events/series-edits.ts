/** Writes that touch a recurring series (issue 34), each inside the caller's transaction. */
import type { Trx } from '../../db/tables.js';
import type { RequestContext } from '../../http/route.js';
import type { Now } from '../post-like/dates.js';
import { getEventById } from './repository.js';
import type { EventWriteInput } from './schema.js';
import { saveRecurrence, syncSeries } from './series.js';
import { writeEvent } from './write.js';

/** Creates an event; with `recurrence`, the series and its occurrences up to the horizon. */
export async function createEventOrSeries(trx: Trx, input: EventWriteInput, ctx: RequestContext, now: Now) {
  const id = await writeEvent(trx, input, ctx, now);
  if (input.recurrence) {
    await saveRecurrence(trx, id, input.recurrence);
    await syncSeries(trx, await getEventById(trx, id), ctx.settings, now, { copy: false });
  }
  return id;
}
