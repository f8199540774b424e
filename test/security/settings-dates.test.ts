import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { Kysely } from 'kysely';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { daysFromNow, makeEvent, tableCounts } from '../events/helpers.js';
import { countRecords } from '../linked/helpers.js';
import * as dateFormatChecks from '../../src/db/migrations/2026-11-27-12-date-format-checks.js';

function cli(srv: TestServer, ...argv: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    env: { ...process.env, DATABASE_URL: srv.databaseUrl },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DATE_KEYS = [
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'start_date',
  'end_date',
  'utc_start_date',
  'utc_end_date',
];

const post = (date: string) => ({
  type: 'venue' as const,
  author: 0,
  status: 'publish',
  slug: '',
  title: 'Probe',
  description: '',
  excerpt: '',
  password: '',
  parent_id: 0,
  date,
  date_utc: date,
  modified: date,
  modified_utc: date,
});

forEachBackend('settings and dates that the time code cannot use are refused', (srv) => {
  describe('calendar settings set timezone', () => {
    for (const zone of ['UTC+25', 'UTC-15', 'UTC+14.5', 'UTC+5.3', 'Mars/Olympus_Mons']) {
      it(`${zone} is refused with a non-zero exit and the stored value stays`, () => {
        const before = cli(srv(), 'settings', 'get', 'timezone').out;
        const res = cli(srv(), 'settings', 'set', 'timezone', zone);
        assert.notEqual(res.code, 0, res.out);
        assert.match(res.err, /timezone must be/);
        assert.equal(cli(srv(), 'settings', 'get', 'timezone').out, before);
      });
    }

    for (const zone of ['UTC+14', 'UTC-12', 'UTC+5.5']) {
      it(`${zone} is accepted`, () => {
        const res = cli(srv(), 'settings', 'set', 'timezone', zone);
        assert.equal(res.code, 0, res.err);
        assert.equal(cli(srv(), 'settings', 'get', 'timezone').out.trim(), zone);
      });
    }
  });

  describe('site time zone in use', () => {
    it('setSetting refuses an offset beyond ±14 hours', async () => {
      await assert.rejects(srv().setSetting('timezone', 'UTC+25'), /timezone must be|must be an IANA/);
    });

    it("an unusable zone written behind the CLI's back reads as UTC, and events get real dates", async () => {
      await srv().db.deleteFrom('settings').where('name', '=', 'timezone').execute();
      await srv().db.insertInto('settings').values({ name: 'timezone', value: 'UTC+25' }).execute();
      await new Promise((r) => setTimeout(r, 600));
      try {
        const e = await makeEvent(srv());
        assert.equal(e.timezone, 'UTC');
        for (const key of DATE_KEYS) assert.match(e[key], WALL, key);
        const venue = await srv().post('/venues', { as: 'administrator', json: { venue: 'Zone probe' } });
        assert.equal(venue.status, 201, venue.text);
        for (const key of ['date', 'date_utc', 'modified', 'modified_utc']) assert.match(venue.body[key], WALL, key);
      } finally {
        await srv().setSetting('timezone', 'UTC');
      }
    });
  });

  describe('POST /events: timezone', () => {
    for (const timezone of ['UTC+25', 'UTC-15', 'UTC+14.5', '+25:00']) {
      it(`timezone ${timezone} is rest_invalid_param and nothing is stored`, async () => {
        const before = await tableCounts(srv());
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Zone', start_date: daysFromNow(2), end_date: daysFromNow(2), timezone },
        });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): timezone');
        assert.deepEqual(await tableCounts(srv()), before);
      });
    }

    it('timezone UTC+14 and UTC-12 are accepted with real dates', async () => {
      for (const timezone of ['UTC+14', 'UTC-12']) {
        const e = await makeEvent(srv(), { timezone });
        assert.equal(e.timezone, timezone);
        for (const key of DATE_KEYS) assert.match(e[key], WALL, key);
      }
    });
  });

  describe('date arguments out of the years 1 to 9999', () => {
    const outOfRange = [
      '+1000000 years',
      '+8000 years',
      '-2100 years',
      '0000-06-01 10:00:00',
      '253402300800',
      '-62135596801',
      '+9999999 days',
    ];

    for (const value of outOfRange) {
      it(`start_date ${JSON.stringify(value)} is rest_invalid_param, never a 500, and nothing is stored`, async () => {
        const before = await tableCounts(srv());
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Far', start_date: value, end_date: daysFromNow(2) },
        });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): start_date');
        assert.deepEqual(await tableCounts(srv()), before);
      });

      it(`date ${JSON.stringify(value)} on an anonymous POST /venues is rest_invalid_param, before the permission check`, async () => {
        const before = await countRecords(srv(), 'venue');
        const res = await srv().post('/venues', { json: { venue: 'Far', date: value } });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): date');
        assert.equal(await countRecords(srv(), 'venue'), before);
      });
    }

    it('the last and first usable years are accepted', async () => {
      const late = await makeEvent(srv(), { start_date: '9999-12-31 10:00:00', end_date: '9999-12-31 12:00:00' });
      assert.equal(late.start_date, '9999-12-31 10:00:00');
      const early = await makeEvent(srv(), { start_date: '0001-01-01 10:00:00', end_date: '0001-01-01 12:00:00' });
      assert.equal(early.utc_start_date, '0001-01-01 10:00:00');
    });

    it('list date filters out of range answer 400, never a 500', async () => {
      for (const name of ['start_date', 'end_date', 'starts_after', 'ends_before']) {
        const res = await srv().get('/events', { query: { [name]: '+1000000 years' } });
        expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
      }
    });
  });

  describe('the database refuses dates that are not YYYY-MM-DD HH:MM:SS', () => {
    it('a malformed post date is refused on insert and on update; the floating date is allowed', async () => {
      await assert.rejects(srv().db.insertInto('posts').values(post('Invalid DateTime')).execute());
      await assert.rejects(
        srv()
          .db.insertInto('posts')
          .values({ ...post('2026-01-01 00:00:00'), modified_utc: '2026-01-01T00:00:00' })
          .execute(),
      );
      const { id } = await srv()
        .db.insertInto('posts')
        .values({ ...post('2026-01-01 00:00:00'), date_utc: '0000-00-00 00:00:00' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await assert.rejects(
        srv().db.updateTable('posts').set({ date: '+012026-01-01 00:00:00' }).where('id', '=', id).execute(),
      );
      const row = await srv().db.selectFrom('posts').select('date').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.date, '2026-01-01 00:00:00');
      await srv().db.deleteFrom('posts').where('id', '=', id).execute();
    });

    it('a malformed event date is refused on update', async () => {
      const e = await makeEvent(srv());
      for (const column of ['start_date', 'end_date', 'utc_start_date', 'utc_end_date'] as const) {
        await assert.rejects(
          srv()
            .db.updateTable('events')
            .set({ [column]: 'Invalid DateTime' })
            .where('post_id', '=', e.id)
            .execute(),
          column,
        );
      }
      const row = await srv()
        .db.selectFrom('events')
        .select('start_date')
        .where('post_id', '=', e.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.start_date, e.start_date);
    });

    it('migration 12 repairs rows stored before it instead of failing', async () => {
      const db = srv().db as unknown as Kysely<any>;
      const e = await makeEvent(srv(), { title: 'Broken dates' });
      await dateFormatChecks.down(db);
      try {
        await db
          .updateTable('posts')
          .set({ date: 'Invalid DateTime', modified: 'Invalid DateTime' })
          .where('id', '=', e.id)
          .execute();
        await db
          .updateTable('events')
          .set({
            start_date: 'Invalid DateTime',
            end_date: 'Invalid DateTime',
            utc_start_date: 'Invalid DateTime',
            utc_end_date: 'Invalid DateTime',
            timezone: 'UTC+25',
          })
          .where('post_id', '=', e.id)
          .execute();
      } finally {
        await dateFormatChecks.up(db);
      }
      const read = await srv().get(`/events/${e.id}`);
      assert.equal(read.status, 200, read.text);
      for (const key of DATE_KEYS) assert.match(read.body[key], WALL, key);
      assert.equal(read.body.date, e.date_utc);
      assert.equal(read.body.timezone, 'UTC');
      await assert.rejects(
        srv().db.updateTable('events').set({ start_date: 'Invalid DateTime' }).where('post_id', '=', e.id).execute(),
      );
    });
  });
});
