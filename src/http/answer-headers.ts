/**
 * The headers every answer carries (CORS, `X-Robots-Tag`, the API `Link`) and the links of a
 * language: the same for most requests, so made once per language and kind of `Origin` and
 * shared, frozen, by the requests that need them.
 */
import { urlsFor } from './register.js';
import type { AppContext, Urls } from './route.js';

/** What one request's answers are built with. */
export interface AnswerBasics {
  readonly urls: Urls;
  /** On every answer, site pages included. */
  readonly cors: Readonly<Record<string, string>>;
  /** On every answer but site pages. */
  readonly common: Readonly<Record<string, string>>;
}

const EXPOSED_AND_ALLOWED = {
  'Access-Control-Expose-Headers': 'X-TEC-Total, X-TEC-TotalPages, X-WP-Total, X-WP-TotalPages, Link, ETag',
  'Access-Control-Allow-Headers':
    'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, X-HTTP-Method-Override, If-None-Match',
};

export class AnswerHeaders {
  /**
   * By language and by what the `Origin` header decides (absent, any, one allowed origin, refused):
   * bounded by the configured languages and origins, whatever origins callers send.
   */
  private readonly made = new Map<string, AnswerBasics>();

  constructor(private readonly app: AppContext) {}

  for(lang: string, origin: string | undefined): AnswerBasics {
    const originKind = this.originKind(origin);
    const key = `${lang}\u0000${originKind}`;
    let basics = this.made.get(key);
    if (!basics) {
      basics = this.make(lang, originKind);
      this.made.set(key, basics);
    }
    return basics;
  }

  /** '' without an `Origin`; '*' when any is allowed; the origin itself when on the allow-list; else '-'. */
  private originKind(origin: string | undefined): string {
    if (!origin) return '';
    const allowed = this.app.config.corsOrigins;
    if (allowed.length === 0) return '*';
    return allowed.includes(origin) ? origin : '-';
  }

  private make(lang: string, originKind: string): AnswerBasics {
    const urls = Object.freeze(urlsFor(this.app, lang));
    const cors = Object.freeze(corsHeaders(originKind));
    const common = Object.freeze({
      ...cors,
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
      Link: `<${urls.base}/>; rel="https://api.w.org/"`,
    });
    return { urls, cors, common };
  }
}

/** X 24: any origin without credentials by default; an allow-list may allow credentials. */
function corsHeaders(originKind: string): Record<string, string> {
  if (originKind === '') return { ...EXPOSED_AND_ALLOWED };
  const headers: Record<string, string> = {
    ...EXPOSED_AND_ALLOWED,
    'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
  };
  if (originKind === '*') headers['Access-Control-Allow-Origin'] = '*';
  else if (originKind !== '-') {
    headers['Access-Control-Allow-Origin'] = originKind;
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers['Vary'] = 'Origin';
  }
  return headers;
}
