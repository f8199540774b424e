import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { KINDS, create, dataVersion, insertImage, plural } from './helpers.js';

forEachBackend('POST/PUT/PATCH /venues/{id} and /organizers/{id} (and by slug)', (srv) => {
  /** The stored posts row, for database probes. */
  const stored = (id: number) =>
    srv().db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    const attribute = kind === 'venue' ? 'city' : 'email';
    const attributeValue = kind === 'venue' ? 'Springfield' : 'a@example.org';

    describe(`update ${path}/{id}: partial writes (X 7, principle 3)`, () => {
      for (const method of ['POST', 'PUT', 'PATCH']) {
        it(`${method} changes only the fields sent; the slug stays on rename`, async () => {
          const rec = await create(srv(), kind, {
            [kind]: `Partial ${method} ${kind}`,
            description: 'Kept',
            phone: '111',
            [attribute]: attributeValue,
          });
          const res = await srv().request(method, `${path}/${rec.id}`, {
            as: 'administrator',
            json: { [kind]: `Renamed ${method}`, phone: '222' },
          });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body[kind], `Renamed ${method}`);
          assert.equal(res.body.phone, '222');
          assert.equal(res.body.description, '<p>Kept</p>');
          assert.equal(res.body[attribute], attributeValue);
          assert.equal(res.body.slug, rec.slug);
          assert.equal(res.body.status, 'publish');
          assert.equal(res.body.date, rec.date);
          assert.equal('json_ld' in res.body, false);
        });
      }

      it('explicit empty values clear text fields and the description; the keys then disappear', async () => {
        const rec = await create(srv(), kind, {
          [kind]: `Clear ${kind}`,
          description: 'Desc',
          phone: '111',
          website: 'https://a.example.org',
          [attribute]: attributeValue,
        });
        const res = await srv().request('PATCH', `${path}/${rec.id}`, {
          as: 'administrator',
          json: { description: '', phone: '', website: null, [attribute]: '' },
        });
        assert.equal(res.status, 200, res.text);
        for (const key of ['description', 'phone', 'website', attribute]) assert.equal(key in res.body, false, key);
        const row = await stored(rec.id);
        assert.equal(row.description, '');
      });

      it('an empty or non-string name is rejected and nothing changes', async () => {
        const rec = await create(srv(), kind, { [kind]: `Named ${kind}` });
        const version = await dataVersion(srv());
        for (const bad of ['', '0', 7]) {
          const res = await srv().request('PATCH', `${path}/${rec.id}`, {
            as: 'administrator',
            json: { [kind]: bad, phone: '999' },
          });
          expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${kind}`);
        }
        assert.equal((await stored(rec.id)).title, `Named ${kind}`);
        assert.equal(await dataVersion(srv()), version);
        const after = await srv().get(`${path}/${rec.id}`);
        assert.equal('phone' in after.body, false);
      });

      it('modified becomes the time of the update; dates given alone derive the other (VO-37)', async () => {
        const rec = await create(srv(), kind, { [kind]: `Dated ${kind}`, date: '2020-01-01 10:00:00' });
        assert.equal(rec.modified, '2020-01-01 10:00:00');
        const res = await srv().request('PATCH', `${path}/${rec.id}`, {
          as: 'administrator',
          json: { date: '2021-06-01 12:00:00' },
        });
        assert.equal(res.body.date, '2021-06-01 12:00:00');
        assert.equal(res.body.date_utc, '2021-06-01 12:00:00');
        assert.notEqual(res.body.modified, '2020-01-01 10:00:00');
        const utc = await srv().request('PATCH', `${path}/${rec.id}`, {
          as: 'administrator',
          json: { date_utc: '2022-02-02 02:00:00' },
        });
        assert.equal(utc.body.date, '2022-02-02 02:00:00');
      });

      it('status: omitted keeps the current one; given is scaled back for contributors', async () => {
        const contributor = await srv().user('contributor', `upd-contrib-${kind}`);
        const draft = await create(srv(), kind, { [kind]: `Contrib draft ${kind}` }, 'administrator');
        await srv()
          .db.updateTable('posts')
          .set({ author: contributor.id, status: 'draft', date_utc: '0000-00-00 00:00:00' })
          .where('id', '=', draft.id)
          .execute();
        const keep = await srv().request('PATCH', `${path}/${draft.id}`, { as: contributor, json: { phone: '1' } });
        assert.equal(keep.status, 200, keep.text);
        assert.equal(keep.body.status, 'draft');
        const publish = await srv().request('PATCH', `${path}/${draft.id}`, {
          as: contributor,
          json: { status: 'publish' },
        });
        assert.equal(publish.body.status, 'pending');
        const priv = await srv().request('PATCH', `${path}/${draft.id}`, { as: 'editor', json: { status: 'private' } });
        assert.equal(priv.body.status, 'private');
        const pub = await srv().request('PATCH', `${path}/${draft.id}`, { as: 'editor', json: { status: 'publish' } });
        assert.equal(pub.body.status, 'publish');
        assert.notEqual(pub.body.date_utc, '0000-00-00 00:00:00', 'publishing a floating draft stamps the date');
        expectRestError(
          await srv().request('PATCH', `${path}/${draft.id}`, { as: 'editor', json: { status: 'trash' } }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): status',
        );
      });

      it('a future date on a published record schedules it', async () => {
        const rec = await create(srv(), kind, { [kind]: `Reschedule ${kind}` });
        const res = await srv().request('PATCH', `${path}/${rec.id}`, {
          as: 'administrator',
          json: { date: '2099-01-01 00:00:00' },
        });
        assert.equal(res.body.status, 'future');
      });

      it('image: omitted keeps it, a new ID replaces it, "" and 0 and null remove it (VO-7)', async () => {
        const one = await insertImage(srv(), 'https://cdn.example.org/one.jpg');
        const two = await insertImage(srv(), 'https://cdn.example.org/two.jpg');
        const rec = await create(srv(), kind, { [kind]: `Imaged ${kind}`, image: one });
        const keep = await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { phone: '5' } });
        assert.equal(keep.body.image.id, one);
        const swap = await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { image: two } });
        assert.equal(swap.body.image.id, two);
        for (const empty of ['', 0, null]) {
          await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { image: one } });
          const res = await srv().request('PATCH', `${path}/${rec.id}`, {
            as: 'administrator',
            json: { image: empty },
          });
          assert.equal('image' in res.body, false, JSON.stringify(empty));
        }
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { image: 999999 } }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): image',
        );
      });

      it('a bad field value is rejected with the create rules', async () => {
        const rec = await create(srv(), kind, { [kind]: `Strict ${kind}` });
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { website: 'example.org' } }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): website',
        );
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { author: 999999 } }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): author',
        );
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, {
            as: 'administrator',
            json: { date: 'before my birthday' },
          }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): date',
        );
      });

      it('bumps the data version once per update', async () => {
        const rec = await create(srv(), kind, { [kind]: `Versioned ${kind}` });
        const before = await dataVersion(srv());
        await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { phone: '1' } });
        assert.ok((await dataVersion(srv())) > before, 'the write moved the data version');
      });
    });

    describe(`update ${path}: resolution and permission`, () => {
      it('an unknown ID, an ID of another type or an unknown slug is 400 before the permission check', async () => {
        for (const target of [`${path}/999999`, `${path}/by-slug/no-such-slug`]) {
          expectRestError(await srv().request('PATCH', target, { json: { phone: '1' } }), 400, 'rest_invalid_param');
        }
        const other = await create(srv(), kind === 'venue' ? 'organizer' : 'venue', {});
        expectRestError(
          await srv().request('PATCH', `${path}/${other.id}`, { as: 'administrator', json: { phone: '1' } }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): id',
        );
      });

      it('anonymous callers get 401, subscribers 403', async () => {
        const rec = await create(srv(), kind, { [kind]: `Locked ${kind}` });
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { json: { phone: '1' } }),
          401,
          'rest_forbidden',
        );
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { as: 'subscriber', json: { phone: '1' } }),
          403,
          'rest_forbidden',
        );
        const row = await srv()
          .db.selectFrom(kind === 'venue' ? 'venues' : 'organizers')
          .select('phone')
          .where('post_id', '=', rec.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.phone, '');
      });

      it('contributors edit their own unpublished records only; authors their own; editors any (common.md 7.3)', async () => {
        const contributor = await srv().user('contributor', `perm-c-${kind}`);
        const author = await srv().user('author', `perm-a-${kind}`);
        const own = await create(srv(), kind, { [kind]: `Own draft ${kind}` }, 'administrator');
        await srv()
          .db.updateTable('posts')
          .set({ author: contributor.id, status: 'draft' })
          .where('id', '=', own.id)
          .execute();
        assert.equal(
          (await srv().request('PATCH', `${path}/${own.id}`, { as: contributor, json: { phone: '1' } })).status,
          200,
        );
        const ownPublished = await create(srv(), kind, { [kind]: `Own pub ${kind}` }, 'administrator');
        await srv().db.updateTable('posts').set({ author: contributor.id }).where('id', '=', ownPublished.id).execute();
        expectRestError(
          await srv().request('PATCH', `${path}/${ownPublished.id}`, { as: contributor, json: { phone: '1' } }),
          403,
          'rest_forbidden',
        );
        const admins = await create(srv(), kind, { [kind]: `Admins ${kind}`, status: 'draft' }, 'administrator');
        expectRestError(
          await srv().request('PATCH', `${path}/${admins.id}`, { as: contributor, json: { phone: '1' } }),
          403,
          'rest_forbidden',
        );
        expectRestError(
          await srv().request('PATCH', `${path}/${admins.id}`, { as: author, json: { phone: '1' } }),
          403,
          'rest_forbidden',
        );
        await srv()
          .db.updateTable('posts')
          .set({ author: author.id, status: 'publish' })
          .where('id', '=', admins.id)
          .execute();
        assert.equal(
          (await srv().request('PATCH', `${path}/${admins.id}`, { as: author, json: { phone: '1' } })).status,
          200,
        );
        assert.equal(
          (await srv().request('PATCH', `${path}/${admins.id}`, { as: 'editor', json: { phone: '2' } })).status,
          200,
        );
      });

      it('by slug applies the same per-record check (X 2, VO-12)', async () => {
        const rec = await create(srv(), kind, { [kind]: `Slug guarded ${kind}` }, 'administrator');
        expectRestError(
          await srv().request('PATCH', `${path}/by-slug/${rec.slug}`, { as: 'contributor', json: { phone: '1' } }),
          403,
          'rest_forbidden',
        );
        const ok = await srv().request('PUT', `${path}/by-slug/${rec.slug}`, { as: 'editor', json: { phone: '77' } });
        assert.equal(ok.status, 200);
        assert.equal(ok.body.id, rec.id);
        assert.equal(ok.body.phone, '77');
      });

      it('the path names the target: a body id or slug is ignored (X 3)', async () => {
        const a = await create(srv(), kind, { [kind]: `Target A ${kind}` });
        const b = await create(srv(), kind, { [kind]: `Target B ${kind}` });
        const res = await srv().request('PATCH', `${path}/${a.id}`, {
          as: 'administrator',
          json: { id: b.id, slug: b.slug, phone: '3' },
        });
        assert.equal(res.body.id, a.id);
        assert.equal(res.body.slug, a.slug);
        const other = await srv().get(`${path}/${b.id}`);
        assert.equal('phone' in other.body, false);
      });

      it('giving the record to another author needs edit_others_posts (X 9)', async () => {
        const author = await srv().user('author', `give-${kind}`);
        const editor = await srv().user('editor');
        const rec = await create(srv(), kind, { [kind]: `Given away ${kind}` }, 'administrator');
        await srv().db.updateTable('posts').set({ author: author.id }).where('id', '=', rec.id).execute();
        expectRestError(
          await srv().request('PATCH', `${path}/${rec.id}`, { as: author, json: { author: editor.id } }),
          403,
          'rest_forbidden',
        );
        const res = await srv().request('PATCH', `${path}/${rec.id}`, { as: 'editor', json: { author: editor.id } });
        assert.equal(res.body.author, String(editor.id));
      });
    });

    describe(`update ${path}: trashed records`, () => {
      it('an update with a status restores the record and its slug; without one it stays in the trash', async () => {
        const rec = await create(srv(), kind, { [kind]: `Restore ${kind}` });
        await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        const stay = await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { phone: '1' } });
        assert.equal(stay.body.status, 'trash');
        assert.equal(stay.body.slug, `${rec.slug}__trashed`);
        const back = await srv().request('PATCH', `${path}/${rec.id}`, {
          as: 'administrator',
          json: { status: 'draft' },
        });
        assert.equal(back.body.status, 'draft');
        assert.equal(back.body.slug, rec.slug);
        const row = await stored(rec.id);
        assert.equal(row.trashed_slug, null);
        assert.equal(row.trashed_at, null);
      });
    });
  }

  describe('update /venues: venue fields', () => {
    it('map flags: omitted keep their value (VO-8), given set it, null resets to the default', async () => {
      const rec = await create(srv(), 'venue', { venue: 'Flags kept', show_map: 'no', show_map_link: 'no' });
      const keep = await srv().request('PATCH', `/venues/${rec.id}`, { as: 'administrator', json: { city: 'X' } });
      assert.equal(keep.body.show_map, false);
      assert.equal(keep.body.show_map_link, false);
      const set = await srv().request('PATCH', `/venues/${rec.id}`, { as: 'administrator', json: { show_map: true } });
      assert.equal(set.body.show_map, true);
      assert.equal(set.body.show_map_link, false);
      const reset = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { show_map_link: null },
      });
      assert.equal(reset.body.show_map_link, true);
    });

    it('stateprovince is re-derived only when an address region field is sent, from stored and sent values (VO-9)', async () => {
      const rec = await create(srv(), 'venue', { venue: 'Region', country: 'Canada', province: 'ON' });
      assert.equal(rec.stateprovince, 'ON');
      const untouched = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { city: 'Toronto' },
      });
      assert.equal(untouched.body.stateprovince, 'ON');
      const us = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { country: 'United States', state: 'NY' },
      });
      assert.equal(us.body.stateprovince, 'NY');
      assert.equal(us.body.province, 'ON');
      const explicit = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { stateprovince: 'Custom' },
      });
      assert.equal(explicit.body.stateprovince, 'Custom');
      const cleared = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { state: '', province: '', country: 'Germany' },
      });
      assert.equal('stateprovince' in cleared.body, false);
    });

    it('coordinates: set, keep, and clear with "" or null', async () => {
      const rec = await create(srv(), 'venue', { venue: 'Geo update' });
      const set = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { geo_lat: 48.85, geo_lng: 2.35 },
      });
      assert.equal(set.body.geo_lat, 48.85);
      assert.equal(set.body.geo_lng, 2.35);
      const keep = await srv().request('PATCH', `/venues/${rec.id}`, { as: 'administrator', json: { city: 'Paris' } });
      assert.equal(keep.body.geo_lat, 48.85);
      const cleared = await srv().request('PATCH', `/venues/${rec.id}`, {
        as: 'administrator',
        json: { geo_lat: '', geo_lng: null },
      });
      assert.equal('geo_lat' in cleared.body, false);
      const row = await srv()
        .db.selectFrom('venues')
        .select(['geo_lat', 'geo_lng'])
        .where('post_id', '=', rec.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { geo_lat: null, geo_lng: null });
      expectRestError(
        await srv().request('PATCH', `/venues/${rec.id}`, { as: 'administrator', json: { geo_lat: 95 } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): geo_lat',
      );
    });
  });
});
