import { Type } from '@sinclair/typebox';
import { restErrors } from './errors.js';
import { translate } from './i18n/index.js';
import { NAMESPACE } from './register.js';
import { args } from './args.js';
import { NamespaceIndex, jsonSchemaOf } from './schemas.js';
import { defineRoute, endpoint, everyone, type Args, type RequestContext, type RouteDef } from './route.js';

/** JSON-schema keywords discovery shows for an argument, in WordPress's order (common.md 2.1). */
const KEYWORDS = [
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'title',
];

/** One argument as discovery shows it: its schema keywords, then `required` (common.md 2.1). */
export function describeArg(name: string, argTable: Args, ctx: RequestContext): Record<string, unknown> {
  const arg = argTable[name]!;
  // The same schema validates the argument (validate.ts); literal unions are shown as `enum`.
  const schema = jsonSchemaOf(arg.schema);
  const out: Record<string, unknown> = {};
  for (const key of KEYWORDS) {
    if (key === 'description' && typeof schema.description === 'string')
      out.description = translate(schema.description, ctx.lang);
    else if (key === 'default' && arg.defaultFrom) out.default = arg.defaultFrom(ctx);
    else if (key in schema) out[key] = schema[key];
  }
  out.required = Boolean(arg.required);
  return out;
}

/** The route object of the namespace index (common.md 2.1), also the body of OPTIONS (2.3). */
export function routeObject(route: RouteDef, ctx: RequestContext) {
  const methods = route.endpoints.flatMap((e) => e.methods);
  const endpoints = route.endpoints.map((endpoint) => {
    const names = Object.keys(endpoint.args);
    // WordPress serializes an empty argument list as [] (common.md 2.1).
    const described = names.length ? Object.fromEntries(names.map((n) => [n, describeArg(n, endpoint.args, ctx)])) : [];
    return { methods: endpoint.methods, args: described };
  });
  const out: Record<string, unknown> = { namespace: NAMESPACE, methods, endpoints };
  if (!route.pattern.includes('(?P<'))
    out._links = { self: [{ href: `${ctx.urls.base}/${NAMESPACE}${route.pattern}` }] };
  return out;
}

function routesObject(ctx: RequestContext) {
  return Object.fromEntries(ctx.app.routes.map((r) => [`/${NAMESPACE}${r.pattern}`, routeObject(r, ctx)]));
}

/** `GET {base_url}/`: the reduced site index (common.md 2.4, X 26). */
export function restIndex(ctx: RequestContext) {
  const zone = ctx.settings.timezone;
  // With the API switched off the namespace is unregistered, but the index itself still answers.
  const enabled = ctx.settings.rest_api_enabled;
  return {
    name: ctx.settings.site_name,
    description: '',
    url: ctx.urls.site,
    home: ctx.urls.site,
    gmt_offset: gmtOffset(zone),
    timezone_string: /^UTC[+-]/.test(zone) ? '' : zone,
    namespaces: enabled ? [NAMESPACE] : [],
    authentication: {},
    routes: enabled ? routesObject(ctx) : {},
    _links: {},
  };
}

/** Hours east of UTC now, as WordPress reports `gmt_offset`. */
function gmtOffset(zone: string): number {
  const fixed = /^UTC([+-]\d{1,2}(?:\.\d+)?)$/.exec(zone);
  if (fixed) return Number(fixed[1]);
  const now = new Date();
  const local = new Date(now.toLocaleString('en-US', { timeZone: zone === 'UTC' ? 'UTC' : zone }));
  const utc = new Date(now.toLocaleString('en-US', { timeZone: 'UTC' }));
  return Math.round(((local.getTime() - utc.getTime()) / 36e5) * 100) / 100;
}

const NamespaceIndexArgs: Args = {
  namespace: args.string('The namespace to describe.', {}, { default: NAMESPACE }),
  context: args.any('Scope of the description; every value gives the same document.', {}, { default: 'view' }),
};
// `context` has no declared type in WordPress; keep it free-form.
NamespaceIndexArgs.context!.schema = Type.Unknown({
  description: 'Scope of the description; every value gives the same document.',
  default: 'view',
});

/** `GET {root}`: the namespace index (common.md 2.1). */
export const namespaceIndexRoute = defineRoute('', [
  endpoint({
    methods: ['GET'],
    args: NamespaceIndexArgs,
    permission: everyone,
    summary: 'Describe every route of the namespace.',
    response: NamespaceIndex,
    errorStatuses: [404],
    handler: (ctx, input) => {
      if (input.namespace !== NAMESPACE) throw restErrors.invalidNamespace();
      return {
        body: { namespace: NAMESPACE, routes: routesObject(ctx), _links: { up: [{ href: `${ctx.urls.base}/` }] } },
      };
    },
  }),
]);
