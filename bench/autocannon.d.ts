// The part of autocannon's API the load generator uses (the package ships no type declarations).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to make, instead of a duration. */
    amount?: number;
    pipelining?: number;
    timeout?: number;
    requests?: Request[];
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
