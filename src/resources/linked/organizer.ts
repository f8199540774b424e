import type { JsonLdInput, LinkedKind } from './kind.js';

/** schema.org `Person` (1.6 with VO-21: plain-text name and description, e-mail not obfuscated). */
function personJsonLd({ row, name, description, imageUrl }: JsonLdInput): Record<string, unknown> {
  const text = (key: string) => (typeof row[key] === 'string' ? (row[key] as string) : '');
  const out: Record<string, unknown> = { '@type': 'Person', name, description };
  if (imageUrl) out.image = imageUrl;
  out.url = text('website');
  out.telephone = text('phone');
  out.email = text('email');
  out.sameAs = text('website');
  return out;
}

/** Organizers: the attribute table of venues-organizers.md 1.2 / 4.2. */
export const organizerKind: LinkedKind = {
  type: 'organizer',
  collection: 'organizers',
  table: 'organizers',
  linkTable: 'event_organizers',
  linkColumn: 'organizer_id',
  fields: [
    { name: 'phone', kind: 'text', description: 'The organizer phone number.', searchable: true },
    { name: 'website', kind: 'url', description: 'The organizer website (an http or https URL).', searchable: true },
    // Any text, as TEC stores it: sites hold values like "info at example dot org" (decisions.md X 13).
    { name: 'email', kind: 'text', description: 'The organizer e-mail address.', searchable: true },
  ],
  extensionFields: [],
  nullDefaults: [
    'author',
    'date',
    'date_utc',
    'organizer',
    'description',
    'status',
    'phone',
    'website',
    'email',
    'image',
  ],
  jsonLd: personJsonLd,
};
