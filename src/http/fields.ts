/** WordPress's `_fields` and `_envelope` global parameters (common.md 1.6, E39). */

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : String(value ?? '').split(',');
  return items.map((s) => String(s).trim()).filter(Boolean);
}

interface FieldTree {
  [key: string]: FieldTree | true;
}

function treeOf(paths: string[]): FieldTree {
  const tree: FieldTree = {};
  for (const path of paths) {
    let node = tree;
    const parts = path.split('.');
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = true;
      else {
        const next = node[part];
        if (next === true) return;
        node = node[part] = next ?? {};
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
    if (!(key in (value as Record<string, unknown>))) continue;
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
