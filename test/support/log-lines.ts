import assert from 'node:assert/strict';
import type { LogStream } from '../../src/app.js';
import type { TestResponse } from './server.js';

/** The server's log lines, parsed. */
export class LogLines implements LogStream {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }

  /**
   * The lines of one request, once its line is written: the response reaches the client as
   * Fastify reports it complete, so the line may follow the answer by a moment.
   */
  async of(res: TestResponse): Promise<Record<string, unknown>[]> {
    const id = res.headers.get('x-request-id');
    assert.ok(id, 'the answer carries X-Request-Id');
    for (const until = Date.now() + 2000; !this.lines.some((l) => l.request_id === id);) {
      assert.ok(Date.now() < until, `no log line for request ${id}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.lines.filter((l) => l.request_id === id);
  }

  /** The one line of the request; fails when there are more. */
  async lineOf(res: TestResponse): Promise<Record<string, unknown>> {
    const lines = await this.of(res);
    assert.equal(lines.length, 1, `one line per request, got ${JSON.stringify(lines)}`);
    return lines[0]!;
  }
}
