import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import {
  ParamReason,
  RestError,
  errorFailure,
  invalidParameter,
  reasonFailure,
  restErrors,
  typeFailure,
  type ParamFailure,
} from './errors.js';
import { coerceBySchema } from './args.js';
import { Valid, type ArgValues, type Args, type RequestContext, type Validation } from './route.js';

/** Each argument's schema is compiled once, at start-up (style.md, flow 3). */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function compileArgs(argTable: Args): void {
  for (const arg of Object.values(argTable)) {
    if (!compiled.has(arg.schema)) compiled.set(arg.schema, TypeCompiler.Compile(arg.schema));
  }
}

function defaultOf(name: string, argTable: Args, ctx: RequestContext): unknown {
  const arg = argTable[name]!;
  if (arg.defaultFrom) return arg.defaultFrom(ctx);
  return (arg.schema as { default?: unknown }).default;
}

function failureOf(name: string, outcome: Exclude<Validation, true>): ParamFailure {
  if (outcome instanceof RestError) return errorFailure(outcome);
  if (outcome instanceof ParamReason) return reasonFailure(name, outcome);
  return invalidParameter;
}

/**
 * Validates `input` against the endpoint's arguments in WordPress's order (common.md 4.2, 5.2):
 * missing required → `rest_missing_callback_param`; validators → `rest_invalid_param`; then type
 * checks and coercion → `rest_invalid_param`. Fills `ctx.given`; returns the arguments' values.
 */
export async function validateArgs<A extends Args>(
  argTable: A,
  input: Record<string, unknown>,
  ctx: RequestContext,
): Promise<ArgValues<A>> {
  const present = new Map<string, unknown>();
  const missing: string[] = [];
  for (const name of Object.keys(argTable)) {
    const sent = input[name];
    if (sent !== undefined && sent !== null) {
      ctx.given[name] = sent;
      present.set(name, sent);
      continue;
    }
    const fallback = defaultOf(name, argTable, ctx);
    if (fallback !== undefined && fallback !== null) present.set(name, fallback);
    else if (argTable[name]!.required) missing.push(name);
    // An explicit JSON null on an optional argument is remembered as "sent empty" (decisions.md principle 3).
    if (sent === null && !argTable[name]!.required) ctx.given[name] = null;
  }
  if (missing.length) throw restErrors.missingParams(missing, ctx.bodyLooksLikeJson === true);

  const values: Record<string, unknown> = {};
  const failures = new Map<string, ParamFailure>();
  for (const [name, value] of present) {
    const arg = argTable[name]!;
    if (!arg.validate) continue;
    const outcome = await arg.validate(value, ctx);
    if (outcome instanceof Valid) values[name] = outcome.value;
    else if (outcome !== true) failures.set(name, failureOf(name, outcome));
  }
  if (failures.size) throw restErrors.invalidParams(failures);

  for (const [name, value] of present) {
    // A validator handed on its value.
    if (Object.hasOwn(values, name)) continue;
    const arg = argTable[name]!;
    if (arg.parse) {
      values[name] = arg.parse(value, ctx);
      continue;
    }
    const outcome = coerceBySchema(arg.schema, value);
    if (!outcome.ok) {
      failures.set(name, typeFailure(name, outcome.type));
      continue;
    }
    const check = compiled.get(arg.schema);
    if (check && !check.Check(outcome.value)) {
      failures.set(name, invalidParameter);
      continue;
    }
    values[name] = arg.normalize ? arg.normalize(outcome.value) : outcome.value;
  }
  if (failures.size) throw restErrors.invalidParams(failures);
  for (const name of Object.keys(ctx.given)) if (ctx.given[name] === null) values[name] ??= null;
  return values as ArgValues<A>;
}
