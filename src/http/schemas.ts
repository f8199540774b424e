import { Type, type TSchema } from '@sinclair/typebox';
import { PARAM_REASON_CODES } from './errors.js';

/**
 * JSON schemas of the HTTP layer: the error body (common.md 4.1), the namespace index (2.1), the
 * OpenAPI document (3.2), the helpers the records' schemas are written with (each beside its
 * representation, in `json.ts` of its resource's folder) and their conversion to plain JSON Schema.
 * `/doc` publishes them under `components.schemas` with TEC's names (http/openapi.ts); routes may
 * declare them as their `response`.
 */

export const str = (description: string) => Type.String({ description });
export const int = (description: string) => Type.Integer({ description });
export const strict = { additionalProperties: false };

/** The links of one relation in `_links`. */
export const LinkList = Type.Array(
  Type.Object({ href: Type.String(), embeddable: Type.Optional(Type.Boolean()) }, strict),
);

/**
 * Why one parameter was refused: `data.details.{name}` of `rest_invalid_param`
 * (docs/api.md "Why a parameter was refused").
 */
export const ParamErrorDetail = Type.Object(
  {
    code: str(
      `Stable code of the reason: ${PARAM_REASON_CODES.join(', ')}; or the code of an error such as event-tickets-not-active.`,
    ),
    message: str('The parameter, its value and what would be accepted (English).'),
    data: Type.Unknown(),
  },
  { ...strict, description: 'Why a parameter of a rest_invalid_param error was refused.' },
);

/** The WordPress error body (common.md 4.1). */
export const ErrorBody = Type.Object(
  {
    code: str('Machine-readable error code.'),
    message: str('Human-readable message (English).'),
    data: Type.Union(
      [
        Type.Object(
          {
            status: int('HTTP status.'),
            // WordPress sends an empty list when no parameter has a detail.
            details: Type.Optional(
              Type.Union([Type.Record(Type.String(), ParamErrorDetail), Type.Array(Type.Unknown(), { maxItems: 0 })], {
                description: 'rest_invalid_param: why each refused parameter was refused, by parameter name.',
              }),
            ),
          },
          { additionalProperties: true },
        ),
        Type.Null(),
      ],
      { description: 'Error data; holds at least the HTTP status.' },
    ),
    additional_data: Type.Optional(Type.Array(Type.Unknown())),
    additional_errors: Type.Optional(Type.Array(Type.Unknown())),
  },
  { ...strict, description: 'An error in the WordPress shape.' },
);

type Json = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema: sub-schemas found in `refs` (by identity) become
 * `$ref`s, and unions of literals become `enum` with their common `type`, so that discovery and
 * `/doc` show the values the validator accepts (common.md 2.1, 3.2).
 */
export function jsonSchemaOf(schema: TSchema, refs?: Map<TSchema, string>): Json {
  return convert(schema, refs, true) as Json;
}

function convert(node: unknown, refs: Map<TSchema, string> | undefined, top: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, refs, false));
  if (node === null || typeof node !== 'object') return node;
  const ref = top ? undefined : refs?.get(node as TSchema);
  if (ref) return { $ref: ref };
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = convert(value, refs, false);
  const members = out.anyOf;
  if (Array.isArray(members) && members.length > 0 && members.every(isLiteral)) {
    const types = new Set(members.map((m) => (m as Json).type));
    delete out.anyOf;
    const [type] = types;
    if (types.size === 1 && typeof type === 'string') out.type = type;
    out.enum = members.map((m) => (m as Json).const);
  }
  return out;
}

function isLiteral(member: unknown): boolean {
  return (
    member !== null &&
    typeof member === 'object' &&
    'const' in member &&
    Object.keys(member).every((k) => k === 'const' || k === 'type')
  );
}

const RouteLinks = Type.Object({ self: LinkList }, strict);

/** One route of the namespace index (common.md 2.1). */
export const DiscoveryRoute = Type.Object(
  {
    namespace: Type.String(),
    methods: Type.Array(Type.String()),
    endpoints: Type.Array(
      Type.Object(
        {
          methods: Type.Array(Type.String()),
          // WordPress serializes an empty argument list as [] (common.md 2.1).
          args: Type.Union([
            Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
            Type.Array(Type.Unknown(), { maxItems: 0 }),
          ]),
        },
        strict,
      ),
    ),
    _links: Type.Optional(RouteLinks),
  },
  { ...strict, description: 'A route with its methods and endpoint arguments.' },
);

export const NamespaceIndex = Type.Object(
  {
    namespace: Type.String(),
    routes: Type.Record(Type.String(), DiscoveryRoute),
    _links: Type.Object({ up: LinkList }, strict),
  },
  { ...strict, description: 'Every route of the namespace with its arguments.' },
);

export const ApiDocument = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({ version: Type.String(), title: Type.String(), description: Type.String() }),
    servers: Type.Array(Type.Object({ url: Type.String() }), { minItems: 1 }),
    paths: Type.Record(Type.String(), Type.Unknown()),
    components: Type.Record(Type.String(), Type.Unknown()),
  },
  { description: 'An OpenAPI 3.1 document of the interface.' },
);
