import { sql, type Insertable } from 'kysely';
import { DateTime } from 'luxon';
import { findUserByLogin, insertUser } from '../src/auth/users.js';
import type { Backend } from '../src/db/connect.js';
import { refreshStatistics } from '../src/db/statistics.js';
import type { Database, Db, Trx } from '../src/db/tables.js';
import { Random } from './random.js';
import { addSeries } from './series.js';

/**
 * The benchmark dataset: events over past and future years with realistic durations and time
 * zones, linked to venues, organizers, categories (a three-level tree), tags and images, written
 * straight through the data layer in large batched transactions. The same seed and anchor day
 * always give the same rows.
 */

export interface DatasetOptions {
  events: number;
  seed: number;
  /**
   * The UTC day event dates are spread around (`YYYY-MM-DD`); default today, so the default list window holds events.
   */
  anchor?: string;
  /** Published events made the first events of recurring series, whose occurrences come on top of `events`. */
  series?: number;
  backend: Backend;
  onProgress?: (written: number, total: number) => void;
}

/** What the request pools are built from. */
export interface DatasetSummary {
  seed: number;
  anchor: string;
  events: number;
  venues: number;
  organizers: number;
  images: number;
  categories: number;
  tags: number;
  series: number;
  /** Events written as occurrences of the series, besides `events`. */
  occurrences: number;
  seconds: number;
  /** Up to 5,000 IDs of published events, drawn at random. */
  publishedEventIds: number[];
  categoryIds: number[];
  categorySlugs: string[];
  tagSlugs: string[];
  venueIds: number[];
  organizerIds: number[];
  /** Words that occur in titles and descriptions (search terms). */
  words: string[];
  /** The day the day-writes scenario creates events on, and events of that day it retitles. */
  writeDay: WriteDay;
}

/**
 * A local day (`YYYY-MM-DD`, the date of the events' `start_date`) and up to `WRITE_DAY_EVENTS`
 * published, listed events that start on it and lead no series, in ID order.
 */
export interface WriteDay {
  day: string;
  eventIds: number[];
}

/** Events of the write day that day-writes retitles: the day should have at least this many. */
export const WRITE_DAY_EVENTS = 20;
/** Days after the anchor where the search for the write day starts. */
const WRITE_DAY_OFFSET = 30;

const CITIES = [
  {
    city: 'New York',
    state: 'NY',
    country: 'United States',
    lat: 40.71,
    lng: -74.0,
    zone: 'America/New_York',
    weight: 20,
  },
  {
    city: 'Los Angeles',
    state: 'CA',
    country: 'United States',
    lat: 34.05,
    lng: -118.24,
    zone: 'America/Los_Angeles',
    weight: 10,
  },
  {
    city: 'Chicago',
    state: 'IL',
    country: 'United States',
    lat: 41.88,
    lng: -87.63,
    zone: 'America/Chicago',
    weight: 8,
  },
  { city: 'Toronto', state: 'ON', country: 'Canada', lat: 43.65, lng: -79.38, zone: 'America/Toronto', weight: 6 },
  { city: 'London', state: '', country: 'United Kingdom', lat: 51.51, lng: -0.13, zone: 'Europe/London', weight: 12 },
  { city: 'Paris', state: '', country: 'France', lat: 48.86, lng: 2.35, zone: 'Europe/Paris', weight: 10 },
  { city: 'Berlin', state: '', country: 'Germany', lat: 52.52, lng: 13.4, zone: 'Europe/Berlin', weight: 8 },
  { city: 'Madrid', state: '', country: 'Spain', lat: 40.42, lng: -3.7, zone: 'Europe/Madrid', weight: 5 },
  { city: 'Tokyo', state: '', country: 'Japan', lat: 35.68, lng: 139.69, zone: 'Asia/Tokyo', weight: 6 },
  { city: 'Sydney', state: 'NSW', country: 'Australia', lat: -33.87, lng: 151.21, zone: 'Australia/Sydney', weight: 5 },
  { city: 'São Paulo', state: 'SP', country: 'Brazil', lat: -23.55, lng: -46.63, zone: 'America/Sao_Paulo', weight: 5 },
  { city: 'Mumbai', state: 'MH', country: 'India', lat: 19.08, lng: 72.88, zone: 'Asia/Kolkata', weight: 5 },
] as const;
type City = (typeof CITIES)[number];

const ADJECTIVES = [
  'Summer',
  'Winter',
  'Spring',
  'Autumn',
  'Evening',
  'Morning',
  'Grand',
  'Open',
  'Community',
  'City',
  'Annual',
  'Weekly',
  'Downtown',
  'Riverside',
  'Midnight',
  'Sunday',
];
const TOPICS = [
  'Jazz',
  'Blues',
  'Rock',
  'Folk',
  'Classical',
  'Poetry',
  'Yoga',
  'Pottery',
  'Robotics',
  'Chess',
  'Photography',
  'Cooking',
  'Wine',
  'Coffee',
  'Film',
  'Theatre',
  'Dance',
  'Salsa',
  'Astronomy',
  'Gardening',
  'Cycling',
  'Running',
  'Coding',
  'Design',
  'History',
  'Comedy',
];
const KINDS = [
  'Night',
  'Festival',
  'Workshop',
  'Meetup',
  'Class',
  'Concert',
  'Fair',
  'Market',
  'Tour',
  'Lecture',
  'Session',
  'Club',
  'Gala',
  'Exhibition',
  'Screening',
  'Tasting',
];
const QUALITIES = [
  'friendly',
  'beginner',
  'advanced',
  'family',
  'outdoor',
  'indoor',
  'acoustic',
  'vintage',
  'modern',
  'guided',
  'live',
  'relaxed',
  'lively',
  'seasonal',
];
const VENUE_WORDS = [
  'Blue',
  'Red',
  'Oak',
  'Harbor',
  'Maple',
  'Union',
  'Liberty',
  'Central',
  'Royal',
  'Granite',
  'Willow',
  'Summit',
];
const VENUE_KINDS = ['Hall', 'Theatre', 'Center', 'Club', 'Park', 'Gallery', 'Arena', 'Studio', 'Library', 'Cafe'];
const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Keiko',
  'Luis',
  'Maya',
  'Noah',
];
const LAST_NAMES = [
  'Adams',
  'Bauer',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kumar',
  'Lopez',
  'Martin',
  'Nakamura',
];
const CATEGORY_TREE: Record<string, string[]> = {
  Music: ['Jazz', 'Rock', 'Classical'],
  Arts: ['Theatre', 'Painting', 'Film'],
  Sports: ['Running', 'Cycling', 'Climbing'],
  Education: ['Lectures', 'Languages', 'Programming'],
  'Food and Drink': ['Wine', 'Cooking', 'Coffee'],
  Community: ['Volunteering', 'Markets', 'Festivals'],
  Technology: ['Robotics', 'Design', 'Startups'],
  Wellness: ['Yoga', 'Meditation', 'Hiking'],
};
const CATEGORY_LEAVES = ['for Beginners', 'Masterclasses', 'for Families'];
const TAG_WORDS = [
  'free',
  'outdoor',
  'kids',
  'family',
  'accessible',
  'evening',
  'weekend',
  'online',
  'students',
  'seniors',
  'dog-friendly',
  'wheelchair',
  'rsvp',
  'drop-in',
  'members',
  'charity',
  'live-music',
  'food',
  'drinks',
  'workshop',
];
const TAG_COUNT = 200;
const AUTHORS = [
  { login: 'bench-editor-1', role: 'editor' },
  { login: 'bench-editor-2', role: 'editor' },
  { login: 'bench-author-1', role: 'author' },
  { login: 'bench-author-2', role: 'author' },
  { login: 'bench-author-3', role: 'author' },
  { login: 'bench-contributor', role: 'contributor' },
] as const;

/** Largest bound-parameter count per statement, under each backend's limit. */
const MAX_PARAMS: Record<Backend, number> = { sqlite: 30_000, postgres: 60_000 };
/** Events per transaction: SQLite is fastest with few large ones, PostgreSQL with moderate ones. */
const EVENTS_PER_TRANSACTION: Record<Backend, number> = { sqlite: 100_000, postgres: 20_000 };
const EVENTS_PER_CHUNK = 5_000;
const FLOATING = '0000-00-00 00:00:00';

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
function wall(dt: DateTime): string {
  return `${dt.year}-${pad(dt.month)}-${pad(dt.day)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`;
}
function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/**
 * The day nearest `target` on which at least `WRITE_DAY_EVENTS` of the candidates start; on a
 * dataset too small for that (1,000 events have fewer than one a day), the day with the most,
 * nearest first. `startsOn` maps each local day to the candidates starting on it, in ID order.
 */
function chooseWriteDay(startsOn: Map<string, number[]>, excluded: ReadonlySet<number>, target: DateTime): WriteDay {
  const distance = (day: string) => Math.abs(DateTime.fromISO(day, { zone: 'utc' }).diff(target, 'days').days);
  let best: WriteDay & { distance: number } = { day: target.toISODate()!, eventIds: [], distance: 0 };
  for (const [day, ids] of startsOn) {
    const eventIds = ids.filter((id) => !excluded.has(id)).slice(0, WRITE_DAY_EVENTS);
    const d = distance(day);
    const better =
      eventIds.length !== best.eventIds.length
        ? eventIds.length > best.eventIds.length
        : d !== best.distance
          ? d < best.distance
          : day < best.day;
    if (better) best = { day, eventIds, distance: d };
  }
  return { day: best.day, eventIds: best.eventIds };
}

type Row<T extends keyof Database> = Insertable<Database[T]>;

async function insertRows<T extends keyof Database>(
  trx: Trx,
  table: T,
  rows: Row<T>[],
  backend: Backend,
): Promise<void> {
  if (!rows.length) return;
  const size = Math.max(1, Math.floor(MAX_PARAMS[backend] / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += size) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + size) as any)
      .execute();
  }
}

interface PostInput {
  id: number;
  type: Database['posts']['type'];
  author: number;
  status: string;
  slug: string;
  title: string;
  description?: string;
  excerpt?: string;
  date: string;
  date_utc: string;
  modified?: string;
  modified_utc?: string;
  image_id?: number | null;
}

function postRow(p: PostInput): Row<'posts'> {
  const trashed = p.status === 'trash';
  return {
    id: p.id,
    type: p.type,
    author: p.author,
    status: p.status,
    slug: trashed ? `${p.slug}__trashed` : p.slug,
    title: p.title,
    description: p.description ?? '',
    excerpt: p.excerpt ?? '',
    password: '',
    date: p.date,
    date_utc: p.date_utc,
    modified: p.modified ?? p.date,
    modified_utc: p.modified_utc ?? (p.date_utc === FLOATING ? p.date : p.date_utc),
    image_id: p.image_id ?? null,
    parent_id: 0,
    trashed_slug: trashed ? p.slug : null,
    trashed_status: trashed ? 'publish' : null,
    trashed_at: trashed ? (p.modified_utc ?? p.date_utc) : null,
  };
}

/** Cost inputs as the events routes store them: the cost strings as a JSON array, plus the inferred symbol. */
const COSTS: ReadonlyArray<readonly [{ cost: string; cost_symbol: string; cost_position: string }, number]> = [
  [{ cost: '', cost_symbol: '', cost_position: '' }, 40],
  [{ cost: '["10"]', cost_symbol: '', cost_position: '' }, 12],
  [{ cost: '["$25"]', cost_symbol: '$', cost_position: 'prefix' }, 12],
  [{ cost: '["Free"]', cost_symbol: '', cost_position: '' }, 14],
  [{ cost: '["15-30"]', cost_symbol: '', cost_position: '' }, 8],
  [{ cost: '["20€"]', cost_symbol: '€', cost_position: 'postfix' }, 6],
  [{ cost: '["5.50"]', cost_symbol: '', cost_position: '' }, 8],
];

function sentence(rng: Random, topic: string, kind: string): string {
  const q1 = rng.pick(QUALITIES);
  const q2 = rng.pick(QUALITIES);
  return rng.pick([
    `A ${q1} ${topic.toLowerCase()} ${kind.toLowerCase()} for everyone.`,
    `Join us for a ${q1} and ${q2} afternoon of ${topic.toLowerCase()}.`,
    `Doors open thirty minutes early; the ${kind.toLowerCase()} is ${q2}.`,
    `Bring a friend: this ${q1} ${kind.toLowerCase()} welcomes all levels.`,
    `Expect ${q1} company, ${q2} music and plenty of ${rng.pick(TOPICS).toLowerCase()}.`,
  ]);
}

async function nextId(db: Trx, table: 'posts' | 'terms'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** Writes the dataset into an already-migrated database. */
export async function seedDataset(db: Db, options: DatasetOptions): Promise<DatasetSummary> {
  const started = Date.now();
  const { backend } = options;
  const rng = new Random(`calendar-bench:${options.seed}`);
  const anchorDay = options.anchor
    ? DateTime.fromISO(options.anchor, { zone: 'utc' }).startOf('day')
    : DateTime.utc().startOf('day');
  if (!anchorDay.isValid) throw new Error(`--anchor must be a date such as 2026-01-31 (got "${options.anchor}")`);
  const now = DateTime.utc();
  const total = options.events;
  const venueCount = clamp(Math.round(total / 40), 20, 25_000);
  const organizerCount = clamp(Math.round(total / 60), 10, 20_000);
  const imageCount = clamp(Math.round(total / 100), 10, 10_000);
  if (backend === 'sqlite') {
    // A bulk load of this connection only: keep pages in memory and skip syncs until the end.
    await sql`pragma cache_size = -262144`.execute(db);
    await sql`pragma synchronous = off`.execute(db);
  }
  let postId = await nextId(db, 'posts');
  let termId = await nextId(db, 'terms');

  const authorIds: number[] = [];
  const images: number[] = [];
  const venues: Array<{ id: number; city: City }> = [];
  const organizers: number[] = [];
  const categories: Array<{ id: number; slug: string; depth: number }> = [];
  const tags: Array<{ id: number; slug: string }> = [];

  await db.transaction().execute(async (trx) => {
    for (const a of AUTHORS) {
      const existing = await findUserByLogin(trx, a.login);
      authorIds.push(
        existing
          ? existing.id
          : await insertUser(trx, { login: a.login, role: a.role, email: `${a.login}@bench.example` }),
      );
    }
    const created = wall(anchorDay.minus({ years: 4 }));
    const posts: Row<'posts'>[] = [];
    const imageRows: Row<'images'>[] = [];
    for (let i = 1; i <= imageCount; i++) {
      const id = postId++;
      images.push(id);
      posts.push(
        postRow({
          id,
          type: 'image',
          author: authorIds[0]!,
          status: 'inherit',
          slug: '',
          title: `bench-${i}`,
          date: created,
          date_utc: created,
        }),
      );
      imageRows.push({
        post_id: id,
        url: `https://images.bench.example/${i}.jpg`,
        mime_type: 'image/jpeg',
        extension: 'jpg',
        width: 1200,
        height: 800,
      });
    }
    const venueRows: Row<'venues'>[] = [];
    for (let i = 1; i <= venueCount; i++) {
      const id = postId++;
      const city = rng.weighted(CITIES.map((c) => [c, c.weight] as const));
      venues.push({ id, city });
      const title = `${rng.pick(VENUE_WORDS)} ${rng.pick(VENUE_KINDS)} ${i}`;
      posts.push(
        postRow({
          id,
          type: 'venue',
          author: rng.pick(authorIds),
          status: rng.chance(0.95) ? 'publish' : 'draft',
          slug: slugify(title),
          title,
          description: rng.chance(0.5) ? `A ${rng.pick(QUALITIES)} place in ${city.city}.` : '',
          date: created,
          date_utc: created,
          image_id: rng.chance(0.1) ? rng.pick(images) : null,
        }),
      );
      const geo = rng.chance(0.85);
      venueRows.push({
        post_id: id,
        address: `${rng.int(1, 999)} ${rng.pick(VENUE_WORDS)} Street`,
        city: city.city,
        country: city.country,
        province: '',
        state: city.state,
        zip: String(rng.int(10000, 99999)),
        phone: `+1 555 ${rng.int(1000, 9999)}`,
        website: rng.chance(0.6) ? `https://${slugify(title)}.bench.example` : '',
        stateprovince: city.state,
        show_map: rng.chance(0.8) ? '1' : null,
        show_map_link: rng.chance(0.8) ? '1' : null,
        geo_lat: geo ? Math.round((city.lat + (rng.next() - 0.5) * 0.4) * 1e6) / 1e6 : null,
        geo_lng: geo ? Math.round((city.lng + (rng.next() - 0.5) * 0.4) * 1e6) / 1e6 : null,
      });
    }
    const organizerRows: Row<'organizers'>[] = [];
    for (let i = 1; i <= organizerCount; i++) {
      const id = postId++;
      organizers.push(id);
      const title = rng.chance(0.5)
        ? `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`
        : `${rng.pick(TOPICS)} Society ${i}`;
      posts.push(
        postRow({
          id,
          type: 'organizer',
          author: rng.pick(authorIds),
          status: rng.chance(0.95) ? 'publish' : 'draft',
          slug: `${slugify(title)}-${i}`,
          title,
          date: created,
          date_utc: created,
        }),
      );
      organizerRows.push({
        post_id: id,
        phone: `+1 555 ${rng.int(1000, 9999)}`,
        website: rng.chance(0.5) ? `https://org${i}.bench.example` : '',
        email: `contact${i}@bench.example`,
      });
    }
    await insertRows(trx, 'posts', posts, backend);
    await insertRows(trx, 'images', imageRows, backend);
    await insertRows(trx, 'venues', venueRows, backend);
    await insertRows(trx, 'organizers', organizerRows, backend);

    const termRows: Row<'terms'>[] = [];
    const addCategory = (name: string, parent: number, depth: number) => {
      const id = termId++;
      const slug = slugify(name);
      categories.push({ id, slug, depth });
      termRows.push({
        id,
        taxonomy: 'tribe_events_cat',
        name,
        slug,
        description: depth === 0 ? `Everything about ${name.toLowerCase()}.` : '',
        parent,
      });
      return id;
    };
    for (const [top, children] of Object.entries(CATEGORY_TREE)) {
      const topId = addCategory(top, 0, 0);
      for (const child of children) {
        const childId = addCategory(child, topId, 1);
        for (const leaf of CATEGORY_LEAVES) addCategory(`${child} ${leaf}`, childId, 2);
      }
    }
    for (let i = 0; i < TAG_COUNT; i++) {
      const id = termId++;
      const word = TAG_WORDS[i % TAG_WORDS.length]!;
      const name = i < TAG_WORDS.length ? word : `${word} ${Math.floor(i / TAG_WORDS.length) + 1}`;
      tags.push({ id, slug: slugify(name) });
      termRows.push({ id, taxonomy: 'post_tag', name, slug: slugify(name), description: '', parent: 0 });
    }
    await insertRows(trx, 'terms', termRows, backend);
  });

  const leafCategories = categories.filter((c) => c.depth === 2);
  const midCategories = categories.filter((c) => c.depth === 1);
  const topCategories = categories.filter((c) => c.depth === 0);
  const published: number[] = [];
  /** Published, listed events by the local day of their start: the write day's candidates. */
  const startsOn = new Map<string, number[]>();
  const nowMs = now.toMillis();

  const writeChunk = async (trx: Trx, count: number) => {
    const posts: Row<'posts'>[] = [];
    const events: Row<'events'>[] = [];
    const eventVenues: Row<'event_venues'>[] = [];
    const eventOrganizers: Row<'event_organizers'>[] = [];
    const eventTerms: Row<'event_terms'>[] = [];
    for (let n = 0; n < count; n++) {
      const id = postId++;
      const venue = rng.chance(0.88) ? rng.pick(venues) : null;
      const zone =
        venue && rng.chance(0.9)
          ? venue.city.zone
          : rng.weighted([
              ['UTC', 8],
              ['UTC+5', 1],
              [rng.weighted(CITIES.map((c) => [c.zone, c.weight] as const)), 6],
            ] as const);
      const day = anchorDay.plus({ days: rng.int(-3 * 365, 3 * 365) });
      const allDay = rng.chance(0.02);
      let start: DateTime;
      let end: DateTime;
      if (allDay) {
        start = DateTime.fromObject({ year: day.year, month: day.month, day: day.day }, { zone });
        end = start
          .plus({
            days: rng.weighted([
              [0, 7],
              [1, 2],
              [2, 1],
            ] as const),
          })
          .set({ hour: 23, minute: 59, second: 59 });
      } else {
        start = DateTime.fromObject(
          {
            year: day.year,
            month: day.month,
            day: day.day,
            hour: rng.int(8, 21),
            minute: rng.pick([0, 0, 15, 30, 30, 45]),
          },
          { zone },
        );
        const minutes = rng.weighted([
          [rng.int(1, 2) * 30, 5],
          [rng.int(2, 6) * 30, 60],
          [rng.int(6, 16) * 30, 25],
          [rng.int(1, 4) * 1440 + rng.int(0, 8) * 60, 10],
        ] as const);
        end = start.plus({ minutes });
      }
      const startUtc = start.toUTC();
      const status = rng.weighted([
        ['publish', 900],
        ['draft', 40],
        ['pending', 15],
        ['private', 20],
        ['future', 15],
        ['trash', 10],
      ] as const);
      // Publication dates in the site time zone, UTC (the default setting): a scheduled event goes
      // live later, half of the drafts never had one, the rest were published before their start.
      let dateUtc: string;
      let modified: string;
      if (status === 'future') {
        dateUtc = wall(now.plus({ days: rng.int(2, 60), minutes: rng.int(0, 1439) }).startOf('minute'));
        modified = wall(now.minus({ minutes: rng.int(1, 14_400) }).startOf('minute'));
      } else if ((status === 'draft' || status === 'pending') && rng.chance(0.5)) {
        dateUtc = FLOATING;
        modified = wall(now.minus({ minutes: rng.int(1, 129_600) }).startOf('minute'));
      } else {
        const publishedMs = Math.min(
          startUtc.toMillis() - rng.int(1, 120) * 86_400_000,
          nowMs - rng.int(1, 43_200) * 60_000,
        );
        dateUtc = wall(DateTime.fromMillis(publishedMs - (publishedMs % 60_000), { zone: 'utc' }));
        modified = wall(
          DateTime.fromMillis(Math.min(publishedMs + rng.int(0, 240) * 3_600_000, nowMs) - (publishedMs % 60_000), {
            zone: 'utc',
          }),
        );
      }
      const date = dateUtc === FLOATING ? modified : dateUtc;
      const topic = rng.pick(TOPICS);
      const kind = rng.pick(KINDS);
      const title = `${rng.pick(ADJECTIVES)} ${topic} ${kind}`;
      const paragraphs = rng.int(1, 3);
      const description = Array.from(
        { length: paragraphs },
        () => `${sentence(rng, topic, kind)} ${sentence(rng, topic, kind)}`,
      ).join('\n\n');
      posts.push(
        postRow({
          id,
          type: 'event',
          author: rng.pick(authorIds),
          status,
          slug: `${slugify(title)}-${id}`,
          title,
          description,
          excerpt: rng.chance(0.3) ? sentence(rng, topic, kind) : '',
          date,
          date_utc: dateUtc,
          modified,
          modified_utc: modified,
          image_id: rng.chance(0.25) ? rng.pick(images) : null,
        }),
      );
      const hidden = rng.chance(0.01);
      if (status === 'publish' && !hidden) {
        published.push(id);
        const startDay = wall(start).slice(0, 10);
        const onDay = startsOn.get(startDay);
        if (onDay) onDay.push(id);
        else startsOn.set(startDay, [id]);
      }
      const showMap = rng.weighted([
        [1, 6],
        [0, 3],
        [null, 1],
      ] as const);
      events.push({
        post_id: id,
        start_date: wall(start),
        end_date: wall(end),
        utc_start_date: wall(startUtc),
        utc_end_date: wall(end.toUTC()),
        timezone: zone,
        all_day: allDay ? 1 : 0,
        ...rng.weighted(COSTS),
        website: rng.chance(0.4) ? `https://events.bench.example/${id}` : null,
        show_map: showMap,
        show_map_link: showMap,
        hide_from_listings: hidden ? 1 : 0,
        sticky: rng.chance(0.01) ? 1 : 0,
        featured: rng.chance(0.05) ? 1 : 0,
      });
      if (venue) eventVenues.push({ event_id: id, venue_id: venue.id, position: 0 });
      rng
        .sample(
          organizers,
          rng.weighted([
            [0, 30],
            [1, 45],
            [2, 18],
            [3, 7],
          ] as const),
        )
        .forEach((organizer, position) => {
          eventOrganizers.push({ event_id: id, organizer_id: organizer, position });
        });
      const eventCategories = new Set<number>();
      const categoryCount = rng.weighted([
        [0, 10],
        [1, 45],
        [2, 30],
        [3, 15],
      ] as const);
      while (eventCategories.size < categoryCount) {
        const pool = rng.weighted([
          [leafCategories, 7],
          [midCategories, 2],
          [topCategories, 1],
        ] as const);
        eventCategories.add(pool[rng.skewed(pool.length, 1.5)]!.id);
      }
      const eventTags = new Set<number>();
      const tagCount = rng.int(0, 5);
      while (eventTags.size < tagCount) eventTags.add(tags[rng.skewed(tags.length)]!.id);
      [...eventCategories, ...eventTags].forEach((term, position) =>
        eventTerms.push({ event_id: id, term_id: term, position }),
      );
    }
    await insertRows(trx, 'posts', posts, backend);
    await insertRows(trx, 'events', events, backend);
    await insertRows(trx, 'event_venues', eventVenues, backend);
    await insertRows(trx, 'event_organizers', eventOrganizers, backend);
    await insertRows(trx, 'event_terms', eventTerms, backend);
  };

  let written = 0;
  while (written < total) {
    const inTransaction = Math.min(EVENTS_PER_TRANSACTION[backend], total - written);
    await db.transaction().execute(async (trx) => {
      for (let done = 0; done < inTransaction; done += EVENTS_PER_CHUNK) {
        const count = Math.min(EVENTS_PER_CHUNK, inTransaction - done);
        await writeChunk(trx, count);
        options.onProgress?.(written + done + count, total);
      }
    });
    written += inTransaction;
  }

  if (backend === 'postgres') {
    // Rows were written with explicit IDs: move the sequences past them.
    await sql`select setval(pg_get_serial_sequence('posts', 'id'), (select max(id) from posts))`.execute(db);
    await sql`select setval(pg_get_serial_sequence('terms', 'id'), (select max(id) from terms))`.execute(db);
  }
  const series = Math.min(options.series ?? 0, published.length);
  const { parents, occurrences } = series
    ? await addSeries(db, rng, published, series)
    : { parents: [], occurrences: 0 };
  // Fresh statistics after a bulk load, as one would run after any import: on SQLite the service's
  // own refresh; on PostgreSQL the vacuum with analyze that autovacuum would run soon after
  // (dead row versions of the counters the triggers keep, and the visibility map that index-only
  // scans need).
  if (backend === 'postgres') await sql`vacuum analyze`.execute(db);
  else await refreshStatistics(db, backend);

  return {
    seed: options.seed,
    anchor: anchorDay.toISODate()!,
    events: total,
    venues: venueCount,
    organizers: organizerCount,
    images: imageCount,
    categories: categories.length,
    tags: tags.length,
    series,
    occurrences,
    seconds: (Date.now() - started) / 1000,
    publishedEventIds: rng.sample(published, 5000),
    categoryIds: categories.map((c) => c.id),
    categorySlugs: categories.map((c) => c.slug),
    tagSlugs: tags.map((t) => t.slug),
    venueIds: venues.map((v) => v.id),
    organizerIds: organizers,
    words: [...TOPICS, ...KINDS, ...QUALITIES].map((w) => w.toLowerCase()),
    // Series parents are left out: retitling one would rewrite its occurrences too.
    writeDay: chooseWriteDay(startsOn, new Set(parents), anchorDay.plus({ days: WRITE_DAY_OFFSET })),
  };
}
