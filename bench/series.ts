import { defaultSettings } from '../src/settings.js';
import type { Db } from '../src/db/tables.js';
import { nowIn } from '../src/resources/post-like/dates.js';
import { findEventById } from '../src/resources/events/repository.js';
import { saveRecurrence, syncSeries } from '../src/resources/events/series.js';
import type { Random } from './random.js';

/** Series written per transaction. */
const SERIES_PER_TRANSACTION = 200;

/** Rules of the dataset's series and how often each comes: mostly weekly, some endless. */
const RULES: ReadonlyArray<readonly [(rng: Random) => string, number]> = [
  [(rng) => `FREQ=WEEKLY;COUNT=${rng.int(4, 26)}`, 40],
  [(rng) => `FREQ=WEEKLY;BYDAY=TU,TH;COUNT=${rng.int(6, 40)}`, 20],
  [(rng) => `FREQ=MONTHLY;BYDAY=1MO;COUNT=${rng.int(3, 12)}`, 15],
  [(rng) => `FREQ=DAILY;COUNT=${rng.int(3, 14)}`, 15],
  [() => 'FREQ=WEEKLY', 10],
];

/**
 * Makes `count` of the given events the first events of recurring series, their occurrences
 * written by the service's own series code (the path a `POST /events` with `recurrence` takes),
 * with the default settings (occurrences up to 24 months ahead). Returns the events made series
 * parents and the occurrences written.
 */
export async function addSeries(
  db: Db,
  rng: Random,
  parents: readonly number[],
  count: number,
): Promise<{ parents: number[]; occurrences: number }> {
  const settings = defaultSettings();
  const chosen = rng.sample([...parents], count);
  for (let i = 0; i < chosen.length; i += SERIES_PER_TRANSACTION) {
    await db.transaction().execute(async (trx) => {
      const now = nowIn(settings.timezone);
      for (const id of chosen.slice(i, i + SERIES_PER_TRANSACTION)) {
        const rrule = rng.weighted(RULES)(rng);
        await saveRecurrence(trx, id, { rrule, rdates: [], exdates: [] });
        await syncSeries(trx, (await findEventById(trx, id))!, settings, now, { copy: false });
      }
    });
  }
  const row = await db
    .selectFrom('event_series_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { parents: chosen, occurrences: Number(row.n) };
}
