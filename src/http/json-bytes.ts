/**
 * A JSON body as UTF-8 bytes, the same bytes as `Buffer.from(JSON.stringify(value))`, made
 * without ever holding the whole text as one string.
 *
 * V8 builds a long `JSON.stringify` result out of pieces, and gives it back unflattened: the first
 * thing that reads it as a whole (measuring its UTF-8 length, encoding it) copies it into one new
 * string first, in the large-object space once it passes 128 KiB. For a page of events that copy
 * costs several times the serialization itself. Here a list of records (and the objects holding
 * it: a list's envelope) is written piece by piece, each record serialized alone, and the pieces
 * are encoded into one buffer of the measured length. A body without such a list is serialized
 * whole: for a single record, pieces would cost more than the copy they save.
 */

/** How many levels of plain objects and arrays are split into pieces: an envelope, its list, a record. */
const SPLIT_DEPTH = 3;
/** Lists from this many items on are written item by item. */
const SPLIT_MIN_ITEMS = 8;

/** Plain objects and arrays: what `JSON.stringify` walks key by key, with no `toJSON` of their own. */
function splittable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether `JSON.stringify` leaves an object's property out. */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Whether `value` is, or holds within `depth` levels, a list long enough to write item by item. */
function holdsList(value: unknown, depth: number): value is Record<string, unknown> | unknown[] {
  if (depth === 0 || !splittable(value)) return false;
  if (Array.isArray(value)) return value.length >= SPLIT_MIN_ITEMS;
  for (const key in value) if (holdsList(value[key], depth - 1)) return true;
  return false;
}

function pieces(value: unknown, depth: number, out: string[]): void {
  if (!holdsList(value, depth)) {
    // Where JSON.stringify gives nothing (undefined, a function), an array's item is null.
    out.push(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i) out.push(',');
      pieces(item, depth - 1, out);
    });
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (omitted(item)) continue;
    out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    pieces(item, depth - 1, out);
  }
  out.push('}');
}

/**
 * Text in UTF-8. `Buffer.from` reserves three bytes a character and copies the result down;
 * measuring first writes once, into memory of its own rather than a shared pool slab (which a
 * stored answer would keep alive).
 */
export function textBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** `value` as JSON in UTF-8, in memory of its own, as `textBytes` writes it. */
export function jsonBytes(value: unknown): Buffer {
  const parts: string[] = [];
  pieces(value, SPLIT_DEPTH, parts);
  const lengths = parts.map((part) => Buffer.byteLength(part));
  const bytes = Buffer.allocUnsafeSlow(lengths.reduce((sum, n) => sum + n, 0));
  let at = 0;
  parts.forEach((part, i) => (at += bytes.write(part, at, lengths[i])));
  return bytes;
}
