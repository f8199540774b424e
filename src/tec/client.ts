/**
 * Reads a WordPress site's events REST API (TEC's `tribe/events/v1`, or this service's own
 * namespace): lists followed page by page through `next_rest_url`, with retries where the
 * site asks to wait (429) or fails for a moment (5xx, a dropped connection).
 */

/** The source site refused, or keeps failing: the message says which address and why. */
export class TecSourceError extends Error {}

export interface TecClientOptions {
  /** The site's address, e.g. `https://example.org`. */
  site: string;
  /** `tribe/events/v1` for The Events Calendar. */
  namespace: string;
  /** `login:application password`, for records an anonymous reader may not see. */
  auth?: string;
  /** Attempts of one request before giving up (the first included). */
  attempts?: number;
  /** Pause before the second attempt; each further one waits twice as long. */
  backoffMs?: number;
}

/** One page of a list, and where the next one is. */
export interface TecPage {
  items: Record<string, unknown>[];
  total: number;
  next: string | undefined;
}

const RETRIED = (status: number) => status === 429 || status >= 500;
const MAX_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` as seconds or an HTTP date (RFC 9110 10.2.3). */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export class TecClient {
  private readonly headers: Record<string, string>;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private root: string | undefined;

  constructor(private readonly options: TecClientOptions) {
    this.headers = { accept: 'application/json' };
    if (options.auth) this.headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    this.attempts = options.attempts ?? 5;
    this.backoffMs = options.backoffMs ?? 500;
  }

  /**
   * The namespace root, `{REST root}/{namespace}`: the REST root as the site announces it (its
   * `Link: <…>; rel="https://api.w.org/"`), else WordPress's default `/wp-json`.
   */
  async namespaceRoot(): Promise<string> {
    if (this.root) return this.root;
    const site = this.options.site.replace(/\/+$/, '');
    let base = `${site}/wp-json/`;
    const response = await this.request(`${site}/`, 'HEAD').catch(() => undefined);
    const announced = /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(response?.headers.get('link') ?? '');
    if (announced) base = announced[1]!;
    this.root = `${base.replace(/\/+$/, '')}/${this.options.namespace.replace(/^\/+|\/+$/g, '')}`;
    return this.root;
  }

  /** A response, retried while the site asks to wait or fails for a moment; 401/403 stop at once. */
  private async request(url: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      let wait = Math.min(this.backoffMs * 2 ** (attempt - 1), MAX_WAIT_MS);
      try {
        const response = await fetch(url, { method, headers: this.headers, signal: AbortSignal.timeout(60_000) });
        if (response.status === 401 || response.status === 403) {
          const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
          throw new TecSourceError(
            `${url} answered ${response.status}${body.code ? ` ${body.code}` : ''}${body.message ? `: ${body.message}` : ''}` +
              ' (check --auth: a login and an application password of the source site)',
          );
        }
        if (!RETRIED(response.status)) return response;
        lastProblem = `HTTP ${response.status}`;
        wait = Math.min(retryAfterMs(response.headers.get('retry-after')) ?? wait, MAX_WAIT_MS);
        await response.body?.cancel();
      } catch (err) {
        if (err instanceof TecSourceError) throw err;
        lastProblem = (err as Error).message;
      }
      if (attempt < this.attempts) await sleep(wait);
    }
    throw new TecSourceError(`${url} failed ${this.attempts} times; last: ${lastProblem}`);
  }

  /** A JSON answer; anything but 200 is an error naming the address and the site's message. */
  async json(url: string): Promise<{ body: unknown; headers: Headers }> {
    const response = await this.request(url);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TecSourceError(
        `${url} answered ${response.status} with no JSON: ${JSON.stringify(text.slice(0, 120))}`,
      );
    }
    if (response.status !== 200) {
      const error = body as { code?: string; message?: string };
      throw new TecSourceError(
        `${url} answered ${response.status} ${error.code ?? ''}: ${error.message ?? text.slice(0, 120)}`,
      );
    }
    return { body, headers: response.headers };
  }

  /** One page of the list `collection` (`events`, `venues`, `categories`, …) at `url`. */
  async page(url: string, collection: string): Promise<TecPage> {
    const { body, headers } = await this.json(url);
    const envelope = body as Record<string, unknown>;
    // TEC wraps its lists (`{events: […], total, next_rest_url}`); WordPress's own lists are arrays.
    const items = Array.isArray(body) ? body : envelope[collection];
    if (!Array.isArray(items)) throw new TecSourceError(`${url} holds no ${collection} list`);
    const total = Number(envelope.total ?? headers.get('x-wp-total') ?? items.length);
    const next = typeof envelope.next_rest_url === 'string' ? envelope.next_rest_url : undefined;
    return { items: items as Record<string, unknown>[], total, next };
  }

  /** The first page's address of `collection` with `query`. */
  async listUrl(collection: string, query: Record<string, string>): Promise<string> {
    const url = new URL(`${await this.namespaceRoot()}/${collection}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  }
}
