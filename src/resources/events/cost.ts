import { sanitizeSlug } from '../../text/slug.js';

/**
 * Event costs (events.md 1.4): stored as the cost strings (tags stripped) with an inferred currency
 * symbol and position; shown as a display range and a list of normalised values.
 */

const NUMBER = /[.,]?\d+(?:[.,]\d*)?/g;

export interface StoredCost {
  /** The cost strings, one per input element. */
  costs: string[];
  symbol: string;
  position: '' | 'prefix' | 'postfix';
}

export const NO_COST: StoredCost = { costs: [], symbol: '', position: '' };

const stripTags = (text: string) => text.replace(/<[^>]*>/g, '');

/** Symbol inference on write (events.md 1.4): one symbol and one position shared by every element with a number. */
function inferCurrency(elements: string[]): Pick<StoredCost, 'symbol' | 'position'> {
  let symbol: string | undefined;
  let position: StoredCost['position'] | undefined;
  for (const raw of elements) {
    const element = raw.trim();
    const numbers = element.match(NUMBER) ?? [];
    if (numbers.length === 0) continue;
    if (numbers.length > 1) return { symbol: '', position: '' };
    const own = element.replace(numbers[0]!, '').trim();
    const ownPosition = element.startsWith(own) ? 'prefix' : 'postfix';
    if (symbol === undefined) {
      symbol = own;
      position = ownPosition;
    } else if (symbol !== own || position !== ownPosition) return { symbol: '', position: '' };
  }
  return symbol ? { symbol, position: position! } : { symbol: '', position: '' };
}

/** What a `cost` input stores: a string, a number or a list of them; `""` and `[]` store nothing. */
export function parseCostInput(value: unknown): StoredCost {
  const list = Array.isArray(value) ? value : [value];
  const costs = list
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .map((v) => stripTags(String(v)).trim())
    .filter((v) => v !== '');
  if (!costs.length) return NO_COST;
  const elements = Array.isArray(value) ? costs : costs[0]!.split(',');
  return { costs, ...inferCurrency(elements) };
}

interface Token {
  text: string;
  key: string;
  numeric: boolean;
}

const isNumericText = (text: string) => /^(\d+\.?\d*|\.\d+)$/.test(text);

/** Every numeric (or whole-text) token of the stored strings, de-duplicated and ordered by sort key. */
function tokens(costs: string[]): Token[] {
  const raw: string[] = [];
  let decimals = 0;
  for (const cost of costs) {
    const found = [...cost.matchAll(NUMBER)];
    if (!found.length) {
      raw.push(cost);
      continue;
    }
    for (const m of found) {
      raw.push(m[0]);
      const tail = /[.,](\d*)$/.exec(m[0].replace(/^[.,]/, ''));
      decimals = Math.max(decimals, tail ? tail[1]!.length : 0);
    }
  }
  const byKey = new Map<string, Token>();
  for (const text of raw) {
    const normal = text.replace(/[.,]/g, '.');
    const numeric = isNumericText(normal);
    const key = numeric ? Number(normal).toFixed(decimals).replace('.', '') : sanitizeSlug(text);
    byKey.set(key, { text, key, numeric });
  }
  return [...byKey.values()].sort((a, b) => {
    if (a.numeric && b.numeric) return Number(a.key) - Number(b.key);
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
}

/** Thousands separators removed, the decimal separator turned into `.` (events.md 1.4, `values`). */
function normaliseNumber(text: string): string {
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    return text.split(thousands).join('').replace(decimal, '.');
  }
  const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : '';
  if (!sep) return text;
  const after = text.length - text.lastIndexOf(sep) - 1;
  if (after === 3 && sep === ',') return text.split(',').join('');
  return text.split(sep).join('.');
}

export interface CostSettings {
  currency_symbol: string;
  currency_position: string;
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');

/** `cost_details.values` (events.md 1.4). */
export function costValues(stored: StoredCost): string[] {
  const values = tokens(stored.costs).map((t) => {
    const normal = normaliseNumber(t.text);
    return isNumericText(normal) ? normal : t.key;
  });
  const num = (v: string) => (isNumericText(v) ? Number(v) : 0);
  return values
    .map((v, i) => ({ v, i }))
    .sort((a, b) => num(a.v) - num(b.v) || a.i - b.i)
    .map((x) => x.v);
}

/** The two ends of the displayed range, unescaped and without symbols; `null` when no cost is stored. */
function costEnds(stored: StoredCost): [string, string] | null {
  const all = tokens(stored.costs);
  if (!all.length) return null;
  if (all.length === 1) return [all[0]!.text, all[0]!.text];
  // Comma-decimal tokens count as numbers here (decisions.md E6).
  const kept = all.filter((t) => /^\d+([.,]\d+)?$/.test(t.text));
  if (!kept.length) return ['0', '0'];
  return [kept[0]!.text, kept[kept.length - 1]!.text];
}

const isZero = (text: string) => isNumericText(text.replace(',', '.')) && Number(text.replace(',', '.')) === 0;

/** The display `cost` (events.md 1.4): `Free` for zero, the currency symbol on numbers, `low – high`. */
export function displayCost(stored: StoredCost, settings: CostSettings): string {
  const ends = costEnds(stored);
  if (!ends) return '';
  const symbol = stored.symbol || settings.currency_symbol;
  const position = stored.symbol ? stored.position : settings.currency_position;
  const show = (end: string) => {
    if (isZero(end)) return 'Free';
    if (!/^\d+$/.test(end.replace(/[.,]/g, ''))) return end;
    return position === 'postfix' ? `${end}${symbol}` : `${symbol}${end}`;
  };
  const [low, high] = ends.map(show) as [string, string];
  return escapeHtml(low === high ? low : `${low} – ${high}`);
}

/**
 * The JSON-LD `offers.price`: the range without currency symbols (events.md 1.11). A free event,
 * its cost zero or the word `Free`, or a range from zero, is priced `0`, as TEC prices what it shows as Free.
 */
export function offerPrice(stored: StoredCost): string {
  const ends = costEnds(stored);
  if (!ends) return '';
  const [low, high] = ends;
  if (isZero(low) || low.trim().toLowerCase() === 'free') return '0';
  return low === high ? low : `${low} – ${high}`;
}

/** Storage form of the cost strings: a JSON array, `''` for none. */
export function serializeCosts(costs: string[]): string {
  return costs.length ? JSON.stringify(costs) : '';
}

export function deserializeCosts(text: string): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [text];
  } catch {
    return [text];
  }
}
