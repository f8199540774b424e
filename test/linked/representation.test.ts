import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';
import { create, insertImage } from './helpers.js';

const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

forEachBackend('venue and organizer representation', (srv) => {
  describe('venue object (venues-organizers.md 1.1)', () => {
    it('shows every stored field in the reference key order', async () => {
      const image = await insertImage(srv(), 'https://cdn.example.org/hall.jpg');
      const venue = await create(srv(), 'venue', {
        venue: 'The Grand Hall',
        description: 'A restored 1920s concert hall.',
        address: '12 Main Street',
        city: 'Springfield',
        country: 'Canada',
        province: 'ON',
        state: 'IL',
        zip: '62701',
        phone: '+1 217 555 0100',
        website: 'https://grandhall.example.org',
        geo_lat: 39.8,
        geo_lng: -89.65,
        show_map: 'yes',
        show_map_link: 'off',
        image,
      });
      const res = await srv().get(`/venues/${venue.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'description',
        'slug',
        'image',
        'address',
        'city',
        'country',
        'province',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'geo_lat',
        'geo_lng',
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      const admin = await srv().user('administrator');
      const site = srv().root.replace(/\/wp-json\/calendar\/events\/v1$/, '');
      const host = new URL(site).hostname;
      assert.equal(res.body.id, venue.id);
      assert.equal(res.body.author, String(admin.id));
      assert.equal(res.body.status, 'publish');
      assert.match(res.body.date, WALL);
      assert.equal(res.body.modified, res.body.date);
      assert.equal(res.body.url, `${site}/venue/the-grand-hall/`);
      assert.equal(res.body.venue, 'The Grand Hall');
      assert.equal(res.body.description, '<p>A restored 1920s concert hall.</p>');
      assert.equal(res.body.slug, 'the-grand-hall');
      assert.deepEqual(res.body.image, {
        url: 'https://cdn.example.org/hall.jpg',
        id: image,
        extension: 'jpg',
        width: 800,
        height: 600,
      });
      assert.equal(res.body.address, '12 Main Street');
      assert.equal(res.body.city, 'Springfield');
      assert.equal(res.body.country, 'Canada');
      assert.equal(res.body.province, 'ON');
      assert.equal(res.body.state, 'IL');
      assert.equal(res.body.zip, '62701');
      assert.equal(res.body.phone, '+1 217 555 0100');
      assert.equal(res.body.website, 'https://grandhall.example.org');
      assert.equal(res.body.stateprovince, 'ON', 'a Canadian address takes the province (4.4)');
      assert.equal(res.body.geo_lat, 39.8);
      assert.equal(res.body.geo_lng, -89.65);
      assert.equal(res.body.show_map, true);
      assert.equal(res.body.show_map_link, false);
      assert.equal(res.body.global_id, `${host}?id=${venue.id}`);
      assert.deepEqual(res.body.global_id_lineage, [`${host}?id=${venue.id}`]);
      assert.equal(res.body.rest_url, undefined, 'venues carry no rest_url');
    });

    it('json_ld is a schema.org Place with plain-text name and description and the record url (VO-21)', async () => {
      const image = await insertImage(srv(), 'https://cdn.example.org/place.png');
      const venue = await create(srv(), 'venue', {
        venue: 'Place <b>Bold</b>',
        description: '<p>First line</p>',
        address: '1 Road',
        city: 'Austin',
        state: 'TX',
        country: 'United States',
        zip: '73301',
        phone: '555',
        website: 'https://place.example.org',
        geo_lat: 30.2,
        geo_lng: -97.7,
        image,
      });
      const res = await srv().get(`/venues/${venue.id}`);
      assert.deepEqual(res.body.json_ld, {
        '@type': 'Place',
        name: 'Place Bold',
        description: 'First line',
        image: 'https://cdn.example.org/place.png',
        url: venue.url,
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Road',
          addressLocality: 'Austin',
          addressRegion: 'TX',
          postalCode: '73301',
          addressCountry: 'United States',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 30.2, longitude: -97.7 },
        telephone: '555',
        sameAs: 'https://place.example.org',
      });
    });

    it('json_ld of a record without details keeps empty telephone and sameAs and an address of @type only', async () => {
      const venue = await create(srv(), 'venue', { venue: 'Bare Venue Ld' });
      const res = await srv().get(`/venues/${venue.id}`);
      assert.deepEqual(res.body.json_ld, {
        '@type': 'Place',
        name: 'Bare Venue Ld',
        description: '',
        url: venue.url,
        address: { '@type': 'PostalAddress' },
        telephone: '',
        sameAs: '',
      });
    });

    it('the json_ld description is cut to 55 words', async () => {
      const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
      const venue = await create(srv(), 'venue', { venue: 'Wordy Venue', description: words.join(' ') });
      const res = await srv().get(`/venues/${venue.id}`);
      assert.equal(res.body.json_ld.description, `${words.slice(0, 55).join(' ')} […]`);
    });

    it('empty fields are left out, while show_map, show_map_link and the global ids always stay', async () => {
      const venue = await create(srv(), 'venue', {
        venue: 'Bare Venue',
        zip: '0',
        show_map: 'no',
        show_map_link: false,
      });
      assert.deepEqual(Object.keys(venue), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      assert.equal(venue.show_map, false);
      assert.equal(venue.show_map_link, false);
      assert.equal(venue.zip, undefined, 'a zip of "0" disappears (1.1)');
    });

    it('both map flags default to true on create; a venue stored without flags reads true', async () => {
      const venue = await create(srv(), 'venue', { venue: 'Flag Default Venue' });
      assert.equal(venue.show_map, true);
      assert.equal(venue.show_map_link, true);
      await srv()
        .db.updateTable('venues')
        .set({ show_map: null, show_map_link: null })
        .where('post_id', '=', venue.id)
        .execute();
      const res = await srv().get(`/venues/${venue.id}`);
      assert.equal(res.body.show_map, true);
      assert.equal(res.body.show_map_link, true);
    });

    it('the map flags take the truthy strings and JSON booleans (4.3, VO-20)', async () => {
      for (const [value, expected] of [
        ['1', true],
        ['TRUE', true],
        ['yes', true],
        ['Y', true],
        ['on', true],
        ['enable', true],
        ['enabled', true],
        [true, true],
        ['0', false],
        ['false', false],
        ['no', false],
        ['', false],
        ['foo', false],
        [false, false],
      ] as const) {
        const venue = await create(srv(), 'venue', {
          venue: `Flag ${String(value)} ${Math.random()}`,
          show_map: value,
        });
        assert.equal(venue.show_map, expected, `show_map=${JSON.stringify(value)}`);
      }
    });

    it('coordinates appear only when both are stored; 0 is a valid coordinate (E19)', async () => {
      const zero = await create(srv(), 'venue', { venue: 'Null Island', geo_lat: 0, geo_lng: 0 });
      assert.equal(zero.geo_lat, 0);
      assert.equal(zero.geo_lng, 0);
      const half = await create(srv(), 'venue', { venue: 'Half Geo', geo_lat: 10 });
      assert.equal('geo_lat' in half, false);
      assert.equal('geo_lng' in half, false);
      const strings = await create(srv(), 'venue', { venue: 'String Geo', geo_lat: '-33.8688', geo_lng: '151.2093' });
      assert.equal(strings.geo_lat, -33.8688);
      assert.equal(strings.geo_lng, 151.2093);
    });

    it('json_ld is left out of lists and write responses', async () => {
      const venue = await create(srv(), 'venue', { venue: 'No Ld Venue' });
      assert.equal('json_ld' in venue, false);
      const list = await srv().get('/venues', { query: { search: 'No Ld Venue' } });
      assert.equal(list.body.venues.length, 1);
      assert.equal('json_ld' in list.body.venues[0], false);
    });

    it('names are returned as stored (sanitized HTML) and trimmed; descriptions are wrapped in paragraphs (X 16)', async () => {
      const venue = await create(srv(), 'venue', {
        venue: '  Tom & Jerry\'s "Hall"  ',
        description: 'Line one\nLine two\n\nSecond',
      });
      // Names are stored as sanitized HTML (inline allow-list), so a bare `&` is stored as an entity.
      assert.equal(venue.venue, 'Tom &amp; Jerry\'s "Hall"');
      assert.equal(venue.description, '<p>Line one<br />\nLine two</p>\n<p>Second</p>');
    });
  });

  describe('organizer object (venues-organizers.md 1.2)', () => {
    it('shows every stored field in the reference key order', async () => {
      const image = await insertImage(srv(), 'https://cdn.example.org/org.jpg');
      const org = await create(srv(), 'organizer', {
        organizer: 'Riverside Arts Collective',
        description: 'Volunteer-run promoter of local music.',
        phone: '+1 217 555 0199',
        website: 'https://riverside-arts.example.org',
        email: 'hello@riverside-arts.example.org',
        image,
      });
      const res = await srv().get(`/organizers/${org.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'description',
        'slug',
        'image',
        'phone',
        'website',
        'email',
        'json_ld',
        'global_id',
        'global_id_lineage',
      ]);
      const site = srv().root.replace(/\/wp-json\/calendar\/events\/v1$/, '');
      assert.equal(res.body.url, `${site}/organizer/riverside-arts-collective/`);
      assert.equal(res.body.organizer, 'Riverside Arts Collective');
      assert.equal(res.body.description, '<p>Volunteer-run promoter of local music.</p>');
      assert.equal(res.body.phone, '+1 217 555 0199');
      assert.equal(res.body.website, 'https://riverside-arts.example.org');
      assert.equal(res.body.email, 'hello@riverside-arts.example.org');
      assert.deepEqual(res.body.json_ld, {
        '@type': 'Person',
        name: 'Riverside Arts Collective',
        description: 'Volunteer-run promoter of local music.',
        image: 'https://cdn.example.org/org.jpg',
        url: 'https://riverside-arts.example.org',
        telephone: '+1 217 555 0199',
        email: 'hello@riverside-arts.example.org',
        sameAs: 'https://riverside-arts.example.org',
      });
    });

    it('every empty field is left out, and json_ld keeps empty strings', async () => {
      const org = await create(srv(), 'organizer', { organizer: 'Bare Org' });
      assert.deepEqual(Object.keys(org), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'global_id',
        'global_id_lineage',
      ]);
      const res = await srv().get(`/organizers/${org.id}`);
      assert.deepEqual(res.body.json_ld, {
        '@type': 'Person',
        name: 'Bare Org',
        description: '',
        url: '',
        telephone: '',
        email: '',
        sameAs: '',
      });
    });

    it('a record without author leaves the author key out', async () => {
      const org = await create(srv(), 'organizer', { organizer: 'Orphan Org' });
      await srv().db.updateTable('posts').set({ author: 0 }).where('id', '=', org.id).execute();
      const res = await srv().get(`/organizers/${org.id}`);
      assert.equal('author' in res.body, false);
    });
  });

  describe('json_ld visibility (1.6)', () => {
    it('anonymous callers get json_ld only on published records; private records need read_private_posts', async () => {
      const author = await srv().user('author', 'ld-author');
      const priv = await create(srv(), 'venue', { venue: 'Private Ld', status: 'private' }, 'administrator');
      await srv().db.updateTable('posts').set({ author: author.id }).where('id', '=', priv.id).execute();
      const asOwner = await srv().get(`/venues/${priv.id}`, { as: author });
      assert.equal(asOwner.status, 200);
      assert.equal('json_ld' in asOwner.body, false, 'the owner lacks read_private_posts');
      const asEditor = await srv().get(`/venues/${priv.id}`, { as: 'editor' });
      assert.equal(typeof asEditor.body.json_ld, 'object');
      const draft = await create(srv(), 'organizer', { organizer: 'Draft Ld', status: 'draft' }, 'editor');
      const asEditorDraft = await srv().get(`/organizers/${draft.id}`, { as: 'editor' });
      assert.equal(asEditorDraft.body.json_ld['@type'], 'Person');
    });
  });
});
