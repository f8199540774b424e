import net from 'node:net';

/** One response read off a raw connection. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined. */
  body: any;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The server ended or reset the connection (rather than the client giving up waiting). */
  closedByServer: boolean;
  /** Every byte received, for assertion messages. */
  received: string;
}

/**
 * A connection that writes bytes exactly as given (malformed requests included) and reads the
 * responses back, for what `fetch` cannot send: bad request lines, bodies without a length,
 * pipelined requests on one keep-alive connection.
 */
export class RawConnection {
  private readonly socket: net.Socket;
  private readonly chunks: Buffer[] = [];
  private closed = false;
  private readonly ended: Promise<void>;
  private wake: (() => void) | undefined;

  constructor(origin: string) {
    const { hostname, port } = new URL(origin);
    this.socket = net.connect(Number(port), hostname);
    this.socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.wake?.();
    });
    this.socket.on('error', () => {});
    this.ended = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closed = true;
        this.wake?.();
        resolve();
      }),
    );
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Waits until `count` complete responses have arrived, or the server closed, or `ms` passed. */
  async read(count: number, ms = 5000): Promise<RawExchange> {
    const until = Date.now() + ms;
    for (;;) {
      const exchange = this.parse();
      if (exchange.responses.length >= count || this.closed || Date.now() >= until) return exchange;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, Math.max(0, Math.min(50, until - Date.now())));
      });
    }
  }

  /** Waits for the server to close the connection; false when it stays open for `ms`. */
  async closedWithin(ms: number): Promise<boolean> {
    await Promise.race([this.ended, new Promise((r) => setTimeout(r, ms))]);
    return this.closed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): RawExchange {
    const all = Buffer.concat(this.chunks);
    const responses: RawResponse[] = [];
    let at = 0;
    while (at < all.length) {
      const headEnd = all.indexOf('\r\n\r\n', at);
      if (headEnd < 0) break;
      const [statusLine, ...lines] = all.subarray(at, headEnd).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let bodyStart = headEnd + 4;
      let body: Buffer;
      if (headers['transfer-encoding'] === 'chunked') {
        const parts: Buffer[] = [];
        for (;;) {
          const sizeEnd = all.indexOf('\r\n', bodyStart);
          if (sizeEnd < 0) return { responses, closedByServer: this.closed, received: all.toString('latin1') };
          const size = parseInt(all.subarray(bodyStart, sizeEnd).toString('latin1'), 16);
          if (size === 0) {
            bodyStart = sizeEnd + 4;
            break;
          }
          parts.push(all.subarray(sizeEnd + 2, sizeEnd + 2 + size));
          bodyStart = sizeEnd + 2 + size + 2;
        }
        body = Buffer.concat(parts);
        at = bodyStart;
      } else {
        const length = Number(headers['content-length'] ?? 0);
        if (all.length < bodyStart + length) break;
        body = all.subarray(bodyStart, bodyStart + length);
        at = bodyStart + length;
      }
      const text = body.toString('utf8');
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      responses.push({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
        headers,
        text,
        body: parsed,
      });
    }
    return { responses, closedByServer: this.closed, received: all.toString('latin1') };
  }
}

/** Sends `data` on a fresh connection and reads the first response (and whether the server then closed). */
export async function sendRaw(
  origin: string,
  data: string | Buffer,
  ms = 5000,
): Promise<RawExchange & { response: RawResponse }> {
  const connection = new RawConnection(origin);
  try {
    connection.write(data);
    const exchange = await connection.read(1, ms);
    const response = exchange.responses[0];
    if (!response)
      throw new Error(`no complete response; received: ${JSON.stringify(exchange.received.slice(0, 500))}`);
    // Only a response announcing `Connection: close` is waited on: the others may keep the connection open.
    const closedByServer =
      exchange.closedByServer || (response.headers.connection === 'close' && (await connection.closedWithin(2000)));
    return { ...exchange, closedByServer, response };
  } finally {
    connection.destroy();
  }
}
