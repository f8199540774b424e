import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { DateTime } from 'luxon';
import type { RouteDef } from '../../src/http/route.js';
import type { TestServer } from '../support/server.js';

/** The routes of common.md 1.2, in registration order: a route not registered yet is skipped, never left out. */
export const REFERENCE_PATTERNS = [
  '',
  '/doc',
  '/events',
  '/events/(?P<id>\\d+)',
  '/events/by-slug/(?P<slug>[^/]+)',
  '/venues',
  '/venues/(?P<id>\\d+)',
  '/venues/by-slug/(?P<slug>[^/]+)',
  '/organizers',
  '/organizers/(?P<id>\\d+)',
  '/organizers/by-slug/(?P<slug>[^/]+)',
  '/categories',
  '/categories/(?P<id>\\d+)',
  '/tags',
  '/tags/(?P<id>\\d+)',
];

export function registeredRoutes(srv: TestServer): RouteDef[] {
  return srv.built.app.routes;
}

export function isRegistered(srv: TestServer, pattern: string): boolean {
  return registeredRoutes(srv).some((r) => r.pattern === pattern);
}

/** A wall-clock time `days` from now; event lists show the next 24 months by default (events.md 2.2.2). */
export function soon(days: number, hour: number): string {
  return DateTime.utc().plus({ days }).set({ hour, minute: 0, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** Every human-readable text of a document: the string values of `description`, `summary` and `title`. */
export function texts(node: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => texts(item, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (['description', 'summary', 'title'].includes(key) && typeof value === 'string') out.add(value);
      else texts(value, out);
    }
  }
  return out;
}

/** Pairs of (English text, localized text) at the same places of two documents built from the same routes. */
export function textPairs(en: unknown, other: unknown, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(en) && Array.isArray(other)) en.forEach((item, i) => textPairs(item, other[i], out));
  else if (en && typeof en === 'object' && other && typeof other === 'object') {
    for (const [key, value] of Object.entries(en)) {
      const localized = (other as Record<string, unknown>)[key];
      if (['description', 'summary', 'title'].includes(key) && typeof value === 'string')
        out.push([value, String(localized)]);
      else textPairs(value, localized, out);
    }
  }
  return out;
}

/** Validates bodies against the schemas of an OpenAPI document, resolving its `$ref`s. */
export class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private static readonly ID = 'https://calendar.invalid/doc';

  constructor(readonly doc: any) {
    this.ajv.addSchema(doc, DocumentValidator.ID);
  }

  /** The response object documented for `status`, or undefined. */
  response(path: string, method: string, status: number): any {
    return this.doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  }

  /** Validation errors of `body` against the documented response schema of its media type ([] when it matches). */
  check(path: string, method: string, status: number, body: unknown, mediaType = 'application/json'): string[] {
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema']
      .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DocumentValidator.ID}#/${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
