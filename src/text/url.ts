/**
 * Web addresses given by clients (`website`, `image` as a URL), held to the rule of WordPress's
 * `esc_url_raw` for the `http`/`https` protocols: the value comes back cleaned, and that is what is
 * stored and echoed. Anything a browser could run (`javascript:`, `vbscript:`, `data:`) or resolve
 * against the page (`//host`, a path) is refused, so a stored link can only lead to a web page.
 */

/** C0 controls and DEL: browsers drop them inside a scheme, so `java\tscript:` would still run. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/** Characters that end an HTML attribute or open a tag where a URL is echoed into markup. */
const UNSAFE: Record<string, string> = { '"': '%22', "'": '%27', '<': '%3C', '>': '%3E', '`': '%60', ' ': '%20' };
const UNSAFE_CHARACTERS = /["'<>` ]/g;

/** A scheme, `//`, then an authority that is not empty (userinfo and port aside). */
const HTTP_URL = /^(https?):\/\/([^/?#]*)/i;

/**
 * The cleaned form of a client's `http`/`https` URL, or `undefined` when it is not one: control
 * characters dropped and outer whitespace trimmed, the scheme lower-cased, quotes, angle brackets,
 * backticks and spaces percent-encoded; everything else is kept as given (venues-organizers.md 4.5
 * keeps `%XX` sequences). Non-ASCII text is refused, as PHP's URL filter does (4.2).
 */
export function parseHttpUrl(input: string): string | undefined {
  const text = input.replace(CONTROLS, '').trim();
  const match = HTTP_URL.exec(text);
  if (!match || !/^[\x20-\x7e]+$/.test(text)) return undefined;
  const cleaned = match[1]!.toLowerCase() + text.slice(match[1]!.length).replace(UNSAFE_CHARACTERS, (c) => UNSAFE[c]!);
  let host: string;
  try {
    host = new URL(cleaned).hostname;
  } catch {
    return undefined;
  }
  // The authority must name a host of its own: `http://@/x` or `http://:80` name none.
  const authority = match[2]!.replace(/^.*@/, '').replace(/:\d*$/, '');
  return host !== '' && authority !== '' ? cleaned : undefined;
}
