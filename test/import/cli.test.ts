import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBackend } from '../support/server.js';
import { calendar, calendarOk } from '../ops/support.js';

const ics = (...content: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...content, 'END:VCALENDAR', ''].join('\r\n');
const EVENT = ['BEGIN:VEVENT', 'UID:cli@test', 'DTSTART:20260510T180000Z', 'SUMMARY:From a file', 'END:VEVENT'];

forEachBackend('calendar import ics', (srv) => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-ics-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const eventTotal = async () =>
    Number((await srv().get('/events', { as: 'administrator', query: { start_date: '2026-01-01' } })).body.total);

  it('needs an administrator to write as', async () => {
    const res = await calendar(srv().databaseUrl, 'import', 'ics', file('one.ics', ics(...EVENT)));
    assert.equal(res.code, 1);
    assert.equal(res.err, 'calendar: there is no administrator to import as: create one with calendar user create\n');
  });

  it('--dry-run reports and writes nothing; then the import creates, and again leaves it unchanged', async () => {
    await srv().user('administrator');
    const path = file('one.ics', ics(...EVENT));
    assert.equal(
      await calendarOk(srv().databaseUrl, 'import', 'ics', path, '--dry-run'),
      'created 1, updated 0, unchanged 0, trashed 0, skipped 0 (dry run: nothing was written)\n',
    );
    assert.equal(await eventTotal(), 0);
    assert.equal(
      await calendarOk(srv().databaseUrl, 'import', 'ics', path),
      'created 1, updated 0, unchanged 0, trashed 0, skipped 0\n',
    );
    assert.equal(
      await calendarOk(srv().databaseUrl, 'import', 'ics', path),
      'created 0, updated 0, unchanged 1, trashed 0, skipped 0\n',
    );
    const list = await srv().get('/events', { as: 'administrator', query: { start_date: '2026-01-01' } });
    assert.deepEqual(
      list.body.events.map((e: { title: string; status: string }) => [e.title, e.status]),
      [['From a file', 'publish']],
    );
  });

  it('--status draft and --category apply; an unknown category is refused before anything is written', async () => {
    const path = file(
      'two.ics',
      ics('BEGIN:VEVENT', 'UID:cli-2@test', 'DTSTART:20260511T180000Z', 'SUMMARY:Second', 'END:VEVENT'),
    );
    const missing = await calendar(srv().databaseUrl, 'import', 'ics', path, '--category', 'nope');
    assert.equal(missing.code, 1);
    assert.equal(missing.err, 'calendar: no category with slug "nope"\n');
    assert.equal(await eventTotal(), 1);
    await srv().post('/categories', { as: 'administrator', json: { name: 'Talks' } });
    await calendarOk(srv().databaseUrl, 'import', 'ics', path, '--status', 'draft', '--category', 'talks');
    const list = await srv().get('/events', {
      as: 'administrator',
      query: { start_date: '2026-01-01', status: 'draft' },
    });
    assert.deepEqual(
      list.body.events.map((e: { title: string; categories: { slug: string }[] }) => [
        e.title,
        e.categories.map((c) => c.slug),
      ]),
      [['Second', ['talks']]],
    );
  });

  it('a broken file fails in one line naming the line, and imports nothing', async () => {
    const path = file('broken.ics', ics(...EVENT, 'BEGIN:VEVENT', 'UID:x', 'DTSTART:tomorrow', 'END:VEVENT'));
    const res = await calendar(srv().databaseUrl, 'import', 'ics', path);
    assert.equal(res.code, 1);
    assert.equal(
      res.err,
      `calendar: ${path}: line 11: DTSTART "tomorrow" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)\n`,
    );
    assert.equal(await eventTotal(), 2);
  });

  it('bare calendar import shows the usage, naming the ics subcommand', async () => {
    const res = await calendar(srv().databaseUrl, 'import');
    assert.equal(res.code, 1);
    assert.match(res.err, /Usage: calendar import \[options\] \[command\] \[file\]/);
    assert.match(res.err, /ics \[options\] <source>/);
  });
});
