/** `POST /import/ics`: the iCalendar import (import.ts) over HTTP, for administrators. */
import { can } from '../auth/capabilities.js';
import { args } from '../http/args.js';
import { restErrors } from '../http/errors.js';
import { defineRoute, endpoint, Valid, type Permission, type RequestContext, type RouteDef } from '../http/route.js';
import { findCategoryIdBySlug, IcsSourceError, IcsSyntaxError, importIcs, readIcs } from './import.js';
import { Type } from '@sinclair/typebox';
import type { ArgValues } from '../http/route.js';

const IMPORT_STATUSES = ['publish', 'draft'];

const ImportIcsArgs = {
  content: args.string(
    'The calendar (an iCalendar file) as text; or send it as the body with Content-Type text/calendar.',
  ),
  url: args.string('An http, https or webcal address to download the calendar from, instead of content.', {
    validate: (v) => typeof v === 'string' && /^(https?|webcal):\/\/[^\s]+$/i.test(v),
  }),
  status: args.string(
    'Status of the events the import creates or updates.',
    { validate: (v) => typeof v === 'string' && IMPORT_STATUSES.includes(v) },
    { enum: IMPORT_STATUSES, default: 'publish' },
  ),
  category: args.string<number>('Slug of a category every imported event is put in.', {
    validate: async (v, ctx) => {
      const id = typeof v === 'string' ? await findCategoryIdBySlug(ctx.app.db, v) : undefined;
      return id === undefined ? false : new Valid(id);
    },
  }),
  dry_run: args.boolean('Report what the import would do without writing anything.', {}, { default: false }),
};

type ImportIcsInput = ArgValues<typeof ImportIcsArgs>;

/** Importing writes as the caller and reads addresses the caller names: administrators only. */
const canImport: Permission = (ctx) => can(ctx.user, 'import');

async function importIcsRoute(ctx: RequestContext, input: ImportIcsInput) {
  if (typeof input.content === 'string' && typeof input.url === 'string') throw restErrors.importSourceTwice();
  let text: string;
  try {
    if (typeof input.content === 'string' && input.content !== '') text = input.content;
    else if (typeof input.url === 'string') text = await readIcs(input.url);
    else throw restErrors.importSourceMissing();
  } catch (err) {
    if (err instanceof IcsSourceError) throw restErrors.importSourceUnreadable(err.message);
    throw err;
  }
  try {
    const report = await importIcs(ctx, text, {
      status: input.status === 'draft' ? 'draft' : 'publish',
      categoryId: input.category ?? undefined,
      dryRun: input.dry_run === true,
    });
    return { body: report };
  } catch (err) {
    if (err instanceof IcsSyntaxError) throw restErrors.icsInvalid(err.message, err.line);
    throw err;
  }
}

const ImportReportJson = Type.Object(
  {
    dry_run: Type.Boolean(),
    created: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    trashed: Type.Integer(),
    skipped: Type.Integer(),
    items: Type.Array(
      Type.Object({
        kind: Type.String(),
        source_id: Type.Union([Type.String(), Type.Null()]),
        line: Type.Optional(Type.Integer()),
        action: Type.String({ enum: ['created', 'updated', 'unchanged', 'trashed', 'skipped'] }),
        id: Type.Optional(Type.Integer()),
        reason: Type.Optional(Type.String()),
      }),
    ),
  },
  { description: 'What the import did with each VEVENT, and the totals.' },
);

export function importRoutes(): RouteDef[] {
  return [
    defineRoute('/import/ics', [
      endpoint({
        methods: ['POST'],
        args: ImportIcsArgs,
        permission: canImport,
        handler: importIcsRoute,
        summary: 'Import events from an iCalendar file or address',
        response: ImportReportJson,
        errorStatuses: [400, 401, 403],
      }),
    ]),
  ];
}
