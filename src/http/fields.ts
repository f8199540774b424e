import { isForbiddenKey } from './input.js';

/** WordPress's `_fields` and `_envelope` global parameters (common.md 1.6, E39). */

/** The selected paths; what is not a string (`_fields[a]=b`) selects nothing. */
function listOf(value: unknown): string[] {
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items.flatMap((s) => (typeof s === 'string' && s.trim() ? [s.trim()] : []));
}

interface FieldTree {
  [key: string]: FieldTree | true;
}

/**
 * The selection as a tree of prototype-less objects. A path through `__proto__`, `constructor` or
 * `prototype` names no field of a representation and is dropped: followed, it would reach and
 * change `Object.prototype` (http/input.ts).
 */
function treeOf(paths: string[]): FieldTree {
  const tree: FieldTree = Object.create(null);
  for (const path of paths) {
    let node = tree;
    const parts = path.split('.');
    if (parts.some(isForbiddenKey)) continue;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = true;
      else {
        const next = node[part];
        if (next === true) return;
        node = node[part] = next ?? Object.create(null);
      }
    });
  }
  return tree;
}

function pick(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => pick(item, tree));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(tree)) {
    if (!Object.hasOwn(value, key)) continue;
    const v = (value as Record<string, unknown>)[key];
    out[key] = sub === true ? v : pick(v, sub);
  }
  return out;
}

/** Cuts a successful body down to the `_fields` selection (top-level object keys or array items). */
export function selectFields(body: unknown, fields: unknown): unknown {
  const paths = listOf(fields);
  if (!paths.length) return body;
  return pick(body, treeOf(paths));
}

/** `_envelope`: always 200, with the original status and headers inside the body. */
export function envelope(body: unknown, status: number, headers: Record<string, string>) {
  return { body, status, headers };
}
