import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { atWall, luxonZone, normalizeZone, zoneAbbr } from '../../src/time/zone.js';

const WINTER = DateTime.fromISO('2025-01-15T12:00:00Z');
const SUMMER = DateTime.fromISO('2025-07-15T12:00:00Z');

describe('normalizeZone', () => {
  it('keeps IANA names and fixes their case', () => {
    assert.equal(normalizeZone('America/New_York'), 'America/New_York');
    assert.equal(normalizeZone('america/new_york'), 'America/New_York');
    assert.equal(normalizeZone('Europe/Berlin'), 'Europe/Berlin');
    assert.equal(normalizeZone('Asia/Kolkata'), 'Asia/Kolkata');
    assert.equal(normalizeZone('Asia/Calcutta'), 'Asia/Calcutta');
  });

  it('UTC in any case is UTC', () => {
    assert.equal(normalizeZone('UTC'), 'UTC');
    assert.equal(normalizeZone(' utc '), 'UTC');
  });

  it('keeps WordPress manual offsets in their stored form', () => {
    assert.equal(normalizeZone('UTC+5'), 'UTC+5');
    assert.equal(normalizeZone('UTC-3.5'), 'UTC-3.5');
    assert.equal(normalizeZone('UTC+5.75'), 'UTC+5.75');
    assert.equal(normalizeZone('UTC+0'), 'UTC+0');
    assert.equal(normalizeZone('UTC+14'), 'UTC+14');
    assert.equal(normalizeZone('UTC-12'), 'UTC-12');
  });

  it('turns ISO offsets into the WordPress form', () => {
    assert.equal(normalizeZone('+05:00'), 'UTC+5');
    assert.equal(normalizeZone('-03:30'), 'UTC-3.5');
    assert.equal(normalizeZone('+0545'), 'UTC+5.75');
    assert.equal(normalizeZone('UTC+05:30'), 'UTC+5.5');
  });

  it('rejects unknown names, offsets out of range and odd fractions', () => {
    for (const tz of [
      '',
      'Foo/Bar',
      'Mars/Olympus',
      '../etc/passwd',
      'UTC+15',
      'UTC+5.3',
      '+05:20',
      'America/New_York; drop',
    ]) {
      assert.equal(normalizeZone(tz), null, tz);
    }
  });
});

describe('luxonZone', () => {
  it('gives a fixed offset for WordPress offsets and the named zone otherwise', () => {
    assert.equal(luxonZone('UTC+5').offset(0), 300);
    assert.equal(luxonZone('UTC-3.5').offset(0), -210);
    assert.equal(luxonZone('UTC+5.75').offset(0), 345);
    assert.equal(luxonZone('America/New_York').offset(SUMMER.toMillis()), -240);
    assert.equal(luxonZone('UTC').offset(0), 0);
  });

  it('an invalid identifier gives an invalid zone', () => {
    assert.equal(luxonZone('Foo/Bar').isValid, false);
  });
});

describe('zoneAbbr (events.md 1.3, E5)', () => {
  it('is the tz-database abbreviation in effect at the instant', () => {
    assert.equal(zoneAbbr('America/New_York', WINTER), 'EST');
    assert.equal(zoneAbbr('America/New_York', SUMMER), 'EDT');
    assert.equal(zoneAbbr('Europe/Berlin', WINTER), 'CET');
    assert.equal(zoneAbbr('Europe/Berlin', SUMMER), 'CEST');
    assert.equal(zoneAbbr('Asia/Kolkata', SUMMER), 'IST');
    assert.equal(zoneAbbr('Europe/London', SUMMER), 'BST');
    assert.equal(zoneAbbr('Asia/Tokyo', SUMMER), 'JST');
    assert.equal(zoneAbbr('Australia/Sydney', WINTER), 'AEDT');
  });

  it('keeps numeric tz-database forms as they are', () => {
    assert.equal(zoneAbbr('America/Sao_Paulo', SUMMER), '-03');
    assert.equal(zoneAbbr('Asia/Dubai', SUMMER), '+04');
    assert.equal(zoneAbbr('Asia/Kathmandu', SUMMER), '+0545');
  });

  it('follows the rules past the last listed transition', () => {
    assert.equal(zoneAbbr('America/New_York', DateTime.fromISO('2045-07-15T12:00:00Z')), 'EDT');
    assert.equal(zoneAbbr('America/New_York', DateTime.fromISO('2045-12-15T12:00:00Z')), 'EST');
  });

  it('UTC and offset-style zones answer with their identifier', () => {
    assert.equal(zoneAbbr('UTC', SUMMER), 'UTC');
    assert.equal(zoneAbbr('UTC+5', SUMMER), 'UTC+5');
    assert.equal(zoneAbbr('UTC-3.5', WINTER), 'UTC-3.5');
  });
});

describe('atWall', () => {
  const ny = luxonZone('America/New_York');
  it('moves a skipped time forward and takes the first of a repeated time', () => {
    assert.equal(
      atWall({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, ny).toISO(),
      '2026-03-08T03:30:00.000-04:00',
    );
    assert.equal(
      atWall({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, ny).toISO(),
      '2026-11-01T01:30:00.000-04:00',
    );
    assert.equal(
      atWall({ year: 2026, month: 7, day: 1, hour: 12, minute: 0, second: 0 }, ny).toISO(),
      '2026-07-01T12:00:00.000-04:00',
    );
  });
});
