import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { uncachedListPath, type UncachedLists } from './list-urls.js';
import { Random } from './random.js';
import { API_ROOT, distinctReads } from './scenarios.js';

// autocannon appends every chunk of every response body to a string (for its `expectBody` and
// `verifyBody` options, which the benchmark does not use): it decodes each body from UTF-8. On a
// real events page that decoding was most of the generator's work, and the generator, not the
// servers, set every throughput: a bare node:http server answering the service's default page of
// 38 kB ran ~11,000 req/s, and ~20,000 without the decoding. The benchmark only counts bytes.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
if (typeof PipelinedRequestsQueue?.prototype?.addBody !== 'function')
  throw new Error('autocannon changed: bench/drive.ts no longer knows where it keeps response bodies');
PipelinedRequestsQueue.prototype.addBody = () => undefined;

/**
 * The load generator, run as its own process (bench/load.ts forks it) so that it never shares a
 * CPU thread with the servers it measures. It receives a plan over IPC, drives autocannon at fixed
 * concurrency, and answers with counts and latency percentiles.
 */

export interface PlannedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** `{{n}}` in the body is replaced by a number unique within the process (titles of created events). */
  body?: string;
}

/** Requests drawn at random from a list, repeats and all. */
export interface ListedPool {
  name: string;
  weight: number;
  requests: PlannedRequest[];
}

/** A GET /events URL made for each request (bench/list-urls.ts), numbered on from `LoadPlan.firstUrl`. */
export interface GeneratedPool {
  name: string;
  weight: number;
  uncachedLists: UncachedLists;
}

export type RequestPool = ListedPool | GeneratedPool;

export interface LoadPlan {
  origin: string;
  connections: number;
  /** Headers every request carries (`Accept-Encoding`), below each request's own. */
  headers: Record<string, string>;
  /** Seconds. */
  duration: number;
  pools: RequestPool[];
  /** Statuses besides 2xx and 304 that are normal answers, not errors. */
  expected: number[];
  seed: number;
  /**
   * Number of the plan's first generated URL: where the plans already sent to the same service
   * stopped (`LoadResult.generated`), so that no generated URL goes to it twice.
   */
  firstUrl: number;
  /**
   * A cold pass instead of a timed run: every distinct GET of the pools once, in pool order, and
   * no write (`duration` does not apply).
   */
  coldPass?: boolean;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Connection errors, timeouts and responses other than 2xx, 304 and the plan's expected statuses. */
  errors: number;
  /** Responses with one of the plan's expected statuses (pages past the end). */
  pastEnd: number;
  statuses: Record<string, number>;
  bytes: number;
  /** Generated URLs the plan used up, answered or not. */
  generated: number;
}

let counter = 0;
const runTag = `${process.pid.toString(36)}${Date.now().toString(36)}`;

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The plan's requests, one per call of `next`: a cold pass's reads in pool order, or else draws
 * from the pools by weight; `generated` counts the generated URLs used up so far.
 */
function requestSequence(plan: LoadPlan) {
  const rng = new Random(`load:${plan.seed}`);
  const choices = plan.pools
    .filter((p) => ('uncachedLists' in p || p.requests.length) && p.weight > 0)
    .map((p) => [p, p.weight] as const);
  if (!choices.length) throw new Error('the load plan has no requests');
  const reads = plan.coldPass ? distinctReads(plan.pools) : null;
  if (reads?.length === 0) throw new Error('a cold pass needs reads in the load plan');
  let read = 0;
  let generated = 0;
  const draw = (pool: RequestPool): PlannedRequest => {
    if ('uncachedLists' in pool)
      return { method: 'GET', path: `${API_ROOT}${uncachedListPath(pool.uncachedLists, plan.firstUrl + generated++)}` };
    return pool.requests.length === 1 ? pool.requests[0]! : rng.pick(pool.requests);
  };
  const next = (): PlannedRequest => {
    if (reads) return reads[read++ % reads.length]!;
    const request = draw(rng.weighted(choices));
    if (!request.body?.includes('{{n}}') && !request.path.includes('{{n}}')) return request;
    const n = `${runTag}-${++counter}`;
    return { ...request, path: request.path.replaceAll('{{n}}', n), body: request.body?.replaceAll('{{n}}', n) };
  };
  return { reads, next, generated: () => generated };
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const sequence = requestSequence(plan);
  const { reads } = sequence;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statuses: Record<string, number> = {};
  let bytes = 0;
  const started = performance.now();
  let lastAnswer = started;
  const instance = autocannon({
    url: plan.origin,
    connections: reads ? Math.min(plan.connections, reads.length) : plan.connections,
    duration: plan.duration,
    ...(reads ? { amount: reads.length } : {}),
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => {
          const planned = sequence.next();
          return {
            ...request,
            method: planned.method,
            path: planned.path,
            headers: { ...plan.headers, ...(planned.headers ?? {}) },
            body: planned.body,
          };
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, resBytes, responseTime) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
    lastAnswer = performance.now();
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    bytes += resBytes;
  });
  const result = await instance;
  const sorted = latencies.slice(0, count).sort();
  let bad = result.errors;
  let pastEnd = 0;
  for (const [status, n] of Object.entries(statuses)) {
    const code = Number(status);
    if (plan.expected.includes(code)) pastEnd += n;
    else if (!((code >= 200 && code < 300) || code === 304)) bad += n;
  }
  // A run of a set amount of requests ends at autocannon's next whole second: a cold pass lasts
  // until its last answer.
  const seconds = reads ? (lastAnswer - started) / 1000 : result.duration;
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: count ? sorted[count - 1]! : 0,
    errors: bad,
    pastEnd,
    statuses,
    bytes,
    generated: sequence.generated(),
  };
}

// Forked: serve plans until the parent disconnects.
if (process.send) {
  process.on('message', (message: { id: number; plan: LoadPlan }) => {
    runLoad(message.plan).then(
      (result) => process.send!({ id: message.id, result }),
      (err: unknown) => process.send!({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
