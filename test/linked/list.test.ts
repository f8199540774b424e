import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { KINDS, clearAll, create, insertEvent, plural, type Kind } from './helpers.js';

const ids = (body: any, kind: Kind) => (body[plural(kind)] as Array<{ id: number }>).map((r) => r.id);

/** Creates `n` published records with distinct, increasing publication dates; returns IDs oldest first. */
async function seed(srv: TestServer, kind: Kind, n: number, prefix = 'Item'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const rec = await create(srv, kind, {
      [kind]: `${prefix} ${i}`,
      date: `2025-01-${String(i + 1).padStart(2, '0')} 10:00:00`,
    });
    out.push(rec.id);
  }
  return out;
}

forEachBackend('GET /venues and GET /organizers', (srv) => {
  beforeEach(async () => {
    await clearAll(srv());
    await srv().setSetting('posts_per_page', '10');
    await srv().setSetting('max_per_page', '50');
  });

  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    describe(`GET ${path}: envelope and paging`, () => {
      it('lists newest publication date first with the envelope, totals, links and headers', async () => {
        const created = await seed(srv(), kind, 3);
        const res = await srv().get(path);
        assert.equal(res.status, 200);
        assert.deepEqual(Object.keys(res.body), [plural(kind), 'rest_url', 'total', 'total_pages']);
        assert.deepEqual(ids(res.body, kind), [...created].reverse());
        assert.equal(res.body.rest_url, `${srv().root}/${plural(kind)}/?page=1&per_page=10&status=publish`);
        assert.equal(res.body.total, 3);
        assert.equal(res.body.total_pages, 1);
        assert.equal(res.headers.get('x-tec-total'), '3');
        assert.equal(res.headers.get('x-tec-totalpages'), '1');
        assert.equal('json_ld' in res.body[plural(kind)][0], false);
      });

      it('ties on the publication date are ordered by ID, highest first (VO-30)', async () => {
        const a = await create(srv(), kind, { [kind]: 'Tie A', date: '2025-02-01 10:00:00' });
        const b = await create(srv(), kind, { [kind]: 'Tie B', date: '2025-02-01 10:00:00' });
        const res = await srv().get(path);
        assert.deepEqual(ids(res.body, kind), [b.id, a.id]);
      });

      it('per_page and page select a page; next and previous links repeat the filters with page last', async () => {
        const created = (await seed(srv(), kind, 5)).reverse();
        const res = await srv().get(path, { query: { per_page: 2, page: 2 } });
        assert.deepEqual(ids(res.body, kind), created.slice(2, 4));
        const base = `${srv().root}/${plural(kind)}/`;
        assert.deepEqual(Object.keys(res.body), [
          plural(kind),
          'rest_url',
          'next_rest_url',
          'previous_rest_url',
          'total',
          'total_pages',
        ]);
        assert.equal(res.body.rest_url, `${base}?page=2&per_page=2&status=publish`);
        assert.equal(res.body.next_rest_url, `${base}?per_page=2&status=publish&page=3`);
        assert.equal(res.body.previous_rest_url, `${base}?per_page=2&status=publish`);
        assert.equal(res.body.total, 5);
        assert.equal(res.body.total_pages, 3);
        assert.equal(
          res.headers.get('link'),
          `<${srv().base}/>; rel="https://api.w.org/", ` +
            `<${base}?per_page=2&status=publish&page=3>; rel="next", <${base}?per_page=2&status=publish>; rel="prev"`,
        );
        const third = await srv().get(path, { query: { per_page: 2, page: 3 } });
        assert.deepEqual(ids(third.body, kind), created.slice(4));
        assert.equal(third.body.previous_rest_url, `${base}?per_page=2&status=publish&page=2`);
        assert.equal('next_rest_url' in third.body, false);
      });

      it('the default page size is the posts_per_page setting', async () => {
        await seed(srv(), kind, 4);
        await srv().setSetting('posts_per_page', '3');
        const res = await srv().get(path);
        assert.equal(res.body[plural(kind)].length, 3);
        assert.equal(res.body.total_pages, 2);
        assert.match(res.body.rest_url, /per_page=3&/);
      });

      it('per_page above max_per_page is clamped to it, in links too', async () => {
        await seed(srv(), kind, 4);
        await srv().setSetting('max_per_page', '2');
        const res = await srv().get(path, { query: { per_page: 100 } });
        assert.equal(res.body[plural(kind)].length, 2);
        assert.equal(res.body.total_pages, 2);
        assert.equal(res.body.rest_url, `${srv().root}/${plural(kind)}/?page=1&per_page=2&status=publish`);
      });

      it('a page past the last is 404 archive-page-not-found; an empty first page is 200', async () => {
        await seed(srv(), kind, 2);
        const res = await srv().get(path, { query: { page: 2 } });
        expectRestError(
          res,
          404,
          `${kind}-archive-page-not-found`,
          `The requested ${kind} archive page does not exist`,
        );
        await clearAll(srv());
        const empty = await srv().get(path);
        assert.equal(empty.status, 200);
        assert.deepEqual(empty.body[plural(kind)], []);
        assert.equal(empty.body.total, 0);
        assert.equal(empty.body.total_pages, 0);
        assert.equal('next_rest_url' in empty.body, false);
      });

      for (const [name, value] of [
        ['page', 'foo'],
        ['page', '0'],
        ['page', '-1'],
        ['page', '2.5'],
        ['per_page', '0'],
        ['per_page', 'foo bar'],
      ] as const) {
        it(`${name}=${value} is 400 rest_invalid_param`, async () => {
          const res = await srv().get(path, { query: { [name]: value } });
          expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
          assert.deepEqual(res.body.data.params, { [name]: 'Invalid parameter.' });
        });
      }
    });

    describe(`GET ${path}: status and visibility`, () => {
      it('anonymous callers and subscribers see published records only; status=publish is the one value they may send', async () => {
        const pub = await create(srv(), kind, { [kind]: 'Published one' });
        await create(srv(), kind, { [kind]: 'Draft one', status: 'draft' });
        await create(srv(), kind, { [kind]: 'Private one', status: 'private' });
        for (const as of [undefined, 'subscriber'] as const) {
          const res = await srv().get(path, { as });
          assert.deepEqual(ids(res.body, kind), [pub.id]);
          assert.equal(res.body.total, 1);
          const explicit = await srv().get(path, { as, query: { status: 'publish' } });
          assert.deepEqual(ids(explicit.body, kind), [pub.id]);
          for (const status of ['draft', 'publish,draft', 'any']) {
            expectRestError(
              await srv().get(path, { as, query: { status } }),
              400,
              'rest_invalid_param',
              'Invalid parameter(s): status',
            );
          }
        }
      });

      it('contributors and authors see published records plus their own non-public ones (X 8)', async () => {
        const contributor = await srv().user('contributor', `c-${kind}`);
        const pub = await create(srv(), kind, { [kind]: 'Everyone sees' });
        const own = await create(srv(), kind, { [kind]: 'Own draft' }, 'contributor');
        await srv().db.updateTable('posts').set({ author: contributor.id }).where('id', '=', own.id).execute();
        await create(srv(), kind, { [kind]: 'Other draft', status: 'draft' }, 'editor');
        await create(srv(), kind, { [kind]: 'Other private', status: 'private' }, 'editor');
        const res = await srv().get(path, { as: contributor });
        assert.deepEqual(ids(res.body, kind).sort(), [pub.id, own.id].sort());
        assert.equal(res.body.total, 2);
        assert.match(res.body.rest_url, /status=any$/);
        const drafts = await srv().get(path, { as: contributor, query: { status: 'draft' } });
        assert.deepEqual(ids(drafts.body, kind), [own.id]);
      });

      it('editors see every status but trash; status filters by a list, an array, trash or any', async () => {
        const pub = await create(srv(), kind, { [kind]: 'Pub' });
        const draft = await create(srv(), kind, { [kind]: 'Dr', status: 'draft' });
        const pending = await create(srv(), kind, { [kind]: 'Pe', status: 'pending' });
        const priv = await create(srv(), kind, { [kind]: 'Pr', status: 'private' });
        const future = await create(srv(), kind, { [kind]: 'Fu', date: '2099-01-01 10:00:00' });
        assert.equal(future.status, 'future');
        const trashed = await create(srv(), kind, { [kind]: 'Tr' });
        await srv().request('DELETE', `${path}/${trashed.id}`, { as: 'editor' });
        const all = await srv().get(path, { as: 'editor' });
        assert.deepEqual(ids(all.body, kind).sort(), [pub.id, draft.id, pending.id, priv.id, future.id].sort());
        const any = await srv().get(path, { as: 'editor', query: { status: 'any' } });
        assert.equal(any.body.total, 5);
        const list = await srv().get(path, { as: 'editor', query: { status: 'draft, pending' } });
        assert.deepEqual(ids(list.body, kind).sort(), [draft.id, pending.id].sort());
        assert.match(list.body.rest_url, /status=draft%2Cpending$|status=draft,pending$/);
        const array = await srv().get(path, { as: 'editor', query: { 'status[]': ['private', 'future'] } });
        assert.deepEqual(ids(array.body, kind).sort(), [priv.id, future.id].sort());
        const trash = await srv().get(path, { as: 'editor', query: { status: 'trash' } });
        assert.deepEqual(ids(trash.body, kind), [trashed.id]);
        for (const status of ['foo', 'foo, bar, publish', 'auto-draft-x']) {
          expectRestError(
            await srv().get(path, { as: 'editor', query: { status } }),
            400,
            'rest_invalid_param',
            'Invalid parameter(s): status',
          );
        }
      });
    });

    describe(`GET ${path}: search`, () => {
      it('an empty search is the same as none (VO-34); a search with no usable fragment matches nothing', async () => {
        await seed(srv(), kind, 2);
        const empty = await srv().get(path, { query: { search: '' } });
        assert.equal(empty.body.total, 2);
        assert.equal(empty.body.rest_url.includes('search'), false);
        const punct = await srv().get(path, { query: { search: '!!! ééé' } });
        assert.equal(punct.status, 200);
        assert.equal(punct.body.total, 0);
        assert.deepEqual(punct.body[plural(kind)], []);
      });

      it('every fragment must be in the same field, case-insensitively, in any order; links keep the search (VO-3)', async () => {
        const hit = await create(srv(), kind, { [kind]: 'Salle', description: '100, Avenue du Temple' });
        await create(srv(), kind, { [kind]: 'Temple Bar', description: 'On the avenue' });
        const res = await srv().get(path, { query: { search: 'TEMPLE avenue' } });
        assert.deepEqual(ids(res.body, kind), [hit.id]);
        assert.equal(res.body.total, 1);
        assert.equal(
          res.body.rest_url,
          `${srv().root}/${plural(kind)}/?page=1&per_page=10&search=TEMPLE%20avenue&status=publish`,
        );
      });

      it('non-ASCII letters separate fragments', async () => {
        const hit = await create(srv(), kind, { [kind]: 'Cafe Creme' });
        const res = await srv().get(path, { query: { search: 'cafécreme' } });
        assert.deepEqual(ids(res.body, kind), [hit.id]);
      });

      it('trashed records never match a search, even with status=trash', async () => {
        const rec = await create(srv(), kind, { [kind]: 'Binned Thing' });
        await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        const res = await srv().get(path, { as: 'administrator', query: { search: 'binned', status: 'trash' } });
        assert.equal(res.body.total, 0);
      });

      it('a non-string search is 400', async () => {
        const res = await srv().request('POST', path, { query: { _method: 'GET' }, json: { search: 5 } });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): search');
      });
    });

    describe(`GET ${path}: event, has_events, only_with_upcoming`, () => {
      it('event keeps the records linked to that event, whatever its status', async () => {
        const [a, b, c] = await seed(srv(), kind, 3);
        const key = kind === 'venue' ? 'venues' : 'organizers';
        const event = await insertEvent(srv(), { status: 'draft', startsInDays: 3, [key]: [a!, c!] });
        const res = await srv().get(path, { query: { event } });
        assert.deepEqual(ids(res.body, kind), [c, a]);
        assert.equal(
          res.body.rest_url,
          `${srv().root}/${plural(kind)}/?page=1&per_page=10&event=${event}&status=publish`,
        );
        assert.equal(ids(res.body, kind).includes(b!), false);
      });

      it('event must be an existing event ID: 0, unknown IDs and other record types are 400; 12abc fails the integer check', async () => {
        const [rec] = await seed(srv(), kind, 1);
        for (const value of ['0', '999999', String(rec), 'foo', '', '99999999999']) {
          const res = await srv().get(path, { query: { event: value } });
          expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): event');
          assert.equal(res.body.data.params.event, 'Invalid parameter.');
        }
        const event = await insertEvent(srv(), { startsInDays: 1 });
        const typed = await srv().get(path, { query: { event: `${event}abc` } });
        expectRestError(typed, 400, 'rest_invalid_param', 'Invalid parameter(s): event');
        assert.equal(typed.body.data.params.event, 'event is not of type integer.');
      });

      it('has_events truthy keeps records linked from publish/future/private events; anything else keeps the others (VO-5)', async () => {
        const [viaPublished, viaDraft, viaTrash, viaPrivate, none] = await seed(srv(), kind, 5);
        const key = kind === 'venue' ? 'venues' : 'organizers';
        await insertEvent(srv(), { status: 'publish', startsInDays: -30, [key]: [viaPublished!] });
        await insertEvent(srv(), { status: 'draft', startsInDays: 5, [key]: [viaDraft!] });
        await insertEvent(srv(), { status: 'pending', startsInDays: 5, [key]: [viaDraft!] });
        await insertEvent(srv(), { status: 'trash', startsInDays: 5, [key]: [viaTrash!] });
        await insertEvent(srv(), { status: 'private', startsInDays: 5, [key]: [viaPrivate!] });
        for (const value of ['1', 'true', 'yes', 'on']) {
          const res = await srv().get(path, { query: { has_events: value } });
          assert.deepEqual(ids(res.body, kind), [viaPrivate, viaPublished], `has_events=${value}`);
        }
        for (const value of ['0', 'false', 'foo', '']) {
          const res = await srv().get(path, { query: { has_events: value } });
          assert.deepEqual(ids(res.body, kind), [none, viaTrash, viaDraft], `has_events=${value}`);
          assert.equal(res.body.total, 3);
        }
        const linked = await srv().get(path, { query: { has_events: 'true' } });
        assert.equal(
          linked.body.rest_url,
          `${srv().root}/${plural(kind)}/?page=1&per_page=10&has_events=true&status=publish`,
        );
      });

      it('only_with_upcoming keeps records linked to events starting now or later, not past or ongoing ones (VO-4)', async () => {
        const [past, ongoing, upcoming, hidden, farFuture] = await seed(srv(), kind, 5);
        const key = kind === 'venue' ? 'venues' : 'organizers';
        await insertEvent(srv(), { startsInDays: -10, [key]: [past!] });
        await insertEvent(srv(), { startsInDays: -0.02, [key]: [ongoing!] });
        await insertEvent(srv(), { startsInDays: 2, [key]: [upcoming!] });
        await insertEvent(srv(), { startsInDays: 2, hidden: true, [key]: [hidden!] });
        // More upcoming events than one events page: every one counts (VO-4).
        for (let i = 0; i < 12; i++) await insertEvent(srv(), { startsInDays: 3 + i, [key]: [upcoming!] });
        await insertEvent(srv(), { startsInDays: 400, [key]: [farFuture!] });
        const res = await srv().get(path, { query: { only_with_upcoming: 'true' } });
        assert.deepEqual(ids(res.body, kind), [farFuture, upcoming]);
        assert.equal(
          res.body.rest_url,
          `${srv().root}/${plural(kind)}/?page=1&per_page=10&only_with_upcoming=true&status=publish`,
        );
        const off = await srv().get(path, { query: { only_with_upcoming: 'false' } });
        assert.equal(off.body.total, 5, 'a non-truthy value is no filter at all');
      });

      it('only_with_upcoming counts private and draft events only for callers who could list them', async () => {
        const [viaPrivate, viaDraft] = await seed(srv(), kind, 2);
        const key = kind === 'venue' ? 'venues' : 'organizers';
        await insertEvent(srv(), { status: 'private', startsInDays: 2, [key]: [viaPrivate!] });
        await insertEvent(srv(), { status: 'draft', startsInDays: 2, [key]: [viaDraft!] });
        const anon = await srv().get(path, { query: { only_with_upcoming: '1' } });
        assert.deepEqual(ids(anon.body, kind), []);
        const editor = await srv().get(path, { as: 'editor', query: { only_with_upcoming: '1' } });
        assert.deepEqual(ids(editor.body, kind), [viaDraft, viaPrivate]);
      });

      it('filters combine with AND', async () => {
        const [a, b] = await seed(srv(), kind, 2, 'Combo');
        const key = kind === 'venue' ? 'venues' : 'organizers';
        const event = await insertEvent(srv(), { startsInDays: 2, [key]: [a!, b!] });
        await srv().request('PATCH', `${path}/${b}`, { as: 'administrator', json: { [kind]: 'Other name' } });
        const res = await srv().get(path, {
          query: { event, search: 'combo', has_events: '1', only_with_upcoming: '1' },
        });
        assert.deepEqual(ids(res.body, kind), [a]);
        assert.equal(
          res.body.rest_url,
          `${srv().root}/${plural(kind)}/?page=1&per_page=10&search=combo&event=${event}&has_events=1&only_with_upcoming=1&status=publish`,
        );
      });
    });
  }

  describe('searchable fields', () => {
    it('venues are searched in name, description, address, city, province, state, stateprovince, zip and phone, not country or website', async () => {
      const fields: Record<string, string> = {
        venue: 'Nameword',
        description: 'Descword',
        address: 'Addrword',
        city: 'Cityword',
        province: 'Provword',
        state: 'Stateword',
        stateprovince: 'Spword',
        zip: 'Zipword',
        phone: 'Phoneword',
        country: 'Countryword',
        website: 'https://webword.example.org',
      };
      const venue = await create(srv(), 'venue', fields);
      for (const word of [
        'nameword',
        'descword',
        'addrword',
        'cityword',
        'provword',
        'stateword',
        'spword',
        'zipword',
        'phoneword',
      ]) {
        const res = await srv().get('/venues', { query: { search: word } });
        assert.deepEqual(ids(res.body, 'venue'), [venue.id], word);
      }
      for (const word of ['countryword', 'webword']) {
        const res = await srv().get('/venues', { query: { search: word } });
        assert.equal(res.body.total, 0, word);
      }
    });

    it('organizers are searched in name, description, phone, email and website', async () => {
      const org = await create(srv(), 'organizer', {
        organizer: 'Orgname',
        description: 'Orgdesc',
        phone: '555 0199',
        email: 'someone@common.com',
        website: 'http://one.com',
      });
      await create(srv(), 'organizer', { organizer: 'Unrelated', email: 'x@other.org' });
      for (const word of ['orgname', 'orgdesc', '0199', '@common.com', 'http://one.com']) {
        const res = await srv().get('/organizers', { query: { search: word } });
        assert.deepEqual(ids(res.body, 'organizer'), [org.id], word);
      }
    });
  });
});
