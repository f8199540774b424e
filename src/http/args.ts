import { Type, type TSchema } from '@sinclair/typebox';
import { parseHttpUrl } from '../text/url.js';
import { paramReasons } from './errors.js';
import type { ArgDef, Validation } from './route.js';

/** Parameter coercion shared by every route (common.md 5.3, 5.4). */

const INTEGER = /^[+-]?\d+(\.0*)?$/;

/** Integers: JSON integers and whole numeric strings (`"5"`, `"05"`, `"5.0"`); otherwise `undefined`. */
export function coerceInteger(value: unknown): number | undefined {
  // Beyond 2^53 a number no longer names one integer: such values are not integers here.
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && INTEGER.test(value.trim())) {
    const n = Math.trunc(Number(value));
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Numbers (doubles): JSON numbers and numeric strings. */
export function coerceNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** Booleans: true/false, 1/0 and their strings in any case; anything else `undefined`. */
export function coerceBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const v = value.toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
  }
  return undefined;
}

/** The "truthy string" rule for boolean-like values without a declared type (common.md 5.3). */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string')
    return ['1', 'enable', 'enabled', 'on', 'y', 'yes', 'true'].includes(value.trim().toLowerCase());
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/**
 * Lists: arrays as they are, or strings split on commas (whitespace around commas dropped, empty
 * items dropped, numeric items turned into numbers) (common.md 5.4). `undefined` for other types.
 */
export function parseList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'number') return [value];
  if (typeof value !== 'string') return undefined;
  let text = value;
  try {
    text = decodeURIComponent(value);
  } catch {
    // Not percent-encoded: keep as is.
  }
  return text
    .split(/\s*,\s*/)
    .filter((item) => item !== '')
    .map((item) => (/^\d+$/.test(item) ? Number(item) : item));
}

/** `""`, or a URL `parseHttpUrl` accepts. */
export function isHttpUrlOrEmpty(value: string): boolean {
  return value === '' || parseHttpUrl(value) !== undefined;
}

/** A non-empty string in PHP's sense: `""` and `"0"` are empty (common.md 5.3). */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '0';
}

const d = (description: string, extra: Record<string, unknown> = {}) => ({ description, ...extra });

function nonEmptyText(value: unknown): Validation {
  if (typeof value !== 'string') return paramReasons.notAString(value);
  return isNonEmptyString(value) || paramReasons.emptyValue(value);
}

/**
 * Argument constructors. `T`, the value handlers receive, is the schema's type unless `extra` says
 * otherwise: a `parse` or a validator that hands on a value (`Valid`).
 */
export const args = {
  integer: (
    description: string,
    extra: Partial<ArgDef<number>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<number> => ({
    schema: Type.Integer(d(description, schema)),
    ...extra,
  }),
  /** `page` and friends: whole numbers above zero, otherwise `Invalid parameter.` */
  positiveInteger: (
    description: string,
    extra: Partial<ArgDef<number>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<number> => ({
    schema: Type.Integer(d(description, { minimum: 1, ...schema })),
    validate: (v) => {
      const n =
        typeof v === 'string' && INTEGER.test(v.trim())
          ? Number(v)
          : typeof v === 'number' && Number.isInteger(v)
            ? v
            : NaN;
      if (Number.isNaN(n)) return paramReasons.notAnInteger(v);
      return n > 0 || paramReasons.notPositive(v);
    },
    // A whole number too large to represent is simply past every page (PHP reads it as a float).
    parse: (v) => Math.min(Math.trunc(Number(v)), Number.MAX_SAFE_INTEGER),
    ...extra,
  }),
  boolean: (
    description: string,
    extra: Partial<ArgDef<boolean>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<boolean> => ({
    schema: Type.Boolean(d(description, schema)),
    ...extra,
  }),
  number: <T = number>(
    description: string,
    extra: Partial<ArgDef<T>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<T> => ({
    schema: Type.Number(d(description, schema)),
    ...extra,
  }),
  /** A string; `nonEmpty` rejects `""` and `"0"` as TEC's validators do. */
  string: <T = string>(
    description: string,
    extra: Partial<ArgDef<T>> & { nonEmpty?: boolean } = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<T> => {
    const { nonEmpty, ...rest } = extra;
    return {
      schema: Type.String(d(description, schema)),
      ...(nonEmpty ? { validate: nonEmptyText } : {}),
      ...rest,
    };
  },
  /**
   * An `http`/`https` URL, or `""` (which clears); the cleaned URL is what the write receives
   * (text/url.ts). `validate` may be widened for values the type check then rejects.
   */
  url: (
    description: string,
    extra: Partial<ArgDef<string>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<string> => ({
    schema: Type.String(d(description, schema)),
    validate: (v) => typeof v === 'string' && isHttpUrlOrEmpty(v),
    normalize: (v: string) => (v === '' ? '' : parseHttpUrl(v)!),
    ...extra,
  }),
  /** An array of integer IDs given as an array or a comma-separated list (common.md 5.4). */
  idList: (
    description: string,
    extra: Partial<ArgDef<number[]>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<number[]> => ({
    schema: Type.Array(Type.Integer(), d(description, schema)),
    ...extra,
  }),
  /** Any JSON value, as sent unless a `parse` or a validator says what it means. */
  any: <T = unknown>(
    description: string,
    extra: Partial<ArgDef<T>> = {},
    schema: Record<string, unknown> = {},
  ): ArgDef<T> => ({
    schema: Type.Unknown(d(description, schema)),
    ...extra,
  }),
};

export type TypeOutcome = { ok: true; value: unknown } | { ok: false; type: string };

/** The second validation pass: type check and coercion by the schema's declared type (common.md 5.2). */
export function coerceBySchema(schema: TSchema, value: unknown): TypeOutcome {
  const type = (schema as { type?: unknown }).type;
  switch (type) {
    case 'integer': {
      const n = coerceInteger(value);
      return n === undefined ? { ok: false, type: 'integer' } : { ok: true, value: n };
    }
    case 'number': {
      const n = coerceNumber(value);
      return n === undefined ? { ok: false, type: 'number' } : { ok: true, value: n };
    }
    case 'boolean': {
      const b = coerceBoolean(value);
      return b === undefined ? { ok: false, type: 'boolean' } : { ok: true, value: b };
    }
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, type: 'string' };
    case 'array': {
      const list = parseList(value);
      if (!list) return { ok: false, type: 'array' };
      const items = (schema as { items?: TSchema }).items;
      if (!items) return { ok: true, value: list };
      const out: unknown[] = [];
      for (const item of list) {
        const r = coerceBySchema(items, item);
        if (!r.ok) return { ok: false, type: `array of ${r.type}` };
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { ok: true, value }
        : { ok: false, type: 'object' };
    default:
      return { ok: true, value };
  }
}
