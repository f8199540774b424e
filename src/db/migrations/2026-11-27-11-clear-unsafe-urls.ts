import { sql, type Kysely, type RawBuilder } from 'kysely';

// Client URLs are now held to http(s) and stored with markup characters percent-encoded
// (src/text/url.ts). Values stored before that rule are brought under it, so that no script URL
// (`javascript:`, `vbscript:`, `data:`) or attribute-breaking text is echoed from old records:
// a website that does not start with http:// or https:// (in any case) is blanked, as a client's
// empty value clears it; in the URLs that stay, quotes, angle brackets, backticks and spaces are
// percent-encoded as a new write would store them. Image URLs were already held to http(s).
// Blanking cannot be undone; `down` leaves the data as it is.

const WEBSITE_TABLES = ['events', 'venues', 'organizers'] as const;

const ENCODED: Array<[string, string]> = [['"', '%22'], ["'", '%27'], ['<', '%3C'], ['>', '%3E'], ['`', '%60'], [' ', '%20']];

function encoded(column: string): RawBuilder<string> {
  let expression: RawBuilder<string> = sql<string>`${sql.ref(column)}`;
  for (const [from, to] of ENCODED) expression = sql<string>`replace(${expression}, ${from}, ${to})`;
  return expression;
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of WEBSITE_TABLES) {
    await sql`update ${sql.table(table)} set website = ''
      where website <> '' and lower(website) not like 'http://%' and lower(website) not like 'https://%'`.execute(db);
  }
  for (const [table, column] of [...WEBSITE_TABLES.map((t) => [t, 'website'] as const), ['images', 'url'] as const]) {
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${encoded(column)} where ${sql.ref(column)} <> ${encoded(column)}`.execute(db);
  }
}

export async function down(): Promise<void> {}
