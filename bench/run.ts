import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { runBench, type BenchOptions } from './bench.js';
import { backendOfSpec, migrateAndSeed, redactUrl } from './databases.js';
import { ROOT, killRunningServers } from './processes.js';
import { formatReport } from './report.js';
import { SCENARIOS, type ScenarioName } from './scenarios.js';

/** `npm run bench [-- options]`: see bench/README.md. */

const positive = (name: string) => (raw: string) => {
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
  return n;
};
const nonNegative = (name: string) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be 0 or more`);
  return n;
};
const sizes = (raw: string) => raw.split(',').filter(Boolean).map(positive('--scaling'));
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const scenarioList = (raw: string): ScenarioName[] => {
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(SCENARIOS as readonly string[]).includes(name))
      throw new InvalidArgumentError(`unknown scenario "${name}" (known: ${SCENARIOS.join(', ')})`);
  }
  return names as ScenarioName[];
};

const program = new Command('bench')
  .description('Benchmark of Calendar Server against a bare node:http baseline measured in the same run.')
  .option(
    '--db <url>',
    'sqlite (default) or a PostgreSQL URL; repeat to run several (a dedicated database is created and dropped)',
    collect,
  )
  .option(
    '--events <n>',
    'events in the dataset of the scenario table (default 100000; --quick: 1000)',
    positive('--events'),
  )
  .option(
    '--scaling <sizes>',
    'dataset sizes of the list-varied scaling table (default 1000,10000,100000; --quick: 250,1000)',
    sizes,
  )
  .option('--no-scaling', 'skip the scaling table')
  .option('--scale-1m', 'add 1,000,000 events to the scaling table (several minutes more, see bench/README.md)')
  .option('--scenarios <list>', `scenarios to run (default all: ${SCENARIOS.join(',')})`, scenarioList)
  .option('--connections <n>', 'concurrent connections of the load generator', positive('--connections'), 32)
  .option(
    '--no-gzip',
    "requests do not say Accept-Encoding: gzip (every answer, the baseline's too, goes uncompressed)",
  )
  .option('--duration <s>', 'seconds per measured run (default 10; --quick: 1)', positive('--duration'))
  .option(
    '--no-cold-pass',
    'measure without first reading each distinct URL of a scenario once (the rounds then include filling the response cache)',
  )
  .option(
    '--warmup <s>',
    'seconds of unmeasured load before each scenario (default 2; --quick: 0.3)',
    nonNegative('--warmup'),
  )
  .option('--rounds <n>', 'baseline/service round pairs per scenario (default 2; --quick: 1)', positive('--rounds'))
  .option('--pool <n>', 'size of the list-varied URL pool (default 1000; --quick: 100)', positive('--pool'))
  .option('--seed <n>', 'seed of the dataset and the request pools', positive('--seed'), 1)
  .option(
    '--series <n>',
    'published events made the first events of recurring series, their occurrences added to the dataset (default 0)',
    nonNegative('--series'),
    0,
  )
  .option('--anchor <date>', 'UTC day the event dates are spread around (default today)')
  .option('--quick', 'small dataset and short runs (a smoke test of the harness; figures are not meaningful)')
  .option(
    '--seed-only',
    'only write the dataset (--events) into the database given by --db (migrations first), then exit',
  )
  .option('--no-build', 'measure the existing dist/ without running npm run build')
  .option('--from-source', 'run the service from src/ through tsx instead of dist/ (implies --no-build)')
  .option('--results-dir <dir>', 'where the JSON result goes', join(ROOT, 'bench', 'results'))
  .option(
    '--work-dir <dir>',
    'where SQLite files and temporary files go (default a new directory under the system temp dir)',
  );

async function seedOnly(o: Record<string, any>): Promise<void> {
  const dbs: string[] = o.db ?? [];
  if (dbs.length !== 1 || !/^(sqlite:.+|postgres(ql)?:\/\/.+)$/i.test(dbs[0]!)) {
    throw new InvalidArgumentError('--seed-only needs exactly one --db: sqlite:FILE or postgres://…');
  }
  const url = dbs[0]!;
  const events = o.events ?? 100_000;
  const started = Date.now();
  let shown = 0;
  const summary = await migrateAndSeed(url, {
    events,
    seed: o.seed,
    anchor: o.anchor,
    series: o.series,
    onProgress: (written, total) => {
      if (written === total || Date.now() - shown > 5000) {
        shown = Date.now();
        console.log(
          `seeding ${written.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    },
  });
  console.log(
    `wrote ${summary.events} events, ${summary.series} series with ${summary.occurrences} occurrences, ${summary.venues} venues, ${summary.organizers} organizers, ${summary.images} images, ${summary.categories} categories, ${summary.tags} tags into ${redactUrl(url)} in ${summary.seconds.toFixed(1)} s (seed ${summary.seed}, anchor ${summary.anchor})`,
  );
}

async function main(): Promise<void> {
  program.parse(process.argv);
  const o = program.opts();
  if (o.seedOnly) return seedOnly(o);

  const quick = Boolean(o.quick);
  const databases: string[] = (o.db ?? ['sqlite']).map((spec: string) =>
    /^sqlite(:|$)/i.test(spec) ? 'sqlite' : spec,
  );
  for (const spec of databases) backendOfSpec(spec);
  const events: number = o.events ?? (quick ? 1_000 : 100_000);
  let scaling: number[] =
    o.scaling === false ? [] : Array.isArray(o.scaling) ? o.scaling : quick ? [250, 1_000] : [1_000, 10_000, 100_000];
  if (o.scale1m) scaling = [...new Set([...scaling, 1_000_000])];
  const workDir: string = o.workDir ?? mkdtempSync(join(tmpdir(), 'calendar-bench-'));
  const options: BenchOptions = {
    databases,
    events,
    scaling,
    scenarios: o.scenarios ?? [...SCENARIOS],
    connections: o.connections,
    gzip: o.gzip,
    coldPass: o.coldPass,
    duration: o.duration ?? (quick ? 1 : 10),
    warmup: o.warmup ?? (quick ? 0.3 : 2),
    rounds: o.rounds ?? (quick ? 1 : 2),
    seed: o.seed,
    anchor: o.anchor,
    series: o.series,
    variedPoolSize: o.pool ?? (quick ? 100 : 1_000),
    build: o.build && !o.fromSource,
    fromSource: Boolean(o.fromSource),
    workDir,
    resultsDir: o.resultsDir,
    quick,
    log: (line) => console.log(line),
  };
  const interrupted = () => {
    killRunningServers();
    if (!o.workDir) rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const result = await runBench(options);
    console.log('');
    console.log(formatReport(result));
  } finally {
    if (!o.workDir) rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `bench: ${err.message}` : err);
  process.exit(1);
});
