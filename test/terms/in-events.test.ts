import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';
import { makeTerm } from './fixtures.js';

/** A wall-clock time `days` from now, in the format the events routes take. */
function daysAhead(days: number, hour: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}

forEachBackend('categories and tags through the events routes', (srv) => {
  it('event writes take IDs and names, create unknown names, and embed the terms sorted by name', async () => {
    const music = await makeTerm(srv(), 'categories', { name: 'Ev Music' });
    const jazz = await makeTerm(srv(), 'categories', { name: 'Ev Jazz', parent: music.id });
    const res = await srv().post('/events', {
      as: 'contributor',
      json: {
        title: 'Gig',
        start_date: daysAhead(10, 20),
        end_date: daysAhead(10, 22),
        categories: [jazz.id, 'ev zeta new', 'EV MUSIC'],
        tags: 'loud, late ,loud',
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.categories.map((t: any) => t.name),
      ['Ev Jazz', 'Ev Music', 'ev zeta new'],
    );
    const embeddedJazz = res.body.categories[0];
    assert.deepEqual(Object.keys(embeddedJazz), [
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    assert.equal(embeddedJazz.parent, music.id);
    assert.equal(embeddedJazz.urls.up, `${srv().root}/categories/${music.id}`);
    assert.deepEqual(
      res.body.tags.map((t: any) => [t.name, t.taxonomy, t.parent]),
      [
        ['late', 'post_tag', 0],
        ['loud', 'post_tag', 0],
      ],
    );
    // A contributor's event is not published: the terms it carries count nothing yet.
    assert.equal(embeddedJazz.count, 0);
    const created = await srv().get('/categories', { query: { slug: 'ev-zeta-new', hide_empty: '0' } });
    assert.equal(created.body.categories[0].parent, 0);
  });

  it('event writes never refuse categories or tags: unusable entries are skipped (terms.md 8.2)', async () => {
    const res = await srv().post('/events', {
      as: 'contributor',
      json: {
        title: 'Gig with odd terms',
        start_date: daysAhead(11, 20),
        end_date: daysAhead(11, 22),
        categories: [999999, { a: 1 }, true, 1.5, ''],
        tags: { a: 1 },
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.categories, []);
    assert.deepEqual(res.body.tags, []);
  });

  it('published events count, filter by a parent category includes its children, and clearing removes the terms', async () => {
    const parent = await makeTerm(srv(), 'categories', { name: 'Ev Parent' });
    const child = await makeTerm(srv(), 'categories', { name: 'Ev Child', parent: parent.id });
    const event = await srv().post('/events', {
      as: 'editor',
      json: {
        title: 'Published gig',
        start_date: daysAhead(20, 18),
        end_date: daysAhead(20, 19),
        categories: [child.id],
        tags: ['ev-tag'],
      },
    });
    assert.equal(event.status, 201, event.text);
    assert.equal(event.body.categories[0].count, 1);
    assert.equal((await srv().get(`/categories/${child.id}`)).body.count, 1);
    assert.equal((await srv().get(`/categories/${parent.id}`)).body.count, 0);
    for (const categories of ['ev-parent', String(child.id), 'Ev Child']) {
      const list = await srv().get('/events', { query: { categories } });
      assert.deepEqual(
        list.body.events.map((e: any) => e.id),
        [event.body.id],
        categories,
      );
    }
    const cleared = await srv().post(`/events/${event.body.id}`, { as: 'editor', json: { categories: '' } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.categories, []);
    assert.equal(cleared.body.tags.length, 1);
    assert.equal((await srv().get(`/categories/${child.id}`)).body.count, 0);
    const tags = await srv().get('/tags', { query: { event: event.body.id } });
    assert.deepEqual(
      tags.body.tags.map((t: any) => t.slug),
      ['ev-tag'],
    );
  });
});
