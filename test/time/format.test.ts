import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { dateDetails, formatWall, nowUtcWall, parseWall, utcToWall, wallToUtc } from '../../src/time/format.js';

describe('formatWall', () => {
  it('is YYYY-MM-DD HH:MM:SS in the DateTime zone, zero-padded, 24-hour', () => {
    assert.equal(formatWall(DateTime.fromISO('2025-07-04T09:05:03.999Z', { zone: 'utc' })), '2025-07-04 09:05:03');
    assert.equal(
      formatWall(DateTime.fromISO('2025-07-14T23:30:00Z').setZone('America/New_York')),
      '2025-07-14 19:30:00',
    );
  });

  it('writes what Luxon writes for the same pattern, early years and other zones included', () => {
    const zones = ['UTC', 'Europe/Paris', 'America/Los_Angeles', 'Asia/Kathmandu', 'UTC+5:30'];
    for (let i = 0; i < 2000; i++) {
      // From year -1200 to 5100, every zone; years before 0 take Luxon's own path.
      const at = DateTime.fromMillis(-100_000_000_000_000 + i * 99_017_000_003, { zone: zones[i % zones.length] });
      assert.equal(formatWall(at), at.toFormat('yyyy-MM-dd HH:mm:ss'), at.toISO() ?? '');
    }
    assert.equal(formatWall(DateTime.fromISO('0042-03-04T05:06:07Z', { zone: 'utc' })), '0042-03-04 05:06:07');
  });
});

describe('dateDetails (events.md 1.2)', () => {
  it('splits into six zero-padded strings with plural minutes and seconds, in this key order', () => {
    const details = dateDetails('2025-07-14 19:30:00');
    assert.deepEqual(details, { year: '2025', month: '07', day: '14', hour: '19', minutes: '30', seconds: '00' });
    assert.deepEqual(Object.keys(details), ['year', 'month', 'day', 'hour', 'minutes', 'seconds']);
  });

  it('a date without a time has a 00:00:00 clock', () => {
    assert.deepEqual(dateDetails('2025-01-02'), {
      year: '2025',
      month: '01',
      day: '02',
      hour: '00',
      minutes: '00',
      seconds: '00',
    });
  });
});

describe('nowUtcWall', () => {
  it('is the current UTC wall clock, to the second', () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const wall = nowUtcWall();
    const after = Date.now();
    assert.match(wall, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const at = DateTime.fromFormat(wall, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).toMillis();
    assert.ok(
      at >= before && at <= after,
      `${wall} not between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`,
    );
  });
});

describe('wallToUtc and utcToWall', () => {
  it('convert a wall string between a zone and UTC', () => {
    assert.equal(wallToUtc('2025-07-14 19:30:00', 'America/New_York'), '2025-07-14 23:30:00');
    assert.equal(wallToUtc('2025-01-14 19:30:00', 'America/New_York'), '2025-01-15 00:30:00');
    assert.equal(wallToUtc('2025-07-14 19:30:00', 'UTC-3.5'), '2025-07-14 23:00:00');
    assert.equal(utcToWall('2025-07-14 23:30:00', 'America/New_York'), '2025-07-14 19:30:00');
    assert.equal(utcToWall('2025-07-14 23:30:00', 'Europe/Berlin'), '2025-07-15 01:30:00');
  });

  it('are DST-correct: a skipped time moves forward, a repeated time is its first occurrence', () => {
    assert.equal(wallToUtc('2026-03-08 02:30:00', 'America/New_York'), '2026-03-08 07:30:00');
    assert.equal(wallToUtc('2026-11-01 01:30:00', 'America/New_York'), '2026-11-01 05:30:00');
    assert.equal(utcToWall('2026-11-01 06:30:00', 'America/New_York'), '2026-11-01 01:30:00');
  });

  it('reject malformed or impossible wall strings and invalid zones', () => {
    assert.equal(wallToUtc('2025-02-30 10:00:00', 'UTC'), null);
    assert.equal(wallToUtc('2025-07-14T19:30:00', 'UTC'), null);
    assert.equal(wallToUtc('2025-07-14 19:30:00', 'Foo/Bar'), null);
    assert.equal(utcToWall('2025-07-14 19:30:00', 'Foo/Bar'), null);
    assert.equal(parseWall('2025-07-14 24:00:00', 'UTC'), null);
  });

  it('parseWall reads the wall string in the zone', () => {
    assert.equal(parseWall('2025-07-14 19:30:00', 'Europe/Berlin')?.toISO(), '2025-07-14T19:30:00.000+02:00');
  });
});
