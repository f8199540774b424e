import { Type } from '@sinclair/typebox';
import { modifiedArgs } from '../post-like/modified.js';
import { args, coerceInteger, coerceNumber, isHttpUrlOrEmpty, isTruthy } from '../../http/args.js';
import { paramReasons } from '../../http/errors.js';
import { pagingArgs } from '../../http/pagination.js';
import { Valid, type ArgDef, type ArgValues, type Args, type RequiredArg } from '../../http/route.js';
import { authorArg } from '../post-like/author.js';
import { publicationArgs } from '../post-like/dates.js';
import { imageArg } from '../post-like/images.js';
import { listStatusArg, statusArg } from '../post-like/status.js';
import { isRecordId } from '../post-like/ids.js';
import { findIdBySlug } from '../post-like/slug.js';
import type { AttributeField, LinkedKind, LinkedRow } from './kind.js';
import { MAX_SEARCH_FRAGMENTS, searchFragments } from './list.js';
import { findLinkedById } from './repository.js';

/** PHP's emptiness: `""`, `"0"`, `0`, `false`, `null` and `[]` (venues-organizers.md, terms). */
export function isPhpEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** Strings (the empty one included) or PHP-empty values, which the type check then rejects (common.md 5.3). */
const stringOrEmpty = (v: unknown) => typeof v === 'string' || isPhpEmpty(v);

function attributeArg(field: AttributeField): ArgDef {
  switch (field.kind) {
    case 'text':
      return args.string(field.description, { validate: stringOrEmpty });
    case 'url':
      // PHP-empty non-strings pass here so that the type check names them (4.2).
      return args.url(field.description, {
        validate: (v) => (typeof v === 'string' ? isHttpUrlOrEmpty(v) : isPhpEmpty(v)),
      });
    case 'flag':
      // VO-20: JSON booleans are accepted besides the truthy strings of 4.3.
      return args.string(field.description, {
        validate: (v) => typeof v === 'string' || typeof v === 'boolean',
        parse: (v) => isTruthy(v),
      });
    case 'coordinate': {
      const [min, max] = field.range!;
      // E19: 0 is a valid coordinate; `""` (like JSON null) clears it on update.
      return args.number(
        field.description,
        {
          validate: (v) => {
            if (v === '') return true;
            const n = coerceNumber(v);
            return n !== undefined && n >= min && n <= max;
          },
          parse: (v) => (v === '' ? null : coerceNumber(v)),
        },
        { minimum: min, maximum: max },
      );
    }
  }
}

/**
 * Create arguments in the reference's order (common.md 2.1.1): `author`, `date`, `date_utc`, the
 * name, `description`, `status`, the map flags, the text attributes, `image`, then extensions.
 */
export function createArgs(kind: LinkedKind): Args {
  const noun = kind.type;
  const out: Args = {
    author: authorArg(noun),
    ...publicationArgs(noun),
    [noun]: args.string(`The ${noun} name.`, { required: true, nonEmpty: true }),
    description: args.string(`The ${noun} description (HTML).`, { validate: stringOrEmpty }),
    status: statusArg(noun),
  };
  const attributes = kind.fields.filter((f) => !kind.extensionFields.includes(f.name));
  for (const field of attributes.filter((f) => f.kind === 'flag')) out[field.name] = attributeArg(field);
  for (const field of attributes.filter((f) => f.kind !== 'flag')) out[field.name] = attributeArg(field);
  // An empty image means none on create and removes it on update (4.8, VO-7).
  out.image = imageArg(noun, { allowEmpty: true });
  for (const name of kind.extensionFields) out[name] = attributeArg(kind.fields.find((f) => f.name === name)!);
  // Discovery shows `"default": null` on these, as the reference does (common.md 2.1.1); a null
  // default is no default at all for validation.
  for (const name of kind.nullDefaults) out[name] = { ...out[name]!, schema: { ...out[name]!.schema, default: null } };
  return out;
}

/** Update arguments: the create arguments, none required (5.2). */
export function updateArgs(kind: LinkedKind): Args {
  return Object.fromEntries(Object.entries(createArgs(kind)).map(([name, arg]) => [name, { ...arg, required: false }]));
}

/** `{id}`: a record of the kind, any status; anything else is a 400 (3, decisions.md X 27). Its value is the record. */
export function idArg(kind: LinkedKind): RequiredArg<LinkedRow> {
  return {
    schema: Type.Integer({ description: `Unique identifier of the ${kind.type}.` }),
    required: true,
    in: 'path',
    validate: async (v, ctx) => {
      const id = coerceInteger(v);
      if (!isRecordId(id)) return false;
      const row = await findLinkedById(ctx.app.db, kind, id);
      return row ? new Valid(row) : paramReasons.unknownLinked(kind.type, id);
    },
  };
}

/**
 * `{slug}`: normalised, then matched exactly among records of the kind, any status, lowest ID (3,
 * VO-24). Its value is the record.
 */
export function slugArg(kind: LinkedKind): RequiredArg<LinkedRow> {
  return {
    schema: Type.String({ description: `The ${kind.type} slug.` }),
    required: true,
    in: 'path',
    validate: async (v, ctx) => {
      if (typeof v !== 'string') return false;
      const id = await findIdBySlug(ctx.app.db, kind.type, v);
      const row = id === undefined ? undefined : await findLinkedById(ctx.app.db, kind, id);
      return row ? new Valid(row) : false;
    },
  };
}

/** List arguments (2.1) in the reference's order. */
export function listArgs(kind: LinkedKind) {
  const plural = kind.collection;
  return {
    ...pagingArgs(plural),
    // VO-34: an empty search is the same as none; other non-strings are rejected.
    search: args.string(`Only ${plural} whose name, description or details contain these words.`, {
      validate: (v) => typeof v === 'string' && searchFragments(v).length <= MAX_SEARCH_FRAGMENTS,
    }),
    event: args.integer(`Only ${plural} linked to this event.`, {
      validate: async (v, ctx) => {
        // The ID check reads leading digits as PHP does; `12abc` then fails the integer type check (2.6).
        const digits = typeof v === 'number' ? (Number.isInteger(v) ? v : undefined) : /^\s*\d+/.exec(String(v))?.[0];
        const id = digits === undefined ? undefined : Number(digits);
        if (!isRecordId(id)) return false;
        const row = await ctx.app.db
          .selectFrom('posts')
          .select('id')
          .where('id', '=', id)
          .where('type', '=', 'event')
          .executeTakeFirst();
        return row !== undefined;
      },
    }),
    has_events: args.any(`Truthy: only ${plural} linked to events; otherwise only ${plural} linked to none.`),
    only_with_upcoming: args.any(`Truthy: only ${plural} linked to upcoming events.`, {}, { default: false }),
    status: listStatusArg(plural),
    ...modifiedArgs(plural),
  };
}

export type LinkedListInput = ArgValues<ReturnType<typeof listArgs>>;
