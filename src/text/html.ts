/**
 * Input sanitation and output paragraphing of stored text (common.md 10.2, 10.3; terms.md 1.7).
 */
import sanitizeHtml from 'sanitize-html';

/** URL protocols WordPress allows in post content (`wp_allowed_protocols()`, common.md 10.2). */
export const SAFE_PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];

/** Inline tags allowed in titles, names and term descriptions (common.md 10.2, terms.md 1.7). */
const INLINE_TAGS: sanitizeHtml.IOptions['allowedAttributes'] = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

const INLINE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: Object.keys(INLINE_TAGS as object),
  allowedAttributes: INLINE_TAGS,
  allowedSchemes: SAFE_PROTOCOLS,
};

const align = ['align'];
const cell = [
  'abbr',
  'align',
  'axis',
  'bgcolor',
  'char',
  'charoff',
  'colspan',
  'headers',
  'height',
  'nowrap',
  'rowspan',
  'scope',
  'valign',
  'width',
];
const colAttrs = ['align', 'char', 'charoff', 'span', 'dir', 'valign', 'width'];

/** WordPress `$allowedposttags` minus form controls, embeds and scripts (common.md 10.2). */
const POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download', 'referrerpolicy'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: align,
  aside: align,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: align,
  cite: [],
  code: [],
  col: colAttrs,
  colgroup: colAttrs,
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: align,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: align,
  figcaption: align,
  font: ['color', 'face', 'size'],
  footer: align,
  h1: align,
  h2: align,
  h3: align,
  h4: align,
  h5: align,
  h6: align,
  header: align,
  hgroup: align,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: [
    'alt',
    'align',
    'border',
    'height',
    'hspace',
    'loading',
    'longdesc',
    'vspace',
    'src',
    'usemap',
    'width',
    'decoding',
    'srcset',
    'sizes',
  ],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: align,
  li: ['align', 'value'],
  main: align,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: align,
  p: align,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: align,
  section: align,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: align,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: colAttrs,
  td: cell,
  tfoot: colAttrs,
  th: cell,
  thead: colAttrs,
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** Global attributes WordPress adds to every allowed post tag. */
const GLOBAL_ATTRIBUTES = ['class', 'id', 'style', 'title', 'role', 'lang', 'dir', 'xml:lang', 'aria-*', 'data-*'];

/** CSS properties kept in `style` (a subset of WordPress `safecss_filter_attr()`). */
const SAFE_CSS_PROPERTIES = [
  'background',
  'background-color',
  'background-position',
  'background-size',
  'background-repeat',
  'background-attachment',
  'border',
  'border-width',
  'border-color',
  'border-style',
  'border-radius',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-collapse',
  'border-spacing',
  'caption-side',
  'clear',
  'color',
  'columns',
  'column-count',
  'column-gap',
  'column-width',
  'cursor',
  'direction',
  'display',
  'float',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-variant',
  'font-weight',
  'height',
  'min-height',
  'max-height',
  'letter-spacing',
  'line-height',
  'list-style',
  'list-style-type',
  'list-style-position',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'text-align',
  'text-decoration',
  'text-indent',
  'text-transform',
  'vertical-align',
  'white-space',
  'width',
  'min-width',
  'max-width',
  'word-break',
  'word-spacing',
  'writing-mode',
  'overflow',
  'flex',
  'flex-direction',
  'flex-wrap',
  'gap',
  'align-items',
  'justify-content',
  'object-fit',
  'object-position',
  'aspect-ratio',
  'opacity',
];

/** A CSS value without markup, escapes, `url(…)`, `expression(…)` or script URLs. */
const SAFE_CSS_VALUE = /^(?![\s\S]*(?:url\s*\(|expression\s*\(|javascript:))[^<>{}\\;]*$/i;

const POST_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: Object.keys(POST_TAGS),
  allowedAttributes: { ...POST_TAGS, '*': GLOBAL_ATTRIBUTES },
  allowedSchemes: SAFE_PROTOCOLS,
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'poster', 'longdesc'],
  allowedStyles: { '*': Object.fromEntries(SAFE_CSS_PROPERTIES.map((p) => [p, [SAFE_CSS_VALUE]])) },
};

/** Windows-1252 code points that WordPress `convert_invalid_entities()` maps `&#128;`–`&#159;` to. */
const CP1252: Record<number, number> = {
  128: 8364,
  130: 8218,
  131: 402,
  132: 8222,
  133: 8230,
  134: 8224,
  135: 8225,
  136: 710,
  137: 8240,
  138: 352,
  139: 8249,
  140: 338,
  142: 381,
  145: 8216,
  146: 8217,
  147: 8220,
  148: 8221,
  149: 8226,
  150: 8211,
  151: 8212,
  152: 732,
  153: 8482,
  154: 353,
  155: 8250,
  156: 339,
  158: 382,
  159: 376,
};

/**
 * Invalid numeric entities `&#128;`–`&#159;` become their proper characters' entities (applied to
 * descriptions/excerpts for every role, common.md 10.2); unmapped ones are left alone.
 */
export function convertInvalidEntities(text: string): string {
  return text.replace(/&#(1[2-5]\d);/g, (whole, n: string) => {
    const mapped = CP1252[Number(n)];
    return mapped === undefined ? whole : `&#${mapped};`;
  });
}

/**
 * Text with none of these characters has neither tags nor entities, and sanitize-html gives it back
 * unchanged: it is not parsed, which spares most titles and names the parser's cost on every write.
 */
const MARKUP = /[<>&]/;

/** Inline allow-list only (common.md 10.2 title/name row), trimmed as every title/name is. */
export function sanitizeInline(html: string): string {
  return (MARKUP.test(html) ? sanitizeHtml(html, INLINE_OPTIONS) : html).trim();
}

/** The WordPress post allow-list with safe URL protocols and filtered CSS (description/excerpt). */
export function sanitizePost(html: string): string {
  return MARKUP.test(html) ? sanitizeHtml(convertInvalidEntities(html), POST_OPTIONS) : html;
}

/** Characters PHP's `esc_html()` encodes; existing entities are not encoded twice. */
function escHtml(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/**
 * WordPress `sanitize_text_field()`: the plain-text rule for venue/organizer text meta
 * (common.md 10.2) and the first half of a term name (terms.md 1.7).
 */
export function plainText(text: string): string {
  // Lone surrogates are what "invalid UTF-8" looks like once the body is decoded to a JS string.
  let out = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/g, '');
  if (out.includes('<')) {
    // A `<` not closed by `>` before the next `<` or the end is text, not a tag.
    out = out.replace(/<[^>]*?(?=<|$)/g, (chunk) => escHtml(chunk));
    out = out.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '');
    out = out.replace(/<!--[\s\S]*?(-->|$)/g, '').replace(/<[^>]*>/g, '');
  }
  out = out.replace(/[\r\n\t ]+/g, ' ').trim();
  let found = false;
  for (let match = /%[a-f0-9]{2}/i.exec(out); match; match = /%[a-f0-9]{2}/i.exec(out)) {
    out = out.replaceAll(match[0], '');
    found = true;
  }
  return found ? out.replace(/ +/g, ' ').trim() : out;
}

/** Term name (terms.md 1.7): plain text, then `&` `<` `>` encoded without double-encoding entities. */
export function termName(text: string): string {
  return plainText(text)
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Term description (terms.md 1.7): inline tags only, other tags removed with their text kept; not trimmed. */
export function termDescription(html: string): string {
  return sanitizeHtml(html, { ...INLINE_OPTIONS, nonTextTags: [] });
}

/** Elements that are blocks themselves: a paragraph that starts with one is not wrapped in `<p>`. */
const BLOCK_TAGS =
  'address|article|aside|blockquote|caption|col|colgroup|dd|details|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|h[1-6]|header|hgroup|hr|li|main|map|menu|nav|ol|p|pre|' +
  'section|summary|table|tbody|td|tfoot|th|thead|tr|ul|audio|video|iframe|object|script|style';
const STARTS_WITH_BLOCK = new RegExp(`^<(?:${BLOCK_TAGS})(?:[\\s/>]|$)`, 'i');

/**
 * The project's own paragraph function for descriptions/excerpts (common.md 10.3): a blank line
 * starts a new `<p>`, a single newline becomes `<br />`; blocks that already are block elements stay
 * as written, `<pre>` content is left untouched. Returns '' for blank input; output is trimmed.
 */
export function autop(text: string): string {
  const pres: string[] = [];
  const source = text
    .replace(/\r\n?/g, '\n')
    .replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (pre) => `<pre data-autop="${pres.push(pre) - 1}"></pre>`)
    .trim();
  if (source === '') return '';
  return source
    .split(/\n[ \t]*\n\s*/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => (STARTS_WITH_BLOCK.test(block) ? block : `<p>${block.replace(/[ \t]*\n[ \t]*/g, '<br />\n')}</p>`))
    .join('\n')
    .replace(/<pre data-autop="(\d+)"><\/pre>/g, (_, i: string) => pres[Number(i)]);
}

/** Entities of stored HTML: the ones sanitize-html writes, numeric references and `&nbsp;`. */
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Stored HTML as plain text, for formats that carry no markup (an iCalendar DESCRIPTION): line
 * breaks and paragraph ends become newlines, list items lines, other tags go with their text kept,
 * entities become the characters they stand for.
 */
export function htmlToPlainText(html: string): string {
  const text = html
    .replace(/\r\n?/g, '\n')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>[ \t]*\n?/gi, '\n')
    .replace(/<\/li>\s*/gi, '\n')
    .replace(/<\/(?:p|div|h[1-6]|blockquote|pre|ul|ol|table)>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
