import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import type { Role } from '../../src/auth/roles.js';
import { KINDS, countRecords, create, dataVersion, insertImage, plural, type Kind } from './helpers.js';

forEachBackend('POST /venues and POST /organizers', (srv) => {
  /** Sends a create that must be rejected and proves nothing was written (style.md rule 10). */
  async function rejected(
    kind: Kind,
    fields: Record<string, unknown>,
    as: Role | null = 'administrator',
  ): Promise<TestResponse> {
    const before = {
      count: await countRecords(srv(), kind),
      version: await dataVersion(srv()),
      images: await countRecords(srv(), 'image'),
    };
    const res = await srv().post(`/${plural(kind)}`, { as: as ?? undefined, json: fields });
    assert.equal(await countRecords(srv(), kind), before.count, 'no record was written');
    assert.equal(await countRecords(srv(), 'image'), before.images, 'no image was written');
    assert.equal(await dataVersion(srv()), before.version, 'the data version did not move');
    return res;
  }

  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    describe(`POST ${path}: validation`, () => {
      it('the name is required: absent or null is rest_missing_callback_param, before the permission check', async () => {
        for (const fields of [{}, { [kind]: null }]) {
          const res = await rejected(kind, fields, null);
          expectRestError(res, 400, 'rest_missing_callback_param', `Missing parameter(s): ${kind}`);
          assert.deepEqual(res.body.data.params, [kind]);
        }
      });

      for (const bad of ['', '0', 5, true, ['x']]) {
        it(`a name of ${JSON.stringify(bad)} is rest_invalid_param`, async () => {
          const res = await rejected(kind, { [kind]: bad });
          expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${kind}`);
          assert.deepEqual(res.body.data.params, { [kind]: 'Invalid parameter.' });
        });
      }

      const textFields =
        kind === 'venue'
          ? ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince']
          : ['phone'];
      for (const field of textFields) {
        it(`${field}: a number is rejected by the validator, JSON false by the type check`, async () => {
          const number = await rejected(kind, { [kind]: 'Typed', [field]: 62701 });
          expectRestError(number, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
          assert.equal(number.body.data.params[field], 'Invalid parameter.');
          const falsy = await rejected(kind, { [kind]: 'Typed', [field]: false });
          expectRestError(falsy, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
          assert.equal(falsy.body.data.params[field], `${field} is not of type string.`);
          assert.equal(falsy.body.data.details[field].code, 'rest_invalid_type');
        });
      }

      it('website must be empty or an http(s) URL', async () => {
        for (const bad of [
          'grandhall.example.org',
          'foo',
          'http://',
          'https://exämple.org',
          'mailto:someone@example.org',
        ]) {
          expectRestError(
            await rejected(kind, { [kind]: 'Web', website: bad }),
            400,
            'rest_invalid_param',
            'Invalid parameter(s): website',
          );
        }
        for (const good of ['https://example.org/a?b=c', '']) {
          const rec = await create(srv(), kind, { [kind]: `Web ok ${good}`, website: good });
          assert.equal(rec.website, good || undefined);
        }
      });

      it('description must be a string', async () => {
        expectRestError(
          await rejected(kind, { [kind]: 'Desc', description: 12 }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): description',
        );
      });

      it('status must be publish, future, draft, pending or private (X 10)', async () => {
        for (const bad of ['trash', 'kinda_thinking_about_it', 'auto-draft', 'inherit']) {
          expectRestError(
            await rejected(kind, { [kind]: 'St', status: bad }),
            400,
            'rest_invalid_param',
            'Invalid parameter(s): status',
          );
        }
      });

      it('author must be an existing user; date and date_utc must parse', async () => {
        expectRestError(
          await rejected(kind, { [kind]: 'Au', author: 999999 }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): author',
        );
        expectRestError(
          await rejected(kind, { [kind]: 'Au', author: 'foo' }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): author',
        );
        expectRestError(
          await rejected(kind, { [kind]: 'Da', date: 'foo' }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): date',
        );
        expectRestError(
          await rejected(kind, { [kind]: 'Da', date_utc: 'not a strtotime parsable string' }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): date_utc',
        );
      });

      it('several bad fields are reported together', async () => {
        const res = await rejected(kind, { [kind]: '', website: 'nope', status: 'nope' });
        expectRestError(res, 400, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params).sort(), [kind, 'status', 'website'].sort());
      });

      it('image must be an image ID, or a URL from a caller who may upload files', async () => {
        const notImage = await create(srv(), kind, { [kind]: 'Not an image' });
        for (const bad of [999999, notImage.id, 'foo bar']) {
          expectRestError(
            await rejected(kind, { [kind]: 'Img', image: bad }),
            400,
            'rest_invalid_param',
            'Invalid parameter(s): image',
          );
        }
        expectRestError(
          await rejected(kind, { [kind]: 'Img', image: 'https://cdn.example.org/c.png' }, 'contributor'),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): image',
        );
        const byUrl = await create(
          srv(),
          kind,
          { [kind]: `Img url ${kind}`, image: 'https://cdn.example.org/new.png' },
          'author',
        );
        assert.equal(byUrl.image.url, 'https://cdn.example.org/new.png');
        assert.equal(byUrl.image.extension, 'png');
        const again = await create(
          srv(),
          kind,
          { [kind]: `Img url again ${kind}`, image: 'https://cdn.example.org/new.png' },
          'author',
        );
        assert.equal(again.image.id, byUrl.image.id, 'a known URL reuses its image record');
        const none = await create(srv(), kind, { [kind]: `Img none ${kind}`, image: '' });
        assert.equal('image' in none, false);
      });
    });

    describe(`POST ${path}: permission`, () => {
      it('anonymous callers get 401 and subscribers 403 rest_forbidden', async () => {
        expectRestError(
          await rejected(kind, { [kind]: 'Nope' }, null),
          401,
          'rest_forbidden',
          'Sorry, you are not allowed to do that.',
        );
        expectRestError(await rejected(kind, { [kind]: 'Nope' }, 'subscriber'), 403, 'rest_forbidden');
      });

      it('naming another author needs edit_others_posts (X 9)', async () => {
        const editor = await srv().user('editor');
        expectRestError(
          await rejected(kind, { [kind]: 'Other author', author: editor.id }, 'author'),
          403,
          'rest_forbidden',
        );
        const author = await srv().user('author');
        const self = await create(srv(), kind, { [kind]: `Self author ${kind}`, author: author.id }, 'author');
        assert.equal(self.author, String(author.id));
        const byEditor = await create(srv(), kind, { [kind]: `Assigned author ${kind}`, author: author.id }, 'editor');
        assert.equal(byEditor.author, String(author.id));
      });
    });

    describe(`POST ${path}: status and dates`, () => {
      it('publishers default to publish and get the requested status; a future date schedules', async () => {
        const pub = await create(srv(), kind, { [kind]: `Pub ${kind}` }, 'author');
        assert.equal(pub.status, 'publish');
        const draft = await create(srv(), kind, { [kind]: `Dra ${kind}`, status: 'draft' }, 'author');
        assert.equal(draft.status, 'draft');
        const priv = await create(srv(), kind, { [kind]: `Pri ${kind}`, status: 'private' }, 'editor');
        assert.equal(priv.status, 'private');
        const future = await create(srv(), kind, { [kind]: `Fut ${kind}`, date: '2099-01-01 00:00:00' });
        assert.equal(future.status, 'future');
        const past = await create(srv(), kind, {
          [kind]: `Past ${kind}`,
          status: 'future',
          date: '2001-01-01 00:00:00',
        });
        assert.equal(past.status, 'publish');
      });

      it('contributors get draft by default and pending for publish, future and private (X 11)', async () => {
        const plain = await create(srv(), kind, { [kind]: `Contrib ${kind}` }, 'contributor');
        assert.equal(plain.status, 'draft');
        assert.equal(plain.date_utc, '0000-00-00 00:00:00', 'a draft created without date floats (VO-26)');
        for (const status of ['publish', 'future', 'private']) {
          const rec = await create(srv(), kind, { [kind]: `Contrib ${status} ${kind}`, status }, 'contributor');
          assert.equal(rec.status, 'pending', status);
        }
      });

      it('date is read in the site time zone and date_utc derived; date_utc alone derives date', async () => {
        await srv().setSetting('timezone', 'America/Chicago');
        try {
          const local = await create(srv(), kind, { [kind]: `Local ${kind}`, date: '2025-03-01 10:15:00' });
          assert.equal(local.date, '2025-03-01 10:15:00');
          assert.equal(local.date_utc, '2025-03-01 16:15:00');
          assert.equal(local.modified, '2025-03-01 10:15:00');
          assert.equal(local.modified_utc, '2025-03-01 16:15:00');
          const utc = await create(srv(), kind, { [kind]: `Utc ${kind}`, date_utc: '2025-03-01 16:15:00' });
          assert.equal(utc.date, '2025-03-01 10:15:00');
          const offset = await create(srv(), kind, { [kind]: `Offset ${kind}`, date: '2025-03-01T10:15:00+00:00' });
          assert.equal(offset.date, '2025-03-01 04:15:00', 'an explicit offset is converted (VO-37)');
          const both = await create(srv(), kind, {
            [kind]: `Both ${kind}`,
            date: '2025-03-01 10:00:00',
            date_utc: '2025-03-02 00:00:00',
          });
          assert.equal(both.date, '2025-03-01 10:00:00');
          assert.equal(both.date_utc, '2025-03-02 00:00:00');
          const draft = await create(srv(), kind, {
            [kind]: `Draft dated ${kind}`,
            status: 'draft',
            date: '2025-03-01 10:15:00',
          });
          assert.equal(draft.date, '2025-03-01 10:15:00');
          assert.equal(draft.date_utc, '0000-00-00 00:00:00');
        } finally {
          await srv().setSetting('timezone', 'UTC');
        }
      });
    });

    describe(`POST ${path}: stored values`, () => {
      it('answers 201 without a Location header and bumps the data version once', async () => {
        const before = await dataVersion(srv());
        const res = await srv().post(path, { as: 'editor', json: { [kind]: `Fresh ${kind}` } });
        assert.equal(res.status, 201);
        assert.equal(res.headers.get('location'), null);
        assert.ok((await dataVersion(srv())) > before, 'the write moved the data version');
      });

      it('text attributes are stored as plain text: tags stripped, whitespace collapsed, %XX kept (4.5, VO-22)', async () => {
        const rec = await create(srv(), kind, {
          [kind]: `Plain ${kind}`,
          phone: '  <b>555</b>\n\t 0100 ',
          website: 'http://x.org/a%20b',
        });
        assert.equal(rec.phone, '555 0100');
        assert.equal(rec.website, 'http://x.org/a%20b');
      });

      it('names and descriptions lose disallowed HTML (X 16)', async () => {
        const rec = await create(
          srv(),
          kind,
          {
            [kind]: `<script>alert(1)</script><em>Shiny</em> ${kind}`,
            description: '<p onclick="x()">Hi</p><script>bad()</script>',
          },
          'author',
        );
        assert.equal(rec[kind], `<em>Shiny</em> ${kind}`);
        assert.equal(rec.description, '<p>Hi</p>');
      });

      it('explicit nulls on optional fields are the same as absent on create (VO-20)', async () => {
        const fields: Record<string, unknown> = {
          [kind]: `Nulls ${kind}`,
          description: null,
          status: null,
          image: null,
          phone: null,
          author: null,
          date: null,
        };
        if (kind === 'venue') Object.assign(fields, { show_map: null, geo_lat: null, city: null });
        else Object.assign(fields, { email: null });
        const rec = await create(srv(), kind, fields, 'author');
        assert.equal(rec.status, 'publish');
        assert.equal('phone' in rec, false);
        if (kind === 'venue') assert.equal(rec.show_map, true);
      });

      it('unknown parameters and a body id are ignored', async () => {
        const rec = await create(srv(), kind, {
          [kind]: `Unknown ${kind}`,
          id: 1,
          timezone: 'Europe/Paris',
          url: 'https://evil.example',
        });
        assert.notEqual(rec.id, 1);
        assert.notEqual(rec.url, 'https://evil.example');
      });
    });

    describe(`POST ${path}: reuse of an existing record (4.9, VO-11)`, () => {
      it('the same name, compared trimmed and case-insensitively, answers 201 with the existing record and its given attributes updated', async () => {
        const first = await create(srv(), kind, {
          [kind]: `Reuse Me ${kind}`,
          phone: '111',
          website: 'https://keep.example.org',
        });
        const before = await countRecords(srv(), kind);
        const again = await srv().post(path, {
          as: 'administrator',
          json: { [kind]: `  reuse me ${kind.toUpperCase()} `, phone: '222' },
        });
        assert.equal(again.status, 201);
        assert.equal(again.body.id, first.id);
        assert.equal(again.body[kind], `Reuse Me ${kind}`, 'the name is not touched');
        assert.equal(again.body.phone, '222');
        assert.equal(again.body.website, 'https://keep.example.org', 'attributes not given are kept');
        assert.equal(await countRecords(srv(), kind), before);
      });

      it('a given description must match too', async () => {
        const first = await create(srv(), kind, { [kind]: `Described ${kind}`, description: 'A venue description' });
        const same = await create(srv(), kind, { [kind]: `described ${kind}`, description: 'a venue description' });
        assert.equal(same.id, first.id);
        const other = await create(srv(), kind, { [kind]: `Described ${kind}`, description: 'Something else' });
        assert.notEqual(other.id, first.id);
      });

      it('records the caller may not edit, and trashed records, are not reused', async () => {
        const admins = await create(srv(), kind, { [kind]: `Admin owned ${kind}` }, 'administrator');
        const contributors = await create(srv(), kind, { [kind]: `Admin owned ${kind}` }, 'contributor');
        assert.notEqual(contributors.id, admins.id);
        assert.equal(contributors.status, 'draft');
        const trashed = await create(srv(), kind, { [kind]: `Binned ${kind}` });
        await srv().request('DELETE', `${path}/${trashed.id}`, { as: 'administrator' });
        const fresh = await create(srv(), kind, { [kind]: `Binned ${kind}` });
        assert.notEqual(fresh.id, trashed.id);
        assert.equal(fresh.slug, `binned-${kind}`, 'the trashed record freed its slug');
      });
    });
  }

  describe('POST /venues: venue fields', () => {
    it('stateprovince is derived from state for US addresses, else from the province (4.4)', async () => {
      const cases: Array<[Record<string, string>, string | undefined]> = [
        [{ country: 'Canada', province: 'ON' }, 'ON'],
        [{ country: 'United States', state: 'DC' }, 'DC'],
        [{ country: 'US', state: 'NY', province: 'X' }, 'NY'],
        [{ state: 'CA' }, 'CA'],
        [{ state: 'Bavaria', country: 'Germany' }, undefined],
        [{ state: 'Bavaria', country: 'Germany', province: 'BY' }, 'BY'],
        [{ stateprovince: 'Given', state: 'CA' }, 'Given'],
      ];
      for (const [fields, expected] of cases) {
        const rec = await create(srv(), 'venue', { venue: `SP ${JSON.stringify(fields)}`, ...fields });
        assert.equal(rec.stateprovince, expected, JSON.stringify(fields));
      }
    });

    it('coordinates are validated: latitude -90..90, longitude -180..180, numbers only', async () => {
      for (const [field, value] of [
        ['geo_lat', 90.5],
        ['geo_lat', -91],
        ['geo_lng', 180.1],
        ['geo_lng', -200],
        ['geo_lat', 'north'],
        ['geo_lng', true],
      ] as const) {
        const res = await rejected('venue', { venue: 'Geo bad', [field]: value });
        expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
      }
      const edge = await create(srv(), 'venue', { venue: 'Geo edge', geo_lat: -90, geo_lng: 180 });
      assert.equal(edge.geo_lat, -90);
      assert.equal(edge.geo_lng, 180);
    });

    it('show_map must be a string or a boolean', async () => {
      for (const value of [5, ['1'], { a: 1 }]) {
        expectRestError(
          await rejected('venue', { venue: 'Flag bad', show_map: value }),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): show_map',
        );
      }
    });

    it('form bodies work like JSON', async () => {
      const res = await srv().post('/venues', {
        as: 'administrator',
        form: { venue: 'Form Venue', city: 'Rome', show_map: '0' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.city, 'Rome');
      assert.equal(res.body.show_map, false);
    });
  });

  describe('POST /organizers: email (X 13)', () => {
    it('any string is accepted as email, with no format check; a non-string is rejected', async () => {
      for (const text of ['foo', 'a@', '@b.com', 'a b@c.com', 'a@b@c', 'hello@riverside-arts.example.org']) {
        const ok = await create(srv(), 'organizer', { organizer: `Mail ${text}`, email: text });
        assert.equal(ok.email, text);
      }
      expectRestError(
        await rejected('organizer', { organizer: 'Mail bad', email: 12345 }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): email',
      );
    });
  });

  describe('images are shared records', () => {
    it('an existing image ID is linked as is', async () => {
      const image = await insertImage(srv(), 'https://cdn.example.org/shared.jpg');
      const rec = await create(srv(), 'organizer', { organizer: 'With image', image: String(image) });
      assert.equal(rec.image.id, image);
    });
  });
});
