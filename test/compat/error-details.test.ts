import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { daysFromNow, makeEvent, tableCounts } from '../events/helpers.js';

/**
 * `rest_invalid_param` keeps TEC's `data.params.{name}` ("Invalid parameter.") and says why in
 * `data.details.{name}`: a stable code and a message naming the value (docs/api.md "Why a parameter was refused").
 */
function expectReason(res: TestResponse, name: string, code: string, message: string | RegExp): void {
  expectRestError(res, 400, 'rest_invalid_param');
  assert.equal(res.body.data.params[name], 'Invalid parameter.', `params.${name} as TEC words it: ${res.text}`);
  const detail = res.body.data.details[name];
  assert.ok(detail, `details.${name}: ${res.text}`);
  assert.deepEqual(Object.keys(detail), ['code', 'message', 'data']);
  assert.equal(detail.code, code, res.text);
  if (message instanceof RegExp) assert.match(detail.message, message);
  else assert.equal(detail.message, message);
  assert.deepEqual(detail.data, { param: name });
}

const event = (fields: Record<string, unknown> = {}) => ({
  title: 'Reasoned',
  start_date: daysFromNow(5),
  end_date: daysFromNow(5, '12:00:00'),
  ...fields,
});

forEachBackend('rest_invalid_param details', (srv) => {
  it('a date the grammar cannot read is invalid_date, naming the value and a form that works', async () => {
    const res = await srv().get('/events', { query: { start_date: '2027-13-45' } });
    expectReason(
      res,
      'start_date',
      'invalid_date',
      'start_date: "2027-13-45" is not a date the service can read (try 2027-12-31 18:00 or an ISO 8601 time)',
    );
    assert.equal(res.body.message, 'Invalid parameter(s): start_date');
    const before = await tableCounts(srv());
    const write = await srv().post('/events', { as: 'administrator', json: event({ end_date: 'next blursday' }) });
    expectReason(write, 'end_date', 'invalid_date', /^end_date: "next blursday" is not a date/);
    assert.deepEqual(await tableCounts(srv()), before, 'nothing written');
    const venue = await srv().post('/venues', { as: 'administrator', json: { venue: 'Dated', date: 'yesterday-ish' } });
    expectReason(venue, 'date', 'invalid_date', /^date: "yesterday-ish" is not a date/);
  });

  it('an unknown event time zone is unknown_timezone', async () => {
    const res = await srv().post('/events', { as: 'administrator', json: event({ timezone: 'Europe/Pariss' }) });
    expectReason(
      res,
      'timezone',
      'unknown_timezone',
      'timezone: "Europe/Pariss" is not a time zone the service knows (try an IANA name such as Europe/Paris, UTC, or an offset such as UTC+2; empty for the site time zone)',
    );
  });

  it('an empty title is empty_value, a title that is no text not_a_string', async () => {
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ title: '' }) }),
      'title',
      'empty_value',
      'title: "" is empty (send a non-empty text; "0" counts as empty)',
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ title: '0' }) }),
      'title',
      'empty_value',
      /^title: "0" is empty/,
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ title: 12 }) }),
      'title',
      'not_a_string',
      'title: 12 is not a text (send a string)',
    );
  });

  it('per_page and page that are no whole number are not_an_integer; zero or less not_positive', async () => {
    expectReason(
      await srv().get('/events', { query: { per_page: 'abc' } }),
      'per_page',
      'not_an_integer',
      'per_page: "abc" is not a whole number (send 1 or more)',
    );
    expectReason(
      await srv().get('/venues', { query: { page: '1.5' } }),
      'page',
      'not_an_integer',
      /^page: "1.5" is not a whole number/,
    );
    expectReason(
      await srv().get('/organizers', { query: { page: '0' } }),
      'page',
      'not_positive',
      'page: "0" is less than 1 (pages and page sizes start at 1)',
    );
  });

  it('an unknown venue or organizer ID is unknown_venue / unknown_organizer, in writes and filters', async () => {
    const e = await makeEvent(srv(), { venue: { venue: 'Known Hall' }, organizer: [{ organizer: 'Known Org' }] });
    const venueId = e.venue.id as number;
    const organizerId = e.organizer[0].id as number;
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ venue: 999999 }) }),
      'venue',
      'unknown_venue',
      'venue: 999999 is not the ID of a venue (GET /venues lists them)',
    );
    // An organizer's ID names no venue.
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ venue: [venueId, organizerId] }) }),
      'venue',
      'unknown_venue',
      `venue: ${organizerId} is not the ID of a venue (GET /venues lists them)`,
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ organizer: `${organizerId},999998` }) }),
      'organizer',
      'unknown_organizer',
      'organizer: 999998 is not the ID of an organizer (GET /organizers lists them)',
    );
    expectReason(
      await srv().get('/events', { query: { venue: 999999 } }),
      'venue',
      'unknown_venue',
      /^venue: 999999 is not the ID of a venue/,
    );
    expectReason(
      await srv().get('/events', { query: { organizer: venueId } }),
      'organizer',
      'unknown_organizer',
      new RegExp(`^organizer: ${venueId} is not the ID of an organizer`),
    );
    expectReason(await srv().get('/venues/999999'), 'id', 'unknown_venue', /^id: 999999 is not the ID of a venue/);
  });

  it('a venue or organizer value that is no ID is not_an_id; bad inline data is invalid_venue_data', async () => {
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ venue: 'abc' }) }),
      'venue',
      'not_an_id',
      'venue: "abc" is not a venue ID (send an ID such as 12, a list or comma-separated string of IDs, or venue data as an object)',
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ organizer: [true] }) }),
      'organizer',
      'not_an_id',
      /^organizer: \[true\] is not an organizer ID/,
    );
    expectReason(
      await srv().get('/events', { query: { venue: 'abc' } }),
      'venue',
      'not_an_id',
      'venue: "abc" is not a venue ID (send an ID such as 12, or a list or comma-separated string of IDs)',
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ venue: { city: 'Nowhere' } }) }),
      'venue',
      'invalid_venue_data',
      'venue: the venue data has no valid venue (the rules of POST /venues apply)',
    );
    expectReason(
      await srv().post('/events', { as: 'administrator', json: event({ venue: { venue: 'Far', geo_lat: 200 } }) }),
      'venue',
      'invalid_venue_data',
      'venue: the venue data has no valid geo_lat (the rules of POST /venues apply)',
    );
  });

  it('every refused parameter gets its own detail, and long values are shortened in the message', async () => {
    const long = `${'x'.repeat(200)}`;
    const res = await srv().post('/events', {
      as: 'administrator',
      json: event({ timezone: long, start_date: 'soonish', title: '' }),
    });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): title, timezone, start_date');
    assert.deepEqual(res.body.data.params, {
      title: 'Invalid parameter.',
      timezone: 'Invalid parameter.',
      start_date: 'Invalid parameter.',
    });
    assert.deepEqual(Object.keys(res.body.data.details), ['title', 'timezone', 'start_date']);
    assert.equal(res.body.data.details.timezone.code, 'unknown_timezone');
    assert.ok(res.body.data.details.timezone.message.length < 300, 'the value is cut');
    assert.match(res.body.data.details.timezone.message, /^timezone: "x{60}…" is not a time zone/);
  });

  it('details that existed keep their shape: rest_invalid_type and event-tickets-not-active', async () => {
    const typed = await srv().get('/events', { query: { featured: 'maybe' } });
    assert.deepEqual(typed.body.data.details, {
      featured: { code: 'rest_invalid_type', message: 'featured is not of type boolean.', data: { param: 'featured' } },
    });
    const ticketed = await srv().get('/events', { query: { ticketed: 'true' } });
    assert.deepEqual(ticketed.body.data.params, { ticketed: 'Event Tickets plugin is not activated.' });
    assert.deepEqual(ticketed.body.data.details.ticketed, {
      code: 'event-tickets-not-active',
      message: 'Event Tickets plugin is not activated.',
      data: { status: 400 },
    });
    const plain = await srv().get('/events', { query: { include: '0' } });
    expectRestError(plain, 400, 'rest_invalid_param');
    assert.deepEqual(plain.body.data.details, [], 'a validator without a reason leaves details empty, as WordPress');
  });
});

forEachBackend('rest_missing_callback_param hint', (srv) => {
  const missing = 'Missing parameter(s): title, start_date, end_date';
  it('a JSON body sent without a JSON content type gets a hint in the message', async () => {
    const before = await tableCounts(srv());
    const res = await srv().post('/events', {
      as: 'administrator',
      body: JSON.stringify(event()),
      headers: { 'content-type': 'text/plain' },
    });
    expectRestError(
      res,
      400,
      'rest_missing_callback_param',
      `${missing} (the body looks like JSON: send Content-Type: application/json)`,
    );
    assert.deepEqual(res.body.data.params, ['title', 'start_date', 'end_date']);
    const form = await srv().post('/events', {
      as: 'administrator',
      body: JSON.stringify(event()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectRestError(
      form,
      400,
      'rest_missing_callback_param',
      `${missing} (the body looks like JSON: send Content-Type: application/json)`,
    );
    assert.deepEqual(await tableCounts(srv()), before);
  });

  it('form bodies and JSON bodies with their content type keep the plain message', async () => {
    expectRestError(
      await srv().post('/events', { as: 'administrator', form: { description: 'x' } }),
      400,
      'rest_missing_callback_param',
      missing,
    );
    expectRestError(
      await srv().post('/events', { as: 'administrator', json: { description: 'x' } }),
      400,
      'rest_missing_callback_param',
      missing,
    );
    expectRestError(
      await srv().post('/events', {
        as: 'administrator',
        body: '{not json',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'rest_missing_callback_param',
      missing,
    );
  });
});

forEachBackend('GET /doc: parameter error details', (srv) => {
  it('documents data.details and every detail code', async () => {
    const doc = (await srv().get('/doc')).body;
    const detail = doc.components.schemas.ParamErrorDetail;
    assert.ok(detail, 'ParamErrorDetail is a named schema');
    assert.deepEqual(detail.required, ['code', 'message', 'data']);
    for (const code of [
      'invalid_date',
      'unknown_timezone',
      'empty_value',
      'not_a_string',
      'not_an_integer',
      'not_positive',
      'not_an_id',
      'unknown_venue',
      'unknown_organizer',
      'invalid_venue_data',
      'invalid_organizer_data',
      'rest_invalid_type',
    ]) {
      assert.ok(detail.properties.code.description.includes(code), code);
    }
    const details = doc.components.schemas.Error.properties.data.anyOf[0].properties.details;
    assert.ok(details, 'Error.data.details is documented');
  });
});
