import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type RequestOptions } from '../support/server.js';
import { makeEvent } from '../events/helpers.js';

/** The single-event `json_ld` as TEC writes it (events.md 1.11, decisions.md E9, E43). */
forEachBackend('GET /events/{id} json_ld', (srv) => {
  const read = async (id: number, opts: RequestOptions = {}) => {
    const res = await srv().get(`/events/${id}`, opts);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it("description keeps wpautop's trailing newline, written as the two characters \\n (E9)", async () => {
    const one = await makeEvent(srv(), { excerpt: "It's live" });
    assert.equal((await read(one.id)).json_ld.description, "&lt;p&gt;It\\'s live&lt;/p&gt;\\n");
    const two = await makeEvent(srv(), { excerpt: 'First\n\nSecond' });
    assert.equal((await read(two.id)).json_ld.description, '&lt;p&gt;First&lt;/p&gt;\\n&lt;p&gt;Second&lt;/p&gt;\\n');
    const words = await makeEvent(srv(), { description: 'From the <b>description</b>' });
    assert.equal((await read(words.id)).json_ld.description, '&lt;p&gt;From the description&lt;/p&gt;\\n');
    const none = await makeEvent(srv(), {});
    assert.equal((await read(none.id)).json_ld.description, '', 'no text: no paragraph and no newline');
  });

  it('offers.price of a free event is "0", whatever the free cost was written as (E43)', async () => {
    for (const cost of ['0', '0.00', '$0', 0, 'Free', 'free']) {
      const e = await makeEvent(srv(), { cost });
      const body = await read(e.id);
      assert.equal(body.json_ld.offers.price, '0', `cost ${JSON.stringify(cost)}`);
      assert.equal(body.cost, cost === 'free' ? 'free' : 'Free', 'the display cost is unchanged');
    }
  });

  it('offers.price is "0" when the lowest value is numeric zero, else the range without symbols', async () => {
    const fromZero = await makeEvent(srv(), { cost: ['0$', '20$', '30$'] });
    const zeroBody = await read(fromZero.id);
    assert.equal(zeroBody.cost, 'Free – 30$');
    assert.equal(zeroBody.json_ld.offers.price, '0');
    assert.equal((await read((await makeEvent(srv(), { cost: '10-20' })).id)).json_ld.offers.price, '10 – 20');
    assert.equal((await read((await makeEvent(srv(), { cost: '$25' })).id)).json_ld.offers.price, '25');
    assert.equal('offers' in (await read((await makeEvent(srv(), {})).id)).json_ld, false, 'no cost: no offers');
  });

  it('a password-protected event read with its password keeps the venue and organizer JSON-LD, not its own', async () => {
    const e = await makeEvent(srv(), {
      post_password: 'Open Sesame',
      venue: { venue: 'Locked Hall', city: 'Paris' },
      organizer: [{ organizer: 'Locked Org', email: 'org@example.org' }],
    });
    expectRestError(await srv().get(`/events/${e.id}`), 403, 'event-password-protected');
    const withAccess: RequestOptions[] = [
      { query: { password: 'Open Sesame' } },
      { as: 'editor', query: { context: 'edit' } },
    ];
    for (const opts of withAccess) {
      const body = await read(e.id, opts);
      assert.equal('json_ld' in body, false, "the event's own json_ld stays out (events.md 1.11)");
      assert.equal(body.venue.json_ld['@type'], 'Place');
      assert.equal(body.venue.json_ld.name, 'Locked Hall');
      assert.equal(body.organizer[0].json_ld['@type'], 'Person');
      assert.equal(body.organizer[0].json_ld.name, 'Locked Org');
    }
  });

  it('a password-protected event in a list carries no JSON-LD anywhere, with or without the password', async () => {
    const e = await makeEvent(srv(), { title: 'Listed Locked', post_password: 'pw', venue: { venue: 'Listed Hall' } });
    const list = await srv().get('/events', { query: { include: e.id, password: 'pw' } });
    assert.equal(list.status, 200, list.text);
    const item = list.body.events[0];
    assert.equal('json_ld' in item, false);
    assert.equal('json_ld' in item.venue, false);
  });

  it('name of a private event is "Private: {title}" while title stays as stored', async () => {
    const e = await makeEvent(srv(), { title: 'Board & "Staff"', status: 'private' });
    const body = await read(e.id, { as: 'editor' });
    assert.equal(body.title, e.title, 'the title field has no prefix');
    assert.equal(e.title, 'Board &amp; "Staff"');
    assert.equal(body.json_ld.name, 'Private: Board &amp; &quot;Staff&quot;');
    const published = await makeEvent(srv(), { title: 'Open Board' });
    assert.equal((await read(published.id)).json_ld.name, 'Open Board');
  });
});
