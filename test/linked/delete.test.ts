import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { expectRestError, forEachBackend } from '../support/server.js';
import { KINDS, create, dataVersion, insertEvent, linkColumn, linkTable, plural } from './helpers.js';

forEachBackend('DELETE /venues/{id} and /organizers/{id} (and by slug)', (srv) => {
  const links = async (kind: 'venue' | 'organizer', eventId: number) => {
    const rows = await srv()
      .db.selectFrom(linkTable(kind))
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('position')
      .execute();
    return rows.map((r: any) => r[linkColumn(kind)] as number);
  };

  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    const key = kind === 'venue' ? 'venues' : 'organizers';

    describe(`DELETE ${path}/{id}`, () => {
      it('moves the record to the trash, renames its slug and answers with the record (6.2, 6.3)', async () => {
        const rec = await create(srv(), kind, { [kind]: `Trash me ${kind}` });
        const version = await dataVersion(srv());
        const res = await srv().request('DELETE', `${path}/${rec.id}`, {
          as: 'administrator',
          query: { force: 'true' },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.id, rec.id);
        assert.equal(res.body.status, 'trash');
        assert.equal(res.body.slug, `${rec.slug}__trashed`);
        assert.equal(res.body.url.endsWith(`/${kind}/${rec.slug}__trashed/`), true);
        assert.equal('json_ld' in res.body, false);
        assert.ok((await dataVersion(srv())) > version, 'the write moved the data version');
        const row = await srv().db.selectFrom('posts').selectAll().where('id', '=', rec.id).executeTakeFirstOrThrow();
        assert.equal(row.trashed_slug, rec.slug);
        assert.equal(row.trashed_status, 'publish');
        assert.notEqual(row.trashed_at, null);
        expectRestError(
          await srv().get(`${path}/by-slug/${rec.slug}`),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): slug',
        );
      });

      it('a second DELETE is 410 is-in-trash and changes nothing', async () => {
        const rec = await create(srv(), kind, { [kind]: `Twice ${kind}` });
        await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        const version = await dataVersion(srv());
        const res = await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        expectRestError(res, 410, `${kind}-is-in-trash`, `The ${kind} is already trashed`);
        assert.equal(await dataVersion(srv()), version);
      });

      it('removes exactly this record from every event, whatever the event status (VO-15)', async () => {
        const a = await create(srv(), kind, { [kind]: `Linked A ${kind}` });
        const b = await create(srv(), kind, { [kind]: `Linked B ${kind}` });
        const published = await insertEvent(srv(), { startsInDays: 1, [key]: [a.id, b.id] });
        const draft = await insertEvent(srv(), { status: 'draft', startsInDays: 1, [key]: [b.id, a.id] });
        const past = await insertEvent(srv(), { status: 'future', startsInDays: -1, [key]: [a.id] });
        const res = await srv().request('DELETE', `${path}/${a.id}`, { as: 'administrator' });
        assert.equal(res.status, 200);
        assert.deepEqual(await links(kind, published), [b.id]);
        assert.deepEqual(await links(kind, draft), [b.id]);
        assert.deepEqual(await links(kind, past), []);
        const list = await srv().get(path, { query: { event: published } });
        assert.deepEqual(
          list.body[plural(kind)].map((r: any) => r.id),
          [b.id],
        );
      });

      it('permanent removal happens only through the trash purge (VO-27)', async () => {
        const rec = await create(srv(), kind, { [kind]: `Purged ${kind}` });
        await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        assert.ok(await srv().db.selectFrom('posts').select('id').where('id', '=', rec.id).executeTakeFirst());
        await srv()
          .db.transaction()
          .execute((trx) => purgeTrash(trx, 0));
        assert.equal(
          await srv().db.selectFrom('posts').select('id').where('id', '=', rec.id).executeTakeFirst(),
          undefined,
        );
        assert.equal(
          await srv()
            .db.selectFrom(kind === 'venue' ? 'venues' : 'organizers')
            .select('post_id')
            .where('post_id', '=', rec.id)
            .executeTakeFirst(),
          undefined,
        );
        expectRestError(await srv().get(`${path}/${rec.id}`), 400, 'rest_invalid_param');
      });
    });

    describe(`DELETE ${path}: resolution and permission`, () => {
      it('an unknown ID is 400 even for anonymous callers; a non-digit ID is rest_no_route', async () => {
        expectRestError(
          await srv().request('DELETE', `${path}/999999`),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): id',
        );
        expectRestError(
          await srv().request('DELETE', `${path}/by-slug/not-there`),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): slug',
        );
        expectRestError(await srv().request('DELETE', `${path}/abc`, { as: 'administrator' }), 404, 'rest_no_route');
      });

      it('anonymous 401, subscriber 403, and the record and its links stay', async () => {
        const rec = await create(srv(), kind, { [kind]: `Protected ${kind}` });
        const event = await insertEvent(srv(), { startsInDays: 1, [key]: [rec.id] });
        expectRestError(await srv().request('DELETE', `${path}/${rec.id}`), 401, 'rest_forbidden');
        expectRestError(
          await srv().request('DELETE', `${path}/${rec.id}`, { as: 'subscriber' }),
          403,
          'rest_forbidden',
        );
        const row = await srv()
          .db.selectFrom('posts')
          .select(['status', 'slug'])
          .where('id', '=', rec.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(row, { status: 'publish', slug: rec.slug });
        assert.deepEqual(await links(kind, event), [rec.id]);
      });

      it('contributors trash their own unpublished records only; authors their own; editors any', async () => {
        const contributor = await srv().user('contributor', `del-c-${kind}`);
        const author = await srv().user('author', `del-a-${kind}`);
        const ownDraft = await create(srv(), kind, { [kind]: `Del own draft ${kind}` });
        await srv()
          .db.updateTable('posts')
          .set({ author: contributor.id, status: 'draft' })
          .where('id', '=', ownDraft.id)
          .execute();
        assert.equal((await srv().request('DELETE', `${path}/${ownDraft.id}`, { as: contributor })).status, 200);
        const ownPublished = await create(srv(), kind, { [kind]: `Del own pub ${kind}` });
        await srv().db.updateTable('posts').set({ author: contributor.id }).where('id', '=', ownPublished.id).execute();
        expectRestError(
          await srv().request('DELETE', `${path}/${ownPublished.id}`, { as: contributor }),
          403,
          'rest_forbidden',
        );
        const authors = await create(srv(), kind, { [kind]: `Del author pub ${kind}` });
        expectRestError(await srv().request('DELETE', `${path}/${authors.id}`, { as: author }), 403, 'rest_forbidden');
        await srv().db.updateTable('posts').set({ author: author.id }).where('id', '=', authors.id).execute();
        assert.equal((await srv().request('DELETE', `${path}/${authors.id}`, { as: author })).status, 200);
        const any = await create(srv(), kind, { [kind]: `Del any ${kind}` });
        assert.equal((await srv().request('DELETE', `${path}/${any.id}`, { as: 'editor' })).status, 200);
      });

      it('by slug resolves the record, then applies the per-record check (X 2)', async () => {
        const rec = await create(srv(), kind, { [kind]: `Del by slug ${kind}` });
        expectRestError(
          await srv().request('DELETE', `${path}/by-slug/${rec.slug}`, { as: 'contributor' }),
          403,
          'rest_forbidden',
        );
        const res = await srv().request('DELETE', `${path}/by-slug/${rec.slug}`, { as: 'editor' });
        assert.equal(res.status, 200);
        assert.equal(res.body.id, rec.id);
        assert.equal(res.body.status, 'trash');
      });

      it('the Allow header lists what the caller may do on the route', async () => {
        const rec = await create(srv(), kind, { [kind]: `Allow ${kind}` });
        assert.equal((await srv().get(`${path}/${rec.id}`)).headers.get('allow'), 'GET');
        assert.equal(
          (await srv().get(`${path}/${rec.id}`, { as: 'editor' })).headers.get('allow'),
          'GET, DELETE, POST, PUT, PATCH',
        );
        assert.equal((await srv().get(path, { as: 'contributor' })).headers.get('allow'), 'GET, POST');
      });
    });
  }
});
