import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';
import { KINDS, countRecords, create, plural } from './helpers.js';

const ODD_VALUES: unknown[] = [
  [],
  {},
  { a: 1 },
  [1, 2],
  ['a', { b: 2 }],
  true,
  false,
  1.5,
  -1,
  0,
  99999999999,
  'x'.repeat(5000),
  '\u0000',
  '%zz',
  '<script>',
];

forEachBackend('venues and organizers: bad input never yields a 500', (srv) => {
  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    const fields =
      kind === 'venue'
        ? [
            'venue',
            'author',
            'date',
            'date_utc',
            'description',
            'status',
            'show_map',
            'show_map_link',
            'address',
            'city',
            'country',
            'province',
            'state',
            'zip',
            'phone',
            'stateprovince',
            'website',
            'image',
            'geo_lat',
            'geo_lng',
          ]
        : ['organizer', 'author', 'date', 'date_utc', 'description', 'status', 'phone', 'website', 'email', 'image'];

    describe(`${path} writes`, () => {
      it('every field with odd JSON values answers 2xx or 4xx, and a 4xx writes nothing', async () => {
        const target = await create(srv(), kind, { [kind]: `Fuzz target ${kind}` });
        for (const field of fields) {
          for (const value of ODD_VALUES) {
            const before = await countRecords(srv(), kind);
            const created = await srv().post(path, {
              as: 'administrator',
              json: { [kind]: `Fuzz ${field}`, [field]: value },
            });
            assert.ok(
              created.status < 500,
              `create ${field}=${JSON.stringify(value).slice(0, 40)}: ${created.status} ${created.text.slice(0, 200)}`,
            );
            if (created.status >= 400) assert.equal(await countRecords(srv(), kind), before);
            const updated = await srv().request('PATCH', `${path}/${target.id}`, {
              as: 'administrator',
              json: { [field]: value },
            });
            assert.ok(
              updated.status < 500,
              `update ${field}=${JSON.stringify(value).slice(0, 40)}: ${updated.status} ${updated.text.slice(0, 200)}`,
            );
          }
        }
      });

      it('form bodies with bracket arrays and nested objects never yield a 500', async () => {
        for (const body of [
          `${kind}[a]=1`,
          `${kind}[]=x&website[]=y`,
          `${kind}=Ok&show_map[x]=1`,
          `${kind}=Ok&image[]=1`,
          `${kind}=Ok&geo_lat[]=1`,
        ]) {
          const res = await srv().post(path, { as: 'administrator', form: body });
          assert.ok(res.status < 500, `${body}: ${res.status} ${res.text}`);
        }
      });
    });

    describe(`${path} reads`, () => {
      it('list parameters with odd values answer 200 or 400', async () => {
        for (const name of ['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status']) {
          for (const value of ['', 'x', '-1', '1.5', '99999999999', '%00', '[]']) {
            for (const as of [undefined, 'editor'] as const) {
              const res = await srv().get(path, { as, query: { [name]: value } });
              assert.ok(
                res.status === 200 || res.status === 400 || res.status === 404,
                `${name}=${value}: ${res.status} ${res.text.slice(0, 200)}`,
              );
            }
          }
          const array = await srv().get(path, { query: { [`${name}[]`]: ['1', '2'] } });
          assert.ok(array.status < 500, `${name}[]: ${array.status}`);
          const object = await srv().get(`${path}?${name}[a][b]=1`);
          assert.ok(object.status < 500, `${name}[a][b]: ${object.status}`);
        }
      });

      it('slugs with odd characters answer 400, never 500', async () => {
        for (const slug of ['%E2%82%AC', '%ZZ', 'a'.repeat(3000), '%00', '%F0%9F%8E%89']) {
          const res = await srv().get(`${path}/by-slug/${slug}`);
          assert.ok(res.status === 400 || res.status === 404, `${slug}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      });
    });
  }
});
