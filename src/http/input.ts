import { restErrors } from './errors.js';

/**
 * Request-controlled values (query, form and JSON bodies) as every later stage sees them.
 *
 * Keys that name JavaScript's object machinery never reach code that builds objects from them: a
 * `__proto__` key assigned to a plain object replaces its prototype, `constructor.prototype` reaches
 * `Object.prototype` itself (one request could change every object of the process), and an own
 * `toString` or `valueOf` breaks `String(value)` in any validator. Such keys (every name
 * `Object.prototype` holds, and `prototype`) are refused with 400, as the query parser (qs) already
 * drops them from query strings and form bodies. With those gone a plain object holds only data,
 * so the copies keep `Object.prototype` and its `String()`; the bags built from them are
 * prototype-less.
 */
export function isForbiddenKey(key: string): boolean {
  return key === 'prototype' || key in Object.prototype;
}

/**
 * How deeply arrays and objects may nest in a body: PHP's `json_decode` default, past which
 * WordPress answers `rest_invalid_json` (common.md 4.3). The walk below is iterative, so nesting
 * never costs stack; the bound keeps every later recursive walk (validators, representations) safe.
 */
export const MAX_INPUT_DEPTH = 512;

/** NUL carries no meaning in any field, and PostgreSQL text refuses it: dropped from all input. */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/** Marker left by the JSON body parser so that route matching still wins over a bad body (common.md 4.2). */
export const INVALID_JSON = Symbol('invalid-json');
export type InvalidJsonBody = { [INVALID_JSON]: string };

/** Marker left by the form parser on a body that is JSON sent without a JSON content type. */
export const LOOKS_LIKE_JSON = Symbol('looks-like-json');

/** A JSON object or array, which the form parser would read as one meaningless key. */
export function looksLikeJson(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

type Container = Record<string, unknown> | unknown[];

/**
 * A copy of a parsed query or body: NUL removed from every string and key. Throws `rest_invalid_param` naming the
 * top-level parameter that holds a forbidden key, and `rest_invalid_json` past `MAX_INPUT_DEPTH`.
 */
export function cleanInput(value: unknown): unknown {
  const pending: Array<{ from: object; to: Container; depth: number; param: string | undefined }> = [];
  const visit = (item: unknown, depth: number, param: string | undefined): unknown => {
    if (typeof item === 'string') return withoutNul(item);
    if (item === null || typeof item !== 'object') return item;
    if (depth > MAX_INPUT_DEPTH) throw restErrors.jsonTooDeep();
    const to: Container = Array.isArray(item) ? [] : {};
    pending.push({ from: item, to, depth, param });
    return to;
  };
  const root = visit(value, 1, undefined);
  for (let frame = pending.pop(); frame; frame = pending.pop()) {
    const { from, to, depth, param } = frame;
    if (Array.isArray(to)) {
      for (const item of from as unknown[]) to.push(visit(item, depth + 1, param));
      continue;
    }
    for (const [rawKey, item] of Object.entries(from)) {
      const key = withoutNul(rawKey);
      if (isForbiddenKey(key)) throw restErrors.invalidParam(param ?? key);
      to[key] = visit(item, depth + 1, param ?? key);
    }
  }
  return root;
}
