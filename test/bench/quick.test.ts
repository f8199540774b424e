import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, type BenchResult, type StepResult } from '../../bench/bench.js';
import { formatReport } from '../../bench/report.js';
import { SCENARIOS } from '../../bench/scenarios.js';

// The benchmark's --quick mode end to end on SQLite: dataset, service process, baseline, load
// generator, report and JSON file. Only that it produces numbers is checked, never how fast.
describe('npm run bench -- --quick', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-test-'));
  let result: BenchResult;
  let main: StepResult;
  const scenario = (name: string) => main.scenarios.find((s) => s.scenario === name)!;
  const coldPass = (name: string) => scenario(name).coldPass;
  const statuses = (name: string) => scenario(name).rounds.service[0]!.statuses;

  before(async () => {
    result = await runBench({
      databases: ['sqlite'],
      events: 400,
      scaling: [150, 400],
      scenarios: [...SCENARIOS],
      // Fewer than day-writes' own connections, so that its override shows.
      connections: 4,
      gzip: true,
      coldPass: true,
      // Long enough that every scenario completes requests on a busy machine (the suite runs
      // files in parallel): a warm-up that compiles the code paths, then 2 s per figure.
      duration: 2,
      warmup: 0.5,
      rounds: 1,
      seed: 7,
      series: 20,
      variedPoolSize: 40,
      build: false,
      fromSource: true,
      workDir,
      resultsDir: join(workDir, 'results'),
      quick: true,
      log: () => undefined,
    });
    main = result.backends[0]!.steps.find((s) => s.events === 400)!;
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  it('measures every scenario against the baseline, with no error', () => {
    assert.equal(result.backends.length, 1);
    const [sqlite] = result.backends;
    assert.equal(sqlite!.backend, 'sqlite');
    assert.deepEqual(
      sqlite!.steps.map((s) => s.events),
      [150, 400],
    );
    assert.equal(main.dataset.events, 400);
    assert.equal(main.dataset.series, 20);
    assert.ok(main.dataset.occurrences >= 20 * 2, `${main.dataset.occurrences} occurrences of 20 series`);
    assert.ok(main.defaultPageBytes > 100, `default page of ${main.defaultPageBytes} bytes`);
    assert.equal(main.defaultPageEncoding, 'gzip', 'the requests accept gzip, and the default page is sent compressed');
    assert.equal(main.variedPoolSize, 40);
    assert.deepEqual(
      main.scenarios.map((s) => s.scenario),
      [...SCENARIOS],
    );
    for (const s of main.scenarios) {
      assert.ok(s.service.requests > 0 && s.service.rps > 0, `${s.scenario}: no requests completed`);
      assert.equal(s.service.errors, 0, `${s.scenario}: ${JSON.stringify(s.rounds.service[0]!.statuses)}`);
      assert.ok(s.baseline.rps > 0 && s.ratio.rps > 0, `${s.scenario}: no baseline ratio`);
      assert.ok(
        Number.isFinite(s.service.p50) && s.service.p50 > 0 && s.service.p99 >= s.service.p50,
        `${s.scenario}: latencies`,
      );
      assert.ok(s.service.peakRssMb === null || s.service.peakRssMb > 10, `${s.scenario}: RSS ${s.service.peakRssMb}`);
    }
    assert.ok((statuses('create')['201'] ?? 0) > 0, 'create answered no 201');
    assert.ok((statuses('day-writes')['201'] ?? 0) > 0, 'day-writes created no event');
    assert.ok((statuses('day-writes')['200'] ?? 0) > 0, 'day-writes retitled no event');
    assert.ok((statuses('mixed')['201'] ?? 0) > 0, 'mixed created no event');
  });

  it('day-writes runs at its own 8 connections, every other scenario at --connections', () => {
    for (const s of main.scenarios) assert.equal(s.connections, s.scenario === 'day-writes' ? 8 : 4, s.scenario);
    assert.equal(coldPass('day-writes'), null, 'day-writes has no reads');
    assert.match(main.dataset.writeDay.day, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(main.dataset.writeDay.eventIds.length > 0, 'the write day has events to retitle');
  });

  it('a cold pass reads each distinct URL of a pool once; list-uncached and create have none', () => {
    assert.deepEqual(
      { requests: coldPass('list-varied')?.requests, errors: coldPass('list-varied')?.errors },
      { requests: 40, errors: 0 },
      'the cold pass reads each URL of the list pool once',
    );
    assert.ok(coldPass('list-varied')!.seconds > 0);
    assert.equal(coldPass('list-default')?.requests, 1);
    assert.equal(coldPass('create'), null, 'a scenario without reads has no cold pass');
    assert.equal(coldPass('list-uncached'), null, 'list-uncached never reads a URL before it is measured');
  });

  it('list-uncached sends valid queries only and uses up a URL per request', () => {
    assert.deepEqual(
      Object.keys(statuses('list-uncached')).filter((status) => status !== '200' && status !== '404'),
      [],
      'every list-uncached URL is a valid query: a page, or a page past the end',
    );
    const uncached = scenario('list-uncached');
    assert.ok(uncached.rounds.service[0]!.generated >= uncached.service.requests);
  });

  it('the scaling table compares list-varied over the dataset sizes', () => {
    const [sqlite] = result.backends;
    assert.deepEqual(
      sqlite!.scaling.map((r) => r.events),
      [150, 400],
    );
    assert.equal(sqlite!.scaling[0]!.growth.p50, 1);
    assert.ok(sqlite!.scaling.every((r) => r.rps > 0 && r.p50 > 0 && r.baselineRatio > 0));
    for (const row of sqlite!.scaling) {
      const rounds = sqlite!.steps
        .find((step) => step.events === row.events)!
        .scenarios.find((s) => s.scenario === 'list-varied')!.rounds.service;
      const bytes = rounds.reduce((n, round) => n + round.bytes, 0);
      const requests = rounds.reduce((n, round) => n + round.requests, 0);
      assert.ok(row.answerKib > 0.1, `answers of ${row.answerKib} KiB`);
      assert.equal(row.answerKib, bytes / requests / 1024);
      assert.ok(row.coldPassSeconds! > 0, `a cold pass of ${row.coldPassSeconds} s`);
    }
  });

  it('the report sets cached and uncached reads side by side, then the targets; the JSON file holds it all', () => {
    assert.equal(result.targets.length, 12);
    assert.ok(
      result.targets.every((t) => !t.comparable || t.target.includes('1M')),
      'a 400-event run is not comparable with the targets',
    );
    const saved = JSON.parse(readFileSync(result.file!, 'utf8'));
    assert.equal(saved.meta.machine.cores > 0, true);
    assert.equal(typeof saved.meta.versions.node, 'string');
    assert.equal(saved.backends[0].steps[1].scenarios.length, SCENARIOS.length);
    const report = formatReport(result);
    for (const name of SCENARIOS) assert.match(report, new RegExp(`^${name} `, 'm'));
    assert.match(report, /scaling, list-varied/);
    assert.match(report, /KiB\/answer/);
    assert.match(report, /cold pass s/);
    assert.match(report, /^list-varied +cached /m);
    assert.match(report, /^list-uncached +uncached /m);
    assert.match(report, /^mixed +stale on writes /m);
    assert.match(report, /^day-writes +- /m);
    assert.match(report, /^4 connections \(day-writes: 8\), /m);
    assert.match(report, /^ {2}day-writes +- +8 connections \(not --connections\): /m);
    assert.match(report, /n\/a +day-writes on PostgreSQL ≥ 500 req\/s, p99 ≤ 100 ms, 0 errors: not measured/);
    assert.match(report, /n\/a +list-uncached on PostgreSQL ≥ 1,000 req\/s, p99 ≤ 50 ms: not measured/);
  });
});
