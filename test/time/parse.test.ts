import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { parseDateInput } from '../../src/time/parse.js';

/** Wednesday 16 July 2025, 10:20:30.456 UTC. */
const NOW = DateTime.fromISO('2025-07-16T10:20:30.456Z');

const iso = (value: unknown, zone = 'UTC', now = NOW): string | null =>
  parseDateInput(value, zone, now)?.toISO() ?? null;

describe('parseDateInput: accepted forms of common.md 5.5', () => {
  it('Y-m-d H:i:s is a wall-clock time in the given zone', () => {
    assert.equal(iso('2018-01-01 16:00:00'), '2018-01-01T16:00:00.000+00:00');
    assert.equal(iso('2018-01-01 16:00:00', 'America/New_York'), '2018-01-01T16:00:00.000-05:00');
  });

  it('digits are a Unix timestamp, as a number or a string, optionally signed', () => {
    assert.equal(iso(1514764800), '2018-01-01T00:00:00.000+00:00');
    assert.equal(iso('1514764800'), '2018-01-01T00:00:00.000+00:00');
    assert.equal(iso('1514764800', 'America/New_York'), '2017-12-31T19:00:00.000-05:00');
    assert.equal(iso('+1752487200'), '2025-07-14T10:00:00.000+00:00');
    assert.equal(iso('-86400'), '1969-12-31T00:00:00.000+00:00');
    assert.equal(iso(0), '1970-01-01T00:00:00.000+00:00');
  });

  it('tomorrow with a 12-hour time is that hour of the next day', () => {
    assert.equal(iso('tomorrow 9am'), '2025-07-17T09:00:00.000+00:00');
    assert.equal(iso('tomorrow 11am'), '2025-07-17T11:00:00.000+00:00');
    assert.equal(iso('tomorrow 1pm'), '2025-07-17T13:00:00.000+00:00');
    assert.equal(iso('tomorrow 4pm'), '2025-07-17T16:00:00.000+00:00');
  });

  it('next <weekday> is strictly after today, even on that weekday', () => {
    assert.equal(iso('next wednesday 4pm'), '2025-07-23T16:00:00.000+00:00');
    assert.equal(iso('next wednesday 5pm'), '2025-07-23T17:00:00.000+00:00');
    assert.equal(iso('next thursday'), '2025-07-17T00:00:00.000+00:00');
  });

  it('a date followed by a 12-hour time', () => {
    assert.equal(iso('2018-01-01 4pm'), '2018-01-01T16:00:00.000+00:00');
    assert.equal(iso('2018-01-01 5pm', 'Europe/Berlin'), '2018-01-01T17:00:00.000+01:00');
    assert.equal(iso('2018-01-01 12am'), '2018-01-01T00:00:00.000+00:00');
    assert.equal(iso('2018-01-01 12pm'), '2018-01-01T12:00:00.000+00:00');
    assert.equal(iso('2018-01-01 4:30 PM'), '2018-01-01T16:30:00.000+00:00');
  });

  it('the internal defaults yesterday 23:59 and +24 months', () => {
    assert.equal(iso('yesterday 23:59'), '2025-07-15T23:59:00.000+00:00');
    assert.equal(iso('+24 months'), '2027-07-16T10:20:30.000+00:00');
  });
});

describe('parseDateInput: answers kept between calls', () => {
  it('a fixed input answers the same in each zone; one that reads the clock follows each now', () => {
    assert.equal(iso('2025-07-20 10:00:00', 'America/New_York'), '2025-07-20T10:00:00.000-04:00');
    assert.equal(iso('2025-07-20 10:00:00', 'Europe/Paris'), '2025-07-20T10:00:00.000+02:00');
    assert.equal(iso('2025-07-20 10:00:00', 'America/New_York'), '2025-07-20T10:00:00.000-04:00');
    assert.equal(iso('tomorrow', 'UTC'), '2025-07-17T00:00:00.000+00:00');
    assert.equal(iso('tomorrow', 'UTC', NOW.plus({ days: 3 })), '2025-07-20T00:00:00.000+00:00');
    const long = `2025-07-20 10:00:00${' '.repeat(200)}`;
    assert.equal(
      iso(long, 'UTC'),
      iso('2025-07-20 10:00:00', 'UTC'),
      'a long input is read the same, without being kept',
    );
  });
});

describe('parseDateInput: the grammar of events.md 2.2.6', () => {
  it('a date is midnight of that day', () => {
    assert.equal(iso('2025-07-14'), '2025-07-14T00:00:00.000+00:00');
    assert.equal(iso('2025-07-14', 'UTC+5'), '2025-07-14T00:00:00.000+05:00');
  });

  it('date and time with a space or T, with or without seconds', () => {
    assert.equal(iso('2025-07-14 19:30'), '2025-07-14T19:30:00.000+00:00');
    assert.equal(iso('2025-07-14 19:30:00', 'America/Chicago'), '2025-07-14T19:30:00.000-05:00');
    assert.equal(iso('2025-07-14T19:30:00'), '2025-07-14T19:30:00.000+00:00');
    assert.equal(iso('2025-07-14 19:30', 'UTC-3.5'), '2025-07-14T19:30:00.000-03:30');
    assert.equal(iso('2025-7-4 9:05'), '2025-07-04T09:05:00.000+00:00');
    assert.equal(iso('2025-07-14T9:30'), '2025-07-14T09:30:00.000+00:00');
    assert.equal(iso('2018-01-01 4:30pm'), '2018-01-01T16:30:00.000+00:00');
  });

  it('an ISO time with Z or an offset is an absolute instant, fractions allowed', () => {
    assert.equal(iso('2025-07-14T19:30:00Z', 'America/New_York'), '2025-07-14T15:30:00.000-04:00');
    assert.equal(iso('2025-07-14T19:30:00-04:00'), '2025-07-14T23:30:00.000+00:00');
    assert.equal(iso('2025-07-14T19:30:00+0530'), '2025-07-14T14:00:00.000+00:00');
    assert.equal(iso('2025-07-14T19:30:00.123Z', 'Europe/Berlin'), '2025-07-14T21:30:00.123+02:00');
    assert.equal(iso('2025-07-14 19:30:00.5'), '2025-07-14T19:30:00.500+00:00');
  });

  it('relative day words resolve against now in the zone', () => {
    assert.equal(iso('now'), '2025-07-16T10:20:30.000+00:00');
    assert.equal(iso('today'), '2025-07-16T00:00:00.000+00:00');
    assert.equal(iso('midnight'), '2025-07-16T00:00:00.000+00:00');
    assert.equal(iso('noon'), '2025-07-16T12:00:00.000+00:00');
    assert.equal(iso('tomorrow'), '2025-07-17T00:00:00.000+00:00');
    assert.equal(iso('yesterday'), '2025-07-15T00:00:00.000+00:00');
    assert.equal(iso('tomorrow noon'), '2025-07-17T12:00:00.000+00:00');
  });

  it('"tomorrow" is the next day in the zone, not in UTC', () => {
    // 10:20 UTC is already 16 July 20:20 in Sydney and still 16 July 06:20 in New York.
    assert.equal(iso('tomorrow', 'Australia/Sydney'), '2025-07-17T00:00:00.000+10:00');
    const lateUtc = DateTime.fromISO('2025-07-16T23:30:00Z');
    assert.equal(iso('tomorrow', 'Asia/Tokyo', lateUtc), '2025-07-18T00:00:00.000+09:00');
    assert.equal(iso('tomorrow', 'America/New_York', lateUtc), '2025-07-17T00:00:00.000-04:00');
  });

  it('<weekday> includes today, last <weekday> is strictly before today', () => {
    assert.equal(iso('wednesday'), '2025-07-16T00:00:00.000+00:00');
    assert.equal(iso('monday'), '2025-07-21T00:00:00.000+00:00');
    assert.equal(iso('last wednesday'), '2025-07-09T00:00:00.000+00:00');
    assert.equal(iso('last friday'), '2025-07-11T00:00:00.000+00:00');
    assert.equal(iso('Friday 9am'), '2025-07-18T09:00:00.000+00:00');
  });

  it('relative offsets with every unit, signed or not, several in a row', () => {
    assert.equal(iso('+5 days'), '2025-07-21T10:20:30.000+00:00');
    assert.equal(iso('-1 week'), '2025-07-09T10:20:30.000+00:00');
    assert.equal(iso('15 days'), '2025-07-31T10:20:30.000+00:00');
    assert.equal(iso('+2 hours'), '2025-07-16T12:20:30.000+00:00');
    assert.equal(iso('+1 fortnight'), '2025-07-30T10:20:30.000+00:00');
    assert.equal(iso('+1 year'), '2026-07-16T10:20:30.000+00:00');
    assert.equal(iso('+30 sec'), '2025-07-16T10:21:00.000+00:00');
    assert.equal(iso('-90 seconds'), '2025-07-16T10:19:00.000+00:00');
    assert.equal(iso('+10 min'), '2025-07-16T10:30:30.000+00:00');
    assert.equal(iso('+1 minute'), '2025-07-16T10:21:30.000+00:00');
    assert.equal(iso('+1 month 2 days -3 hours'), '2025-08-18T07:20:30.000+00:00');
  });

  it('month arithmetic overflows like PHP', () => {
    assert.equal(iso('2025-01-31 +1 month'), '2025-03-03T00:00:00.000+00:00');
    assert.equal(iso('2024-02-29 +1 year'), '2025-03-01T00:00:00.000+00:00');
  });

  it('a day expression followed by a time sets the clock', () => {
    assert.equal(iso('+5 days 11am'), '2025-07-21T11:00:00.000+00:00');
    assert.equal(iso('tomorrow 23:59:59'), '2025-07-17T23:59:59.000+00:00');
    assert.equal(iso('today 11:30pm'), '2025-07-16T23:30:00.000+00:00');
    assert.equal(iso('yesterday 00:00:00'), '2025-07-15T00:00:00.000+00:00');
    assert.equal(iso('9am'), '2025-07-16T09:00:00.000+00:00');
  });

  it('a time skipped by the DST change moves forward by the gap', () => {
    assert.equal(iso('2026-03-08 02:30:00', 'America/New_York'), '2026-03-08T03:30:00.000-04:00');
    assert.equal(iso('2026-03-29 02:30:00', 'Europe/Berlin'), '2026-03-29T03:30:00.000+02:00');
  });

  it('a time repeated by the DST change is its first occurrence', () => {
    assert.equal(iso('2026-11-01 01:30:00', 'America/New_York'), '2026-11-01T01:30:00.000-04:00');
    assert.equal(iso('2026-11-01 00:30:00', 'America/New_York'), '2026-11-01T00:30:00.000-04:00');
    assert.equal(iso('2026-11-01 02:30:00', 'America/New_York'), '2026-11-01T02:30:00.000-05:00');
  });

  it('relative days keep the wall clock across DST, hours are elapsed time', () => {
    const before = DateTime.fromISO('2026-03-07T15:00:00Z'); // 10:00 EST
    assert.equal(iso('+1 day', 'America/New_York', before), '2026-03-08T10:00:00.000-04:00');
    assert.equal(iso('+24 hours', 'America/New_York', before), '2026-03-08T11:00:00.000-04:00');
  });

  it('case and surrounding whitespace do not matter', () => {
    assert.equal(iso('  Tomorrow   9AM '), '2025-07-17T09:00:00.000+00:00');
    assert.equal(iso('NEXT Wednesday 4PM'), '2025-07-23T16:00:00.000+00:00');
  });
});

describe('parseDateInput: rejected forms', () => {
  it('the rejected strings of common.md 5.5', () => {
    for (const value of ['', 'foo', 'not a strtotime parsable string', '"before my birthday"', '"after my birthday"']) {
      assert.equal(parseDateInput(value, 'UTC', NOW), null, value);
    }
  });

  it('non-integer numbers, as numbers or strings', () => {
    for (const value of [1.5, '1.5', -0.25, Number.NaN, Number.POSITIVE_INFINITY, '1e5']) {
      assert.equal(parseDateInput(value, 'UTC', NOW), null, String(value));
    }
  });

  it('values that are not strings or numbers', () => {
    for (const value of [null, undefined, true, {}, ['2025-07-14'], 10n]) {
      assert.equal(parseDateInput(value, 'UTC', NOW), null);
    }
  });

  it('impossible dates and clock times', () => {
    for (const value of ['2025-02-30', '2025-13-01', '2025-01-01 24:00', '2025-01-01 12:60', '13pm', '0am', '25:00']) {
      assert.equal(parseDateInput(value, 'UTC', NOW), null, value);
    }
  });

  it('forms outside the grammar', () => {
    for (const value of [
      'tomorrow tomorrow',
      '9am 10am',
      'next week',
      '3 days ago',
      'this friday',
      '+5 parsecs',
      'wednesday wednesday',
      '2025/07/14',
      '14-07-2025',
      'tomorrow at 9am',
      '   ',
    ]) {
      assert.equal(parseDateInput(value, 'UTC', NOW), null, value);
    }
  });

  it('an invalid zone', () => {
    assert.equal(parseDateInput('2025-07-14', 'Mars/Olympus', NOW), null);
  });

  it('a timestamp beyond the representable range', () => {
    assert.equal(parseDateInput('99999999999999999999', 'UTC', NOW), null);
  });
});
