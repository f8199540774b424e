/**
 * Keeps the occurrences of series whose rule goes on past their horizon (endless rules, long ones)
 * existing up to `series_horizon_months` ahead as time passes: at start-up and every hour.
 */
import { RestError } from '../../http/errors.js';
import type { AppContext } from '../../http/route.js';
import { nowIn } from '../post-like/dates.js';
import { findEventById } from './repository.js';
import { seriesHorizon, syncSeries } from './series.js';

/** Series extended per transaction: a long backlog is written in steps, each a short write. */
const SERIES_PER_TRANSACTION = 20;

/**
 * Materializes the occurrences that the horizon now reaches for every series whose occurrences
 * stop short of it; returns how many series were extended. Trashed series wait for their restore,
 * which extends them. A series its rule no longer allows to extend (the limit setting was lowered)
 * keeps the occurrences it has, and the others are extended all the same.
 */
export async function extendSeriesHorizons(app: AppContext): Promise<number> {
  const settings = await app.settings.get();
  const now = nowIn(settings.timezone);
  const due = await app.db
    .selectFrom('event_series as s')
    .innerJoin('posts as p', 'p.id', 's.post_id')
    .select('s.post_id')
    .where('s.materialized_until', '<>', '')
    .where('s.materialized_until', '<', seriesHorizon(settings, now.ms))
    .where('p.status', '<>', 'trash')
    .orderBy('s.post_id')
    .execute();
  let extended = 0;
  for (let i = 0; i < due.length; i += SERIES_PER_TRANSACTION) {
    extended += await app.transact(async (trx) => {
      let done = 0;
      for (const { post_id } of due.slice(i, i + SERIES_PER_TRANSACTION)) {
        const parent = await findEventById(trx, post_id);
        if (!parent) continue;
        try {
          await syncSeries(trx, parent, settings, now, { copy: false });
          done++;
        } catch (err) {
          if (!(err instanceof RestError)) throw err;
        }
      }
      return done;
    });
  }
  return extended;
}

/** Runs the extension now and hourly in a running server. */
export function startSeriesExtension(app: AppContext): () => void {
  const run = () => void extendSeriesHorizons(app).catch(() => undefined);
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  run();
  return () => clearInterval(timer);
}
