import { Type } from '@sinclair/typebox';
import { can, canReadRecord } from '../../auth/capabilities.js';
import { countTag, termTag, typeTag } from '../../db/cache-tags.js';
import { args, coerceInteger, isNonEmptyString, parseList } from '../../http/args.js';
import { readsFrom } from '../../http/cache.js';
import { restErrors } from '../../http/errors.js';
import { listResponse, pagingArgs, resolvePaging, type LinkValue } from '../../http/pagination.js';
import {
  defineRoute,
  endpoint,
  everyone,
  UPDATE_METHODS,
  Valid,
  type ArgDef,
  type ArgValues,
  type Permission,
  type Reply,
  type RequestContext,
  type RequiredArg,
  type RouteDef,
} from '../../http/route.js';
import { sanitizeSlug } from '../../text/slug.js';
import { isRecordId } from '../post-like/ids.js';
import { lookupTermRefs, refExists, toTermRef, type TermRef } from './refs.js';
import {
  countTerms,
  deleteTermRow,
  findTermById,
  getTermById,
  isSelfOrDescendant,
  listTermRows,
  loadAncestors,
  type TermFilter,
  type TermRow,
} from './repository.js';
import { representTerm } from './representation.js';
import type { Taxonomy } from './taxonomy.js';
import { TERM_NAME_MAX_LENGTH, sanitizeTermName } from './text.js';
import { addTerm, changeTerm } from './write.js';

// ---------------------------------------------------------------------------------------------
// Arguments (terms.md 3.1, 5.1, 6.1)

/** `{id}`: an existing term of this taxonomy, else 400 (terms.md 4); its value is the term. */
function idArg(tax: Taxonomy): RequiredArg<TermRow> {
  return {
    schema: Type.Integer({ description: `Unique identifier for the ${tax.singular}.` }),
    required: true,
    in: 'path',
    validate: async (value, ctx) => {
      const id = coerceInteger(value);
      const term = id === undefined ? undefined : await findTermById(ctx.app.db, tax, id);
      return term ? new Valid(term) : false;
    },
  };
}

/** `include` / `exclude`: every entry names an existing term of the taxonomy (terms.md 3.1). */
function termRefListArg(tax: Taxonomy, description: string): ArgDef<number[]> {
  return args.idList(description, {
    validate: async (value, ctx) => {
      const list = parseList(value);
      if (!list?.length) return false;
      const refs = list.map((entry) => toTermRef(entry));
      if (refs.some((r) => r === null)) return false;
      const found = await lookupTermRefs(ctx.app.db, tax, refs as TermRef[]);
      return (refs as TermRef[]).every((r) => refExists(r, found));
    },
    // Non-numeric entries pass validation but select or exclude nothing (terms.md O12).
    parse: (value) => parseList(value)!.flatMap((entry) => toTermRef(entry)?.id ?? []),
  });
}

/** `post` / `event`: an event the caller may read, any status (terms.md 3.1, O13). */
function eventFilterArg(description: string): ArgDef<number> {
  return args.integer(description, {
    validate: async (value, ctx) => {
      const id = coerceInteger(value);
      if (id === undefined || !isRecordId(id)) return false;
      const post = await ctx.app.db
        .selectFrom('posts')
        .select(['author', 'status', 'trashed_status'])
        .where('id', '=', id)
        .where('type', '=', 'event')
        .executeTakeFirst();
      return post !== undefined && canReadRecord(ctx.user, post);
    },
  });
}

/** `parent` of a category: an existing category; on update also `0` (top level), never itself or a descendant (O9). */
function parentArg(tax: Taxonomy, description: string, onUpdate: boolean): ArgDef<number> {
  return args.integer(description, {
    validate: async (value, ctx) => {
      const id = coerceInteger(value);
      if (id === undefined || id < 0) return false;
      if (id === 0) return onUpdate;
      if (!(await findTermById(ctx.app.db, tax, id))) return false;
      if (!onUpdate) return true;
      const self = coerceInteger(ctx.path.id);
      return self === undefined || !(await isSelfOrDescendant(ctx.app.db, self, id));
    },
  });
}

/** A non-empty name no longer than 200 characters once sanitized (terms.md 5.1, O15). */
const nameArg: ArgDef<string> = args.string('HTML title for the term.', {
  validate: (value) => isNonEmptyString(value) && sanitizeTermName(value).length <= TERM_NAME_MAX_LENGTH,
});

const slugArg = args.string('An alphanumeric identifier for the term unique to its type.', { nonEmpty: true });

function listArgs(tax: Taxonomy) {
  return {
    ...pagingArgs(tax.collection),
    // An empty search is treated as absent (decisions.md VO-34); non-strings are still rejected.
    search: args.string('Limit results to those matching a string.', {
      validate: (value) => typeof value === 'string',
    }),
    exclude: termRefListArg(tax, 'Ensure result set excludes specific IDs.'),
    include: termRefListArg(tax, 'Limit result set to specific IDs.'),
    order: args.string('Order sort attribute ascending or descending.', { nonEmpty: true }),
    orderby: args.string('Sort collection by term attribute.', { nonEmpty: true }),
    hide_empty: args.boolean('Whether to hide terms not assigned to any published event.', {}, { default: '1' }),
    ...(tax.hierarchical
      ? { parent: parentArg(tax, 'Limit result set to terms assigned to a specific parent.', false) }
      : {}),
    post: eventFilterArg('Limit result set to terms assigned to a specific event.'),
    event: eventFilterArg('Limit result set to terms assigned to a specific event (alias of post).'),
    slug: args.string('Limit result set to terms with a specific slug.', { nonEmpty: true }),
  };
}

function createArgs(tax: Taxonomy) {
  const name: RequiredArg<string> = { ...nameArg, required: true };
  return {
    name,
    description: args.string('HTML description of the term.', { nonEmpty: true }),
    slug: slugArg,
    ...(tax.hierarchical ? { parent: parentArg(tax, 'The parent term ID.', false) } : {}),
  };
}

function updateArgs(tax: Taxonomy) {
  return {
    id: idArg(tax),
    name: nameArg,
    // `""` clears the description (decisions.md O9).
    description: args.string('HTML description of the term.', { validate: (value) => typeof value === 'string' }),
    slug: slugArg,
    ...(tax.hierarchical
      ? { parent: parentArg(tax, 'The parent term ID; 0 moves the category to the top level.', true) }
      : {}),
  };
}

type TermListInput = ArgValues<ReturnType<typeof listArgs>>;
type TermCreateInput = ArgValues<ReturnType<typeof createArgs>>;
type TermUpdateInput = ArgValues<ReturnType<typeof updateArgs>>;
type TermIdInput = { id: TermRow };

/** Managing terms needs `edit_posts` of events and the taxonomy's capability (common.md 7.4). */
function mayManage(tax: Taxonomy): Permission {
  return (ctx) => can(ctx.user, 'edit_posts') && can(ctx.user, tax.manageCapability);
}

// ---------------------------------------------------------------------------------------------
// Handlers

/** The parameters the list links carry, in the reference's order (common.md 6.5). */
const LINK_PARAMS = [
  'per_page',
  'search',
  'exclude',
  'include',
  'order',
  'orderby',
  'hide_empty',
  'parent',
  'post',
  'event',
  'slug',
];

function linkParams(ctx: RequestContext): Array<[string, LinkValue]> {
  return LINK_PARAMS.filter((name) => ctx.given[name] !== undefined && ctx.given[name] !== '').map((name) => [
    name,
    ctx.given[name] as LinkValue,
  ]);
}

async function listTerms(tax: Taxonomy, ctx: RequestContext, p: TermListInput): Promise<Reply> {
  const paging = resolvePaging(p, ctx.settings);
  const filter: TermFilter = {
    search: p.search || undefined,
    include: p.include ?? undefined,
    exclude: p.exclude ?? undefined,
    hideEmpty: p.hide_empty !== false,
    parent: p.parent ?? undefined,
    // `event` wins over `post` (terms.md 3.1).
    eventId: p.event ?? p.post ?? undefined,
    slug: p.slug != null ? sanitizeSlug(p.slug) : undefined,
  };
  const db = ctx.app.db;
  // An offset past the ID range cannot reach a row (nor fit an SQL integer): an empty page, no query.
  const rows = !isRecordId(paging.offset + 1)
    ? []
    : await listTermRows(db, tax, {
        filter,
        orderby: p.orderby ?? 'name',
        // `asc` in any case is ascending; any other value descending (terms.md 3.3).
        descending: p.order != null && String(p.order).toLowerCase() !== 'asc',
        limit: paging.perPage,
        offset: paging.offset,
      });
  const total = await countTerms(db, tax, filter);
  const ancestors = await loadAncestors(
    db,
    rows.map((r) => r.parent),
  );
  const items = rows.map((row) => representTerm(tax, row, ancestors, ctx.urls, false));
  return listResponse({
    ctx,
    collection: tax.collection,
    items,
    total,
    paging,
    linkParams: linkParams(ctx),
    shape: { kind: 'term' },
  });
}

async function represented(tax: Taxonomy, ctx: RequestContext, term: TermRow, withLinks: boolean) {
  return representTerm(tax, term, await loadAncestors(ctx.app.db, [term.parent]), ctx.urls, withLinks);
}

/** A category's answer names its ancestors: any write of the taxonomy may change them. */
async function readTerm(tax: Taxonomy, ctx: RequestContext, { id: term }: TermIdInput): Promise<Reply> {
  const own = [termTag(term.id), countTag(term.id)];
  readsFrom(ctx, term.parent ? [...own, typeTag(tax.name)] : own);
  return { body: await represented(tax, ctx, term, true) };
}

/** Tags take no parent, even `0` (terms.md 5.1, 6.1). */
function refuseTagParent(tax: Taxonomy, ctx: RequestContext): void {
  if (!tax.hierarchical && ctx.raw.parent !== undefined && ctx.raw.parent !== null)
    throw restErrors.taxonomyNotHierarchical();
}

async function createTerm(tax: Taxonomy, ctx: RequestContext, p: TermCreateInput): Promise<Reply> {
  refuseTagParent(tax, ctx);
  const term = await ctx.app.transact(async (trx) => {
    const id = await addTerm(
      trx,
      tax,
      {
        name: p.name,
        description: p.description ?? undefined,
        slug: p.slug ?? undefined,
        parent: p.parent ?? undefined,
      },
      ctx,
    );
    return getTermById(trx, tax, id);
  });
  const body = await represented(tax, ctx, term, true);
  return { status: 201, body, headers: { Location: `${ctx.urls.root}/${tax.collection}/${term.id}` } };
}

async function updateTerm(tax: Taxonomy, ctx: RequestContext, p: TermUpdateInput): Promise<Reply> {
  refuseTagParent(tax, ctx);
  const id = p.id.id;
  const term = await ctx.app.transact(async (trx) => {
    const current = await getTermById(trx, tax, id);
    await changeTerm(
      trx,
      tax,
      current,
      { name: p.name ?? undefined, description: p.description, slug: p.slug ?? undefined, parent: p.parent },
      ctx,
    );
    return getTermById(trx, tax, id);
  });
  return { body: await represented(tax, ctx, term, true) };
}

/** Always permanent; the answer is the term as it was, without `_links` (terms.md 7). */
async function deleteTerm(tax: Taxonomy, ctx: RequestContext, input: TermIdInput): Promise<Reply> {
  const id = input.id.id;
  const body = await ctx.app.transact(async (trx) => {
    const term = await getTermById(trx, tax, id);
    const before = representTerm(tax, term, await loadAncestors(trx, [term.parent]), ctx.urls, false);
    await deleteTermRow(trx, tax, term);
    return before;
  });
  return { body };
}

// ---------------------------------------------------------------------------------------------
// Routes (common.md 1.2: the single route lists GET, then the update methods, then DELETE)

/** The list and single routes of one taxonomy (style.md rule 9). */
export function termRoutes(tax: Taxonomy): RouteDef[] {
  const manage = mayManage(tax);
  const plural = tax.collection;
  return [
    defineRoute(`/${plural}`, [
      endpoint({
        methods: ['GET'],
        args: listArgs(tax),
        permission: everyone,
        handler: (ctx, input) => listTerms(tax, ctx, input),
        cache: 'data',
        summary: `List ${plural}`,
        errorStatuses: [400],
      }),
      endpoint({
        methods: ['POST'],
        args: createArgs(tax),
        permission: manage,
        handler: (ctx, input) => createTerm(tax, ctx, input),
        summary: `Create a ${tax.singular}`,
        successStatus: 201,
        errorStatuses: [400, 401, 403],
      }),
    ]),
    defineRoute(`/${plural}/(?P<id>\\d+)`, [
      endpoint({
        methods: ['GET'],
        args: { id: idArg(tax) },
        permission: everyone,
        handler: (ctx, input) => readTerm(tax, ctx, input),
        cache: 'data',
        summary: `Read a ${tax.singular}`,
        errorStatuses: [400],
      }),
      endpoint({
        methods: UPDATE_METHODS,
        args: updateArgs(tax),
        permission: manage,
        handler: (ctx, input) => updateTerm(tax, ctx, input),
        summary: `Update a ${tax.singular}`,
        errorStatuses: [400, 401, 403],
      }),
      endpoint({
        methods: ['DELETE'],
        args: { id: idArg(tax) },
        permission: manage,
        handler: (ctx, input) => deleteTerm(tax, ctx, input),
        summary: `Delete a ${tax.singular} permanently`,
        errorStatuses: [400, 401, 403],
      }),
    ]),
  ];
}
