import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backendOfSpec, createBenchDatabase, migrateAndSeed, redactUrl, type DatabaseSpec } from './databases.js';
import type { DatasetSummary } from './dataset.js';
import type { LoadPlan, LoadResult } from './drive.js';
import { LoadDriver } from './load.js';
import {
  buildService,
  drained,
  rawRequest,
  sampleRss,
  startBaseline,
  startService,
  type RunningServer,
} from './processes.js';
import { collectMeta, type Meta } from './meta.js';
import { evaluateTargets, type TargetCheck } from './targets.js';
import {
  API_ROOT,
  distinctReads,
  scenarioPools,
  type ScenarioLoad,
  type ScenarioName,
  type ScenarioPools,
} from './scenarios.js';

export interface BenchOptions {
  /** `sqlite` and/or PostgreSQL URLs; each gets its own databases, created and dropped here. */
  databases: DatabaseSpec[];
  /** Dataset size of the scenario table. */
  events: number;
  /** Dataset sizes of the scaling table (list-varied); empty for none. */
  scaling: number[];
  scenarios: ScenarioName[];
  connections: number;
  /**
   * Whether requests say `Accept-Encoding: gzip`, as browsers and HTTP libraries do; the baseline
   * then answers the default page's bytes as the service sends them, compressed.
   */
  gzip: boolean;
  /** Seconds per measured run. */
  duration: number;
  /**
   * Whether each scenario starts with a cold pass: every distinct GET of its pools once, at the
   * run's concurrency, timed apart from the rounds, so that they measure repeated reads.
   */
  coldPass: boolean;
  /** Seconds of unmeasured load before a scenario's first round. */
  warmup: number;
  /** Baseline/service pairs per scenario, alternating. */
  rounds: number;
  seed: number;
  anchor?: string;
  /** Recurring series added to every dataset (their occurrences come on top of the events). */
  series: number;
  variedPoolSize: number;
  build: boolean;
  fromSource: boolean;
  /** Where SQLite files and the baseline body go. */
  workDir: string;
  /** Where the JSON result is written; null for nowhere. */
  resultsDir: string | null;
  quick: boolean;
  log(line: string): void;
}

export interface Figures {
  requests: number;
  rps: number;
  /** Milliseconds, mean over the rounds. */
  p50: number;
  p99: number;
  errors: number;
  /** Answers that are pages past the end of a list (404), not errors. */
  pastEnd: number;
}

/** A scenario's cold pass (BenchOptions.coldPass): its distinct reads, each once. */
export interface ColdPass {
  requests: number;
  seconds: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  errors: number;
}

export interface ScenarioResult {
  scenario: ScenarioName;
  /** Concurrent connections of its runs: the scenario's own (ScenarioLoad.connections), else the run's. */
  connections: number;
  /** Null when the run made none (`--no-cold-pass`). */
  coldPass: ColdPass | null;
  service: Figures & { peakRssMb: number | null };
  baseline: Figures;
  /** Service divided by baseline. */
  ratio: { rps: number; p50: number; p99: number };
  rounds: { service: LoadResult[]; baseline: LoadResult[] };
}

export interface StepResult {
  events: number;
  dataset: Omit<
    DatasetSummary,
    'publishedEventIds' | 'categoryIds' | 'categorySlugs' | 'tagSlugs' | 'venueIds' | 'organizerIds' | 'words'
  >;
  /** Size of the service's default events page on the wire (compressed when the requests accept gzip). */
  defaultPageBytes: number;
  /** Its `Content-Encoding` (`gzip`), or null for none. */
  defaultPageEncoding: string | null;
  variedPoolSize: number;
  scenarios: ScenarioResult[];
}

export interface ScalingRow {
  events: number;
  rps: number;
  p50: number;
  p99: number;
  baselineRatio: number;
  /**
   * Mean size of the service's answers (KiB). The pool is the same at every size, so a small
   * dataset answers more of it with short or past-the-end pages: part of what a ratio compares.
   */
  answerKib: number;
  /** Seconds the cold pass over the pool took, or null without one. */
  coldPassSeconds: number | null;
  /** Against the smallest size of the table. */
  growth: { rps: number; p50: number };
}

export interface BackendResult {
  backend: 'sqlite' | 'postgres';
  database: string;
  steps: StepResult[];
  scaling: ScalingRow[];
}

export interface BenchResult {
  meta: Meta;
  options: Omit<BenchOptions, 'log' | 'databases'> & { databases: string[] };
  backends: BackendResult[];
  targets: TargetCheck[];
  file: string | null;
}

function aggregate(runs: LoadResult[]): Figures {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const mean = (f: (r: LoadResult) => number) => runs.reduce((n, r) => n + f(r), 0) / runs.length;
  return {
    requests,
    rps: seconds ? requests / seconds : 0,
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    pastEnd: runs.reduce((n, r) => n + r.pastEnd, 0),
  };
}

const ratio = (a: number, b: number) => (b ? a / b : 0);

/** Headers every request of the run carries, the one that reads the baseline's body included. */
const requestHeaders = (options: BenchOptions): Record<string, string> =>
  options.gzip ? { 'accept-encoding': 'gzip' } : {};

interface Step {
  service: RunningServer;
  baseline: RunningServer;
  pools: ScenarioPools;
  databaseBusy: () => Promise<boolean>;
  /** Generated URLs sent to this service so far: each plan starts after them (LoadPlan.firstUrl). */
  urlsSent: number;
}

async function measure(
  driver: LoadDriver,
  step: Step,
  scenario: ScenarioName,
  options: BenchOptions,
  seed: number,
): Promise<ScenarioResult> {
  const pools = step.pools[scenario];
  const connections = pools.connections ?? options.connections;
  const plan = (origin: string, load: ScenarioLoad, duration: number, round: number): LoadPlan => ({
    origin,
    connections,
    headers: requestHeaders(options),
    duration,
    pools: load.pools,
    expected: load.expected,
    seed: seed * 1000 + round,
    firstUrl: step.urlsSent,
  });
  const sent = (result: LoadResult) => {
    step.urlsSent += result.generated;
    return result;
  };
  let coldPass: ColdPass | null = null;
  if (options.coldPass && distinctReads(pools.pools).length) {
    const pass = await driver.run({ ...plan(step.service.origin, pools, 1, 0), coldPass: true });
    await drained(step.service.pid, step.databaseBusy);
    coldPass = { requests: pass.requests, seconds: pass.seconds, p50: pass.p50, p99: pass.p99, errors: pass.errors };
  }
  if (options.warmup > 0) {
    await driver.run(plan(step.baseline.origin, pools, options.warmup, 0));
    sent(await driver.run(plan(step.service.origin, pools, options.warmup, 0)));
    await drained(step.service.pid, step.databaseBusy);
  }
  const service: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  let peakRssMb: number | null = null;
  // Alternate baseline and service so that drift of the machine hits both alike.
  for (let round = 1; round <= options.rounds; round++) {
    baseline.push(await driver.run(plan(step.baseline.origin, pools, options.duration, round)));
    const rss = sampleRss(step.service.pid);
    service.push(sent(await driver.run(plan(step.service.origin, pools, options.duration, round))));
    await drained(step.service.pid, step.databaseBusy);
    const peak = rss.stop();
    if (peak !== null) peakRssMb = Math.max(peakRssMb ?? 0, peak);
  }
  const s = aggregate(service);
  const b = aggregate(baseline);
  return {
    scenario,
    connections,
    coldPass,
    service: { ...s, peakRssMb },
    baseline: b,
    ratio: { rps: ratio(s.rps, b.rps), p50: ratio(s.p50, b.p50), p99: ratio(s.p99, b.p99) },
    rounds: { service, baseline },
  };
}

/** The dataset of a step, written with progress lines every 5 s. */
async function seedLogged(url: string, events: number, options: BenchOptions): Promise<DatasetSummary> {
  const { log } = options;
  const started = Date.now();
  let shown = 0;
  const summary = await migrateAndSeed(url, {
    events,
    seed: options.seed,
    anchor: options.anchor,
    series: options.series,
    onProgress: (written, total) => {
      if (written === total || Date.now() - shown > 5000) {
        shown = Date.now();
        log(
          `  seeding ${written.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    },
  });
  log(
    `  dataset: ${summary.events} events, ${summary.series} series with ${summary.occurrences} occurrences, ${summary.venues} venues, ${summary.organizers} organizers, ${summary.categories} categories, ${summary.tags} tags in ${summary.seconds.toFixed(1)} s`,
  );
  return summary;
}

function logScenario(log: BenchOptions['log'], result: ScenarioResult): void {
  const name = result.scenario.padEnd(16);
  const pass = result.coldPass;
  if (pass)
    log(
      `  ${name} cold pass: ${pass.requests} reads in ${pass.seconds.toFixed(2)} s, p50 ${pass.p50.toFixed(2)} ms, p99 ${pass.p99.toFixed(2)} ms, errors ${pass.errors}`,
    );
  log(
    `  ${name} ${result.service.rps.toFixed(0).padStart(7)} req/s (${result.ratio.rps.toFixed(2)}× baseline ${result.baseline.rps.toFixed(0)}), p50 ${result.service.p50.toFixed(2)} ms, p99 ${result.service.p99.toFixed(2)} ms, errors ${result.service.errors}`,
  );
}

async function runStep(
  driver: LoadDriver,
  spec: DatabaseSpec,
  events: number,
  scenarios: ScenarioName[],
  options: BenchOptions,
): Promise<StepResult> {
  const { log } = options;
  const database = await createBenchDatabase(spec, options.workDir, `e${events}`);
  const servers: RunningServer[] = [];
  try {
    const summary = await seedLogged(database.url, events, options);

    const adminUser = 'bench-admin';
    const adminPassword = randomBytes(12).toString('hex');
    const service = await startService({
      databaseUrl: database.url,
      adminUser,
      adminPassword,
      fromSource: options.fromSource,
    });
    servers.push(service);
    const page = await rawRequest('GET', `${service.origin}${API_ROOT}/events`, requestHeaders(options));
    if (page.status !== 200)
      log(`  warning: GET /events answered ${page.status}; the baseline body has the size of that answer`);
    const bodyFile = join(options.workDir, `baseline-${events}.json`);
    const encoding = page.headers['content-encoding'] ?? null;
    writeFileSync(bodyFile, page.body);
    const baseline = await startBaseline(bodyFile, encoding);
    servers.push(baseline);

    const authorization = `Basic ${Buffer.from(`${adminUser}:${adminPassword}`).toString('base64')}`;
    const pools = scenarioPools(summary, { seed: options.seed, variedPoolSize: options.variedPoolSize, authorization });

    const results: ScenarioResult[] = [];
    const step: Step = { service, baseline, pools, databaseBusy: database.busy, urlsSent: 0 };
    for (const [i, scenario] of scenarios.entries()) {
      const result = await measure(driver, step, scenario, options, options.seed + i);
      results.push(result);
      logScenario(options.log, result);
    }
    const {
      publishedEventIds: _p,
      categoryIds: _c,
      categorySlugs: _cs,
      tagSlugs: _t,
      venueIds: _v,
      organizerIds: _o,
      words: _w,
      ...dataset
    } = summary;
    return {
      events,
      dataset,
      defaultPageBytes: page.body.length,
      defaultPageEncoding: encoding,
      variedPoolSize: distinctReads(pools['list-varied'].pools).length,
      scenarios: results,
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await database.drop();
  }
}

function meanAnswerKib(rounds: LoadResult[]): number {
  const requests = rounds.reduce((n, round) => n + round.requests, 0);
  return requests ? rounds.reduce((n, round) => n + round.bytes, 0) / requests / 1024 : 0;
}

function scalingRows(steps: StepResult[]): ScalingRow[] {
  const rows = steps
    .map((step) => ({ step, varied: step.scenarios.find((s) => s.scenario === 'list-varied') }))
    .filter((x) => x.varied)
    .sort((a, b) => a.step.events - b.step.events);
  const first = rows[0]?.varied;
  return rows.map(({ step, varied }) => ({
    events: step.events,
    rps: varied!.service.rps,
    p50: varied!.service.p50,
    p99: varied!.service.p99,
    baselineRatio: varied!.ratio.rps,
    answerKib: meanAnswerKib(varied!.rounds.service),
    coldPassSeconds: varied!.coldPass?.seconds ?? null,
    growth: {
      rps: ratio(varied!.service.rps, first!.service.rps),
      p50: ratio(varied!.service.p50, first!.service.p50),
    },
  }));
}

/** The whole benchmark: every database, every size, every scenario; returns (and writes) the result. */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const { log } = options;
  mkdirSync(options.workDir, { recursive: true });
  if (options.build) {
    log('building the service (npm run build)');
    buildService();
  }
  const meta = await collectMeta(options.databases);
  const driver = new LoadDriver();
  const backends: BackendResult[] = [];
  try {
    for (const spec of options.databases) {
      const backend = backendOfSpec(spec);
      const sizes = [...new Set([...options.scaling, options.events])].sort((a, b) => a - b);
      const steps: StepResult[] = [];
      for (const events of sizes) {
        const scenarios = events === options.events ? options.scenarios : (['list-varied'] as ScenarioName[]);
        if (!scenarios.length) continue;
        log(`${backend}, ${events.toLocaleString('en-US')} events: ${scenarios.join(', ')}`);
        steps.push(await runStep(driver, spec, events, scenarios, options));
      }
      const scaling = options.scaling.length
        ? scalingRows(steps.filter((s) => options.scaling.includes(s.events)))
        : [];
      backends.push({ backend, database: backend === 'sqlite' ? 'sqlite' : redactUrl(spec), steps, scaling });
    }
  } finally {
    driver.close();
  }
  const { log: _log, databases, ...rest } = options;
  const result: BenchResult = {
    meta,
    options: { ...rest, databases: databases.map(redactUrl) },
    backends,
    targets: evaluateTargets(backends, options),
    file: null,
  };
  if (options.resultsDir) {
    mkdirSync(options.resultsDir, { recursive: true });
    const stamp = meta.date.replace(/[:.]/g, '-');
    result.file = join(
      options.resultsDir,
      `${stamp}-${backends.map((b) => b.backend).join('-')}-${options.events}.json`,
    );
    writeFileSync(result.file, `${JSON.stringify(result, null, 2)}\n`);
  }
  return result;
}
