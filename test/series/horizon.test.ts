import { it } from 'node:test';
import assert from 'node:assert/strict';
import { extendSeriesHorizons } from '../../src/resources/events/series-horizon.js';
import { forEachBackend } from '../support/server.js';
import { WIDE, makeSeries, occurrences } from './support.js';

forEachBackend('Series horizon', (srv) => {
  /** A one-hour series starting on `day` at 10:00. */
  const series = (title: string, day: string, rrule: string) =>
    makeSeries(srv(), { title, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, recurrence: { rrule } });

  it('the extension materializes what a longer horizon reaches, once; lists and cached totals follow', async () => {
    await srv().setSetting('series_horizon_months', '3');
    const endless = await series('Endless weekly', '2026-12-07', 'FREQ=WEEKLY');
    const finished = await series('Short weekly', '2026-12-08', 'FREQ=WEEKLY;COUNT=3');
    const trashed = await series('Trashed weekly', '2026-12-09', 'FREQ=WEEKLY');
    await srv().request('DELETE', `/events/${trashed.id}`, { as: 'administrator' });
    const query = { ...WIDE, post_parent: endless.id, per_page: 1 };
    const before = (await occurrences(srv(), endless.id)).length;
    assert.equal((await srv().get('/events', { query })).headers.get('x-wp-total'), String(before));

    await srv().setSetting('series_horizon_months', '9');
    assert.equal(await extendSeriesHorizons(srv().built.app), 1, 'only the endless series that is not trashed');
    const after = await occurrences(srv(), endless.id);
    assert.ok(after.length >= before + 24, `${before} → ${after.length} weekly occurrences for six more months`);
    assert.equal((await srv().get('/events', { query })).headers.get('x-wp-total'), String(after.length));
    const starts = after.map((e) => e.start_date);
    assert.equal(new Set(starts).size, starts.length, 'no day twice');
    assert.ok(after.every((e) => e.start_date.endsWith('10:00:00') && e.title === 'Endless weekly'));
    assert.equal((await occurrences(srv(), finished.id)).length, 2);
    assert.equal(await extendSeriesHorizons(srv().built.app), 0, 'nothing left to extend');
    await srv().setSetting('series_horizon_months', '24');
  });

  it('a series the lowered limit would refuse keeps its occurrences and the others are extended', async () => {
    await srv().setSetting('series_horizon_months', '2');
    const daily = await series('Daily endless', '2026-12-01', 'FREQ=DAILY');
    const weekly = await series('Weekly endless', '2026-12-01', 'FREQ=WEEKLY');
    const dailyBefore = (await occurrences(srv(), daily.id)).length;
    await srv().setSetting('series_max_occurrences', '40');
    await srv().setSetting('series_horizon_months', '4');
    try {
      assert.equal(await extendSeriesHorizons(srv().built.app), 1);
      assert.equal((await occurrences(srv(), daily.id)).length, dailyBefore);
      assert.ok((await occurrences(srv(), weekly.id)).length >= 16);
    } finally {
      await srv().setSetting('series_max_occurrences', '1000');
      await srv().setSetting('series_horizon_months', '24');
    }
  });
});
