import type { Trx } from './db/tables.js';
import { normalizeZone } from './time/zone.js';

/** Site settings stored in the database (decisions.md, "Site settings"), read per request. */
interface SettingDef<T> {
  default: T;
  describe: string;
  parse(raw: string): T;
}

const positiveInt = (raw: string): number => {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new Error('must be a positive whole number');
  return Number(raw);
};
const nonNegativeInt = (raw: string): number => {
  if (!/^\d+$/.test(raw.trim())) throw new Error('must be a whole number, 0 or more');
  return Number(raw);
};
const onOff = (raw: string): boolean => {
  const v = raw.trim().toLowerCase();
  if (['1', 'on', 'true', 'yes'].includes(v)) return true;
  if (['0', 'off', 'false', 'no'].includes(v)) return false;
  throw new Error('must be on or off');
};
const text = (raw: string): string => raw;
const oneOf =
  (...values: string[]) =>
  (raw: string): string => {
    if (!values.includes(raw)) throw new Error(`must be one of ${values.join(', ')}`);
    return raw;
  };
const timeZone = (raw: string): string => {
  // The same reading as an event's own `timezone`: a value the time code cannot resolve would
  // be written into every date stored while it is the site's zone.
  const zone = normalizeZone(raw);
  if (zone === null)
    throw new Error(
      'must be an IANA time zone name (e.g. Europe/Paris), UTC, or UTC±N within ±14 hours in quarter hours',
    );
  return zone;
};
const positiveNumber = (raw: string): number => {
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(n > 0)) throw new Error('must be a positive number');
  return n;
};

export const settingDefs = {
  posts_per_page: { default: 10, describe: 'Default page size of every list.', parse: positiveInt },
  max_per_page: {
    default: 50,
    describe: 'Largest page size; larger per_page values are clamped to it.',
    parse: positiveInt,
  },
  timezone: { default: 'UTC', describe: 'Site time zone (IANA name or UTC±N).', parse: timeZone },
  site_name: { default: 'Calendar Server', describe: 'Site name shown in the REST index.', parse: text },
  trash_days: {
    default: 30,
    describe: 'Days after which trashed records are purged (0 = never).',
    parse: nonNegativeInt,
  },
  changes_retention_days: {
    default: 30,
    describe:
      'Days the changes feed keeps a change (an older sync token answers 410 sync_token_expired) and the webhook delivery log a settled delivery.',
    parse: positiveInt,
  },
  webhook_private_addresses: {
    default: false,
    describe: 'Let webhooks deliver to private, loopback and link-local addresses.',
    parse: onOff,
  },
  unfiltered_html: { default: false, describe: 'Let administrators and editors store HTML verbatim.', parse: onOff },
  image_url_check: {
    default: false,
    describe: 'Check image URLs with a HEAD request before accepting them.',
    parse: onOff,
  },
  geoloc_radius: { default: 25, describe: 'Default radius of the events geoloc filter.', parse: positiveNumber },
  geoloc_unit: { default: 'miles', describe: 'Unit of geoloc_radius: miles or km.', parse: oneOf('miles', 'km') },
  currency_symbol: { default: '$', describe: 'Currency symbol of event costs.', parse: text },
  currency_code: { default: 'USD', describe: 'ISO currency code of event costs.', parse: text },
  currency_position: {
    default: 'prefix',
    describe: 'Where the currency symbol goes: prefix or postfix.',
    parse: oneOf('prefix', 'postfix'),
  },
  require_https: { default: false, describe: 'Refuse application passwords over plain HTTP.', parse: onOff },
  series_horizon_months: {
    default: 24,
    describe: 'How far ahead the occurrences of a recurring series exist, in months (extended at start and hourly).',
    parse: positiveInt,
  },
  series_max_occurrences: {
    default: 1000,
    describe: 'Most occurrences a recurring series may have; a rule that needs more is refused.',
    parse: positiveInt,
  },
  rest_api_enabled: {
    default: true,
    describe: 'Serve the calendar/events/v1 routes; off, they answer 404 and site pages advertise the API as disabled.',
    parse: onOff,
  },
} satisfies Record<string, SettingDef<unknown>>;

export type SettingName = keyof typeof settingDefs;
export type Settings = { [K in SettingName]: (typeof settingDefs)[K]['default'] };

export function isSettingName(name: string): name is SettingName {
  return Object.prototype.hasOwnProperty.call(settingDefs, name);
}

export function defaultSettings(): Settings {
  return Object.fromEntries(Object.entries(settingDefs).map(([k, d]) => [k, d.default])) as Settings;
}

/** Parses a raw value for a setting; throws an Error whose message says what is wrong. */
export function parseSetting(name: SettingName, raw: string): Settings[SettingName] {
  return (settingDefs[name] as SettingDef<Settings[SettingName]>).parse(raw);
}

export async function readSettings(db: Trx): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['name', 'value']).execute();
  const settings = defaultSettings() as Record<string, unknown>;
  for (const row of rows) {
    if (!isSettingName(row.name)) continue;
    try {
      settings[row.name] = parseSetting(row.name, row.value);
    } catch {
      // A value written behind the CLI's back falls back to the default rather than breaking requests.
    }
  }
  return settings as Settings;
}

export async function writeSetting(db: Trx, name: SettingName, raw: string): Promise<void> {
  const value = String(parseSetting(name, raw));
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

/** Settings as seen by a running server: re-read at most every `maxAgeMs` so CLI changes show up. */
export class SettingsCache {
  private current: Settings = defaultSettings();
  private loadedAt = 0;
  private loading: Promise<Settings> | null = null;

  constructor(
    private readonly db: Trx,
    private readonly maxAgeMs = 500,
  ) {}

  async get(): Promise<Settings> {
    if (Date.now() - this.loadedAt < this.maxAgeMs) return this.current;
    this.loading ??= readSettings(this.db).then(
      (s) => {
        this.current = s;
        this.loadedAt = Date.now();
        this.loading = null;
        return s;
      },
      (err) => {
        this.loading = null;
        throw err;
      },
    );
    return this.loading;
  }

  /** Forget the cached copy (after a write through this process). */
  invalidate(): void {
    this.loadedAt = 0;
  }
}
