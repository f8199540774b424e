import type { TSchema } from '@sinclair/typebox';
import { translate } from './i18n/index.js';
import { NAMESPACE } from './register.js';
import { CostDetailsJson, DateDetailsJson, EventJson, EventListJson } from '../resources/events/json.js';
import { OrganizerJson, OrganizerListJson, VenueJson, VenueListJson } from '../resources/linked/json.js';
import { ImageJson, ImageSizeJson } from '../resources/post-like/json.js';
import { CategoryListJson, EventTermJson, TagListJson, TermJson } from '../resources/terms/json.js';
import { ApiDocument, DiscoveryRoute, ErrorBody, NamespaceIndex, ParamErrorDetail, jsonSchemaOf } from './schemas.js';
import {
  UPDATE_METHODS,
  defineRoute,
  everyone,
  type ArgDef,
  type Endpoint,
  type Method,
  type RequestContext,
  type RouteDef,
} from './route.js';

/**
 * `GET {root}/doc`: an OpenAPI 3.1 document generated from the route table, i.e. from the same
 * TypeBox schemas that validate requests (common.md 3.2, decisions.md X 17). Every human-readable
 * text goes through the catalog of the request's language variant (common.md 1.5).
 */

type Json = Record<string, unknown>;
type Translate = (text: string) => string;

/**
 * Components of `/doc`, in TEC's order followed by the additions (common.md 3.1, 3.2). Schemas
 * are recognised by identity wherever a route's response uses them, and referenced by name.
 */
const namedSchemas: Record<string, TSchema> = {
  ImageSize: ImageSizeJson,
  CostDetails: CostDetailsJson,
  Term: TermJson,
  Image: ImageJson,
  DateDetails: DateDetailsJson,
  Event: EventJson,
  Venue: VenueJson,
  Organizer: OrganizerJson,
  EventTerm: EventTermJson,
  EventList: EventListJson,
  VenueList: VenueListJson,
  OrganizerList: OrganizerListJson,
  CategoryList: CategoryListJson,
  TagList: TagListJson,
  Error: ErrorBody,
  ParamErrorDetail,
  DiscoveryRoute,
  NamespaceIndex,
  ApiDocument,
};

/** The record and list shapes of each collection, for endpoints that declare no `response`. */
const collectionSchemas: Record<string, { record: TSchema; list: TSchema }> = {
  events: { record: EventJson, list: EventListJson },
  venues: { record: VenueJson, list: VenueListJson },
  organizers: { record: OrganizerJson, list: OrganizerListJson },
  categories: { record: TermJson, list: CategoryListJson },
  tags: { record: TermJson, list: TagListJson },
};

const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
const SCHEMA_REFS = new Map<TSchema, string>(
  Object.entries(namedSchemas).map(([name, schema]) => [schema, `#/components/schemas/${name}`]),
);
const LIST_SCHEMAS = new Set(Object.values(collectionSchemas).map((c) => c.list));

const TEXT = {
  title: 'Calendar Server REST API',
  description:
    'Manage calendar events and their venues, organizers, categories and tags. Compatible with the REST API of The Events Calendar (tribe/events/v1).',
  security:
    'An application password of a user, sent with HTTP Basic authentication. Without credentials the API answers as an anonymous visitor.',
  listNote: 'A list: comma-separated values or the parameter repeated.',
  pathId: 'The record ID.',
  pathSlug: 'The record slug.',
  totalHeader: 'Number of matching records over all pages.',
  totalPagesHeader: 'Number of pages.',
  linkHeader: 'Links to the next and previous pages (RFC 8288).',
  textBody: 'The document, as text of this media type.',
};

const STATUS_TEXT: Record<number, string> = {
  200: 'Success.',
  201: 'Created.',
  400: 'A parameter is missing or invalid, or a linked record does not exist.',
  401: 'The credentials are wrong, or the operation needs an authenticated user.',
  403: 'The user may not perform this operation on this record.',
  404: 'No such route or record, or a page past the end.',
  410: 'The record is already in the trash.',
  429: 'Too many failed logins or requests; retry after the seconds given in the Retry-After header.',
  500: 'The record could not be changed or deleted.',
};

const PATH_GROUP = /\(\?P<(\w+)>([^)]*)\)/g;

function pathGroups(pattern: string): Array<{ name: string; integer: boolean }> {
  return [...pattern.matchAll(PATH_GROUP)].map((m) => ({ name: m[1]!, integer: m[2] === '\\d+' }));
}

/** First path segment: the collection (`events`, …), or `discovery` for the index and `/doc`. */
function tagOf(route: RouteDef): string {
  const first = route.pattern.split('/')[1] ?? '';
  return first === '' || first === 'doc' ? 'discovery' : first;
}

function operationId(method: Method, route: RouteDef): string {
  const words = route.openapiPath
    .split(/[/{}-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return `${method.toLowerCase()}${words.join('') || 'NamespaceIndex'}`;
}

/** Adds translated `description`/`title` texts to a converted schema, in place. */
function localize(node: unknown, t: Translate): unknown {
  if (Array.isArray(node)) node.forEach((item) => localize(item, t));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if ((key === 'description' || key === 'title') && typeof value === 'string') (node as Json)[key] = t(value);
      else localize(value, t);
    }
  }
  return node;
}

function schemaOf(schema: TSchema, t: Translate): Json {
  const ref = SCHEMA_REFS.get(schema);
  return ref ? { $ref: ref } : (localize(jsonSchemaOf(schema, SCHEMA_REFS), t) as Json);
}

/** An argument's schema for a parameter or body property: its description moves out, its default is resolved. */
function argSchema(arg: ArgDef, ctx: RequestContext, t: Translate): { schema: Json; description?: string } {
  const schema = localize(jsonSchemaOf(arg.schema, SCHEMA_REFS), t) as Json;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  delete schema.description;
  if (arg.defaultFrom) {
    const value = arg.defaultFrom(ctx);
    if (value !== undefined) schema.default = value;
  }
  return { schema, description };
}

function parameter(name: string, where: 'path' | 'query', arg: ArgDef, ctx: RequestContext, t: Translate): Json {
  const { schema, description } = argSchema(arg, ctx, t);
  const out: Json = { name, in: where };
  if (description) out.description = description;
  // Path parameters are always required in OpenAPI.
  out.required = where === 'path' || Boolean(arg.required);
  if (schema.type === 'array') {
    // Lists come as comma-separated values or repeated keys (common.md 5.4, decisions.md X 4).
    schema.description = t(TEXT.listNote);
    out.style = 'form';
    out.explode = true;
  }
  out.schema = schema;
  return out;
}

function pathParameter(
  group: { name: string; integer: boolean },
  arg: ArgDef | undefined,
  ctx: RequestContext,
  t: Translate,
): Json {
  if (arg && arg.in !== 'body') return parameter(group.name, 'path', arg, ctx, t);
  return {
    name: group.name,
    in: 'path',
    description: t(group.integer ? TEXT.pathId : TEXT.pathSlug),
    required: true,
    schema: group.integer ? { type: 'integer' } : { type: 'string' },
  };
}

function isCollection(route: RouteDef): boolean {
  return /^\/[\w-]+$/.test(route.pattern) && route.pattern.slice(1) in collectionSchemas;
}

function successStatus(endpoint: Endpoint, method: Method, route: RouteDef): number {
  if (endpoint.successStatus) return endpoint.successStatus;
  // Creating a record answers 201 (events.md, venues-organizers.md 4, terms.md 5.2).
  return method === 'POST' && isCollection(route) ? 201 : 200;
}

function successSchema(endpoint: Endpoint, method: Method, route: RouteDef): TSchema | undefined {
  if (endpoint.response) return endpoint.response;
  const collection = collectionSchemas[route.pattern.split('/')[1] ?? ''];
  if (!collection) return undefined;
  return method === 'GET' && isCollection(route) ? collection.list : collection.record;
}

function errorStatuses(endpoint: Endpoint, method: Method): number[] {
  // A wrong Basic credential is a 401 on every route (common.md 4.2), and the throttle of failed
  // logins and anonymous requests a 429 (http/throttle.ts).
  let statuses = [401, 429];
  if (endpoint.errorStatuses) statuses.push(...endpoint.errorStatuses);
  else if (method === 'DELETE') statuses.push(400, 403, 404, 410, 500);
  else if (method !== 'GET' || Object.keys(endpoint.args).length) statuses.push(400, 403, 404);
  statuses = [...new Set(statuses)].sort((a, b) => a - b);
  return statuses;
}

function responses(endpoint: Endpoint, method: Method, route: RouteDef, t: Translate): Json {
  const out: Json = {};
  const status = successStatus(endpoint, method, route);
  const schema = successSchema(endpoint, method, route);
  const success: Json = { description: t(STATUS_TEXT[status] ?? STATUS_TEXT[200]!) };
  if (schema && LIST_SCHEMAS.has(schema)) {
    success.headers = {
      'X-TEC-Total': { description: t(TEXT.totalHeader), schema: { type: 'integer' } },
      'X-TEC-TotalPages': { description: t(TEXT.totalPagesHeader), schema: { type: 'integer' } },
      'X-WP-Total': { description: t(TEXT.totalHeader), schema: { type: 'integer' } },
      'X-WP-TotalPages': { description: t(TEXT.totalPagesHeader), schema: { type: 'integer' } },
      Link: { description: t(TEXT.linkHeader), schema: { type: 'string' } },
    };
  }
  if (endpoint.contentType) {
    const mediaType = endpoint.contentType.split(';')[0]!;
    success.content = { [mediaType]: { schema: { type: 'string', description: t(TEXT.textBody) } } };
  } else if (schema) success.content = { 'application/json': { schema: schemaOf(schema, t) } };
  out[String(status)] = success;
  for (const code of errorStatuses(endpoint, method)) {
    out[String(code)] = {
      description: t(STATUS_TEXT[code] ?? STATUS_TEXT[400]!),
      content: { 'application/json': { schema: schemaOf(ErrorBody, t) } },
    };
  }
  return out;
}

function operation(route: RouteDef, endpoint: Endpoint, method: Method, ctx: RequestContext, t: Translate): Json {
  const groups = pathGroups(route.pattern);
  const groupNames = new Set(groups.map((g) => g.name));
  const parameters: Json[] = groups.map((g) => pathParameter(g, endpoint.args[g.name], ctx, t));
  const writes = UPDATE_METHODS.includes(method);
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(endpoint.args)) {
    const inPath = groupNames.has(name) && arg.in !== 'body';
    if (inPath) continue;
    if (!writes || arg.in === 'query') {
      parameters.push(parameter(name, 'query', arg, ctx, t));
      continue;
    }
    const { schema, description } = argSchema(arg, ctx, t);
    properties[name] = description ? { description, ...schema } : schema;
    if (arg.required) required.push(name);
  }
  const op: Json = { tags: [tagOf(route)] };
  if (endpoint.summary) op.summary = t(endpoint.summary);
  op.operationId = operationId(method, route);
  if (parameters.length) op.parameters = parameters;
  if (Object.keys(properties).length) {
    const body: Json = { type: 'object', properties };
    if (required.length) body.required = required;
    // WordPress reads JSON and form-encoded bodies alike (common.md 5.1).
    op.requestBody = {
      required: required.length > 0,
      content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } },
    };
  }
  op.responses = responses(endpoint, method, route, t);
  return op;
}

/** The whole document for the routes of `ctx.app`, texts in the request's language. */
export function openApiDocument(ctx: RequestContext, t: Translate = (text) => translate(text, ctx.lang)) {
  const paths: Json = {};
  for (const route of ctx.app.routes) {
    const item: Json = {};
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) item[method.toLowerCase()] = operation(route, endpoint, method, ctx, t);
    }
    paths[route.openapiPath] = item;
  }
  const schemas = Object.fromEntries(
    Object.entries(namedSchemas).map(([name, schema]) => [name, localize(jsonSchemaOf(schema, SCHEMA_REFS), t)]),
  );
  const tags = [...new Set(ctx.app.routes.map(tagOf))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_2020,
    info: { version: '1.0.0', title: t(TEXT.title), description: t(TEXT.description) },
    // The namespace root of the serving language variant, with its trailing slash (common.md 3.2).
    servers: [{ url: `${ctx.urls.root}/` }],
    security: [{}, { applicationPassword: [] }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: { applicationPassword: { type: 'http', scheme: 'basic', description: t(TEXT.security) } },
    },
  };
}

/** `GET {root}/doc` (common.md 1.2 route 2). */
export const docRoute = defineRoute('/doc', [
  {
    methods: ['GET'],
    args: {},
    permission: everyone,
    summary: `Describe the whole ${NAMESPACE} interface as an OpenAPI 3.1 document.`,
    response: ApiDocument,
    cache: 'data',
    handler: (ctx) => ({ body: openApiDocument(ctx) }),
  },
]);
