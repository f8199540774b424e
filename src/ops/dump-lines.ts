import { createWriteStream, type WriteStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createInterface, type Interface } from 'node:readline';
import { OpsError } from './errors.js';

/** Writes one JSON value per line, waiting whenever the file falls behind. */
export class LineWriter {
  private readonly stream: WriteStream;
  private failure: Error | undefined;

  constructor(file: string) {
    this.stream = createWriteStream(file);
    // Kept until the next write or the close, which throw it: unhandled, the event would end the process.
    this.stream.on('error', (err) => (this.failure ??= err));
  }

  async write(value: unknown): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(`${JSON.stringify(value)}\n`)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await finished(this.stream);
    if (this.failure) throw this.failure;
  }

  destroy(): void {
    this.stream.destroy();
  }
}

export interface DumpLine {
  value: unknown;
}

/** The lines of a dump file, each parsed as JSON, read one at a time: a dump need not fit in memory. */
export class DumpReader {
  /** Of the line read last, for messages. */
  private number = 0;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly lines: Interface,
    private readonly iterator: AsyncIterator<string>,
  ) {}

  static async open(file: string): Promise<DumpReader> {
    let handle: FileHandle;
    try {
      handle = await open(file);
    } catch (err) {
      throw new OpsError(`cannot read ${file}: ${(err as Error).message}`);
    }
    const lines = createInterface({ input: handle.createReadStream(), crlfDelay: Infinity });
    return new DumpReader(file, handle, lines, lines[Symbol.asyncIterator]());
  }

  /** The next line, or undefined at the end of the file. */
  async next(): Promise<DumpLine | undefined> {
    const next = await this.iterator.next();
    if (next.done) return undefined;
    this.number += 1;
    try {
      return { value: JSON.parse(next.value) };
    } catch {
      throw this.malformed('not JSON');
    }
  }

  /** The refusal of the current line. */
  malformed(why: string): OpsError {
    return new OpsError(
      `${this.file} line ${this.number}: ${why}; the file was not written by calendar export, or was changed since`,
    );
  }

  async close(): Promise<void> {
    this.lines.close();
    await this.handle.close();
  }
}
