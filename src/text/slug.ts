/**
 * WordPress title-to-slug conversion (common.md 9.8, terms.md 1.7): `sanitize_title()` in "save"
 * mode for stored slugs, "query" mode for by-slug lookups.
 */

/** Maximum length of a slug after percent-encoding (WordPress `utf8_uri_encode($title, 200)`). */
export const SLUG_MAX_LENGTH = 200;

/** Latin letters whose transliteration is not "base letter without its combining marks". */
const SPECIAL_LATIN: Record<string, string> = {
  ª: 'a',
  º: 'o',
  Æ: 'AE',
  æ: 'ae',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Þ: 'TH',
  þ: 'th',
  ß: 'ss',
  ẞ: 'SS',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ĸ: 'k',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: 'N',
  Ŋ: 'N',
  ŋ: 'n',
  Œ: 'OE',
  œ: 'oe',
  Ŧ: 'T',
  ŧ: 't',
  ſ: 's',
  Ə: 'E',
  ə: 'e',
  '€': 'E',
  '£': '',
};

/** Latin-1 Supplement letters, Latin Extended-A/B and Latin Extended Additional. */
const LATIN_LETTER = /[\u00c0-\u00ff\u0100-\u024f\u1e00-\u1eff]/g;
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** WordPress `remove_accents()`: only Latin letters are touched, other scripts stay as they are. */
export function removeAccents(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return text
    .replace(/[ªºÆæÐðØøÞþßẞĐđĦħıĲĳĸĿŀŁłŉŊŋŒœŦŧſƏə€£]/g, (ch) => SPECIAL_LATIN[ch] ?? ch)
    .replace(LATIN_LETTER, (ch) => ch.normalize('NFD').replace(COMBINING_MARKS, ''));
}

/** PHP `strip_tags()` for the shapes that occur in titles: comments, tags, an unclosed trailing tag. */
function stripTags(text: string): string {
  return text.replace(/<!--[\s\S]*?(-->|$)/g, '').replace(/<[a-zA-Z/!?][^>]*(>|$)/g, '');
}

/** WordPress `utf8_uri_encode()`: non-ASCII as lower-case `%xx` UTF-8 octets, whole characters only. */
function utf8UriEncode(text: string, maxLength: number): string {
  let out = '';
  for (const ch of text) {
    const encoded =
      ch.charCodeAt(0) < 0x80 ? ch : Array.from(Buffer.from(ch, 'utf8'), (b) => '%' + b.toString(16)).join('');
    if (out.length + encoded.length > maxLength) break;
    out += encoded;
  }
  return out;
}

/** Encoded characters that become `-` in save mode (no-break space, dashes, typographic spaces). */
const TO_HYPHEN = [
  '%c2%a0',
  '%e2%80%93',
  '%e2%80%94',
  '&nbsp;',
  '&#160;',
  '&ndash;',
  '&#8211;',
  '&mdash;',
  '&#8212;',
  '/',
  '%e2%80%80',
  '%e2%80%81',
  '%e2%80%82',
  '%e2%80%83',
  '%e2%80%84',
  '%e2%80%85',
  '%e2%80%86',
  '%e2%80%87',
  '%e2%80%88',
  '%e2%80%89',
  '%e2%80%8a',
  '%e2%80%a8',
  '%e2%80%a9',
  '%e2%80%af',
];

/** Encoded characters removed in save mode (soft hyphen, ¡ ¿, angle/curly quotes, bullet, © ® ° … ™,
 * accent marks, zero-width and direction marks, BOM, object replacement character). */
const REMOVED = [
  '%c2%ad',
  '%c2%a1',
  '%c2%bf',
  '%c2%ab',
  '%c2%bb',
  '%e2%80%b9',
  '%e2%80%ba',
  '%e2%80%98',
  '%e2%80%99',
  '%e2%80%9c',
  '%e2%80%9d',
  '%e2%80%9a',
  '%e2%80%9b',
  '%e2%80%9e',
  '%e2%80%9f',
  '%e2%80%a2',
  '%c2%a9',
  '%c2%ae',
  '%c2%b0',
  '%e2%80%a6',
  '%e2%84%a2',
  '%c2%b4',
  '%cb%8a',
  '%cc%81',
  '%cd%81',
  '%cc%80',
  '%cc%84',
  '%cc%8c',
  '%e2%80%8b',
  '%e2%80%8c',
  '%e2%80%8d',
  '%e2%80%8e',
  '%e2%80%8f',
  '%e2%80%aa',
  '%e2%80%ab',
  '%e2%80%ac',
  '%e2%80%ad',
  '%e2%80%ae',
  '%ef%bb%bf',
  '%ef%bf%bc',
];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TO_HYPHEN_RE = new RegExp(TO_HYPHEN.map(escapeRegExp).join('|'), 'g');
const REMOVED_RE = new RegExp(REMOVED.map(escapeRegExp).join('|'), 'g');

function sanitizeTitleWithDashes(title: string, save: boolean): string {
  let slug = stripTags(title);
  // Keep escaped octets, drop any other percent sign.
  slug = slug.replace(/%(?![0-9a-fA-F]{2})/g, '');
  slug = utf8UriEncode(slug.toLowerCase(), SLUG_MAX_LENGTH).toLowerCase();
  if (save) {
    slug = slug.replace(TO_HYPHEN_RE, '-').replace(REMOVED_RE, '').replaceAll('%c3%97', 'x');
  }
  return slug
    .replace(/&.+?;/g, '')
    .replaceAll('.', '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * "Save" mode: the slug stored for a supplied slug or derived from a title/name (common.md 9.8,
 * steps 1–8; terms.md 1.7). May return '' — the caller then falls back (record ID, regeneration).
 */
export function sanitizeSlug(text: string): string {
  return sanitizeTitleWithDashes(removeAccents(text), true);
}

/**
 * "Query" mode for by-slug lookups (common.md 9.8: steps 1, 3, 4, 7, 8 — no transliteration, no
 * dash/punctuation replacements). Expects the path value already percent-decoded.
 */
export function sanitizeSlugQuery(text: string): string {
  return sanitizeTitleWithDashes(text, false);
}
