import type { BackendResult, BenchOptions, ScenarioResult, StepResult } from './bench.js';
import { DAY_WRITERS, type ScenarioName } from './scenarios.js';

/** One target of the benchmark issue; `pass` is null when this run did not measure it. */
export interface TargetCheck {
  target: string;
  value: string;
  pass: boolean | null;
  /** False when the run's settings differ from the ones the targets are set for. */
  comparable: boolean;
}

/**
 * The targets hold for 100k events, 32 connections, on SQLite unless they name PostgreSQL; a
 * scenario that sets its own connections (day-writes) is judged at those, whatever --connections says.
 */
export const TARGET_EVENTS = 100_000;
export const TARGET_CONNECTIONS = 32;
const READS: ScenarioName[] = ['list-default', 'list-varied', 'list-uncached', 'single', 'venues-upcoming'];

const x = (n: number) => `${n.toFixed(2)}×`;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The targets on single scenarios: throughput, as a ratio to the baseline or in req/s, and p99. */
function scenarioChecks(
  sqlite: StepResult | undefined,
  postgres: StepResult | undefined,
  settings: { atTargetSize: boolean; comparable: boolean },
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const add = (
    target: string,
    measured: ScenarioResult | undefined,
    value: (s: ScenarioResult) => string,
    pass: (s: ScenarioResult) => boolean,
    missing = 'not measured',
    connections = TARGET_CONNECTIONS,
  ) =>
    checks.push(
      measured
        ? {
            target,
            value: value(measured),
            pass: pass(measured),
            // The scenario's own connections, not the run's: day-writes runs at its own whatever --connections says.
            comparable: settings.atTargetSize && measured.connections === connections,
          }
        : { target, value: missing, pass: null, comparable: settings.comparable },
    );
  const onSqlite = (name: ScenarioName) => sqlite?.scenarios.find((s) => s.scenario === name);
  const rpsAndP99 = (name: ScenarioName, backend: 'sqlite' | 'postgres', rps: number, p99: number) =>
    add(
      `${name}${backend === 'postgres' ? ' on PostgreSQL' : ''} ≥ ${rps.toLocaleString('en-US')} req/s, p99 ≤ ${p99} ms`,
      (backend === 'postgres' ? postgres : sqlite)?.scenarios.find((s) => s.scenario === name),
      (s) => `${s.service.rps.toFixed(0)} req/s, p99 ${ms(s.service.p99)}`,
      (s) => s.service.rps >= rps && s.service.p99 <= p99,
      backend === 'postgres' ? 'not measured (needs --db postgres://…)' : 'not measured',
    );

  add(
    'list-default ≥ 0.5× baseline req/s, p99 ≤ 10 ms',
    onSqlite('list-default'),
    (s) => `${x(s.ratio.rps)}, p99 ${ms(s.service.p99)}`,
    (s) => s.ratio.rps >= 0.5 && s.service.p99 <= 10,
  );
  add(
    'list-varied ≥ 0.15× baseline req/s, p99 ≤ 25 ms',
    onSqlite('list-varied'),
    (s) => `${x(s.ratio.rps)}, p99 ${ms(s.service.p99)}`,
    (s) => s.ratio.rps >= 0.15 && s.service.p99 <= 25,
  );
  rpsAndP99('list-uncached', 'sqlite', 1500, 50);
  rpsAndP99('list-uncached', 'postgres', 1000, 50);
  add(
    'single ≥ 0.3× baseline req/s',
    onSqlite('single'),
    (s) => x(s.ratio.rps),
    (s) => s.ratio.rps >= 0.3,
  );
  add(
    'create ≥ 1,000 req/s with no errors',
    onSqlite('create'),
    (s) => `${s.service.rps.toFixed(0)} req/s, ${s.service.errors} errors`,
    (s) => s.service.rps >= 1000 && s.service.errors === 0,
  );
  add(
    'day-writes on PostgreSQL ≥ 500 req/s, p99 ≤ 100 ms, 0 errors',
    postgres?.scenarios.find((s) => s.scenario === 'day-writes'),
    (s) => `${s.service.rps.toFixed(0)} req/s, p99 ${ms(s.service.p99)}, ${s.service.errors} errors`,
    (s) => s.service.rps >= 500 && s.service.p99 <= 100 && s.service.errors === 0,
    'not measured (needs --db postgres://…)',
    DAY_WRITERS,
  );
  rpsAndP99('mixed', 'sqlite', 5000, 30);
  rpsAndP99('mixed', 'postgres', 3000, 30);
  return checks;
}

function scalingCheck(backends: BackendResult[]): TargetCheck {
  const target = 'list-varied p50 at 1M ≤ 1.5× its 1k value';
  const scaling = backends.find((b) => b.backend === 'sqlite')?.scaling ?? [];
  const at1k = scaling.find((r) => r.events === 1_000);
  const at1m = scaling.find((r) => r.events === 1_000_000);
  return at1k && at1m
    ? { target, value: x(at1m.p50 / at1k.p50), pass: at1m.p50 <= 1.5 * at1k.p50, comparable: true }
    : { target, value: 'not measured (needs --scale-1m)', pass: null, comparable: true };
}

function memoryCheck(sqlite: StepResult | undefined, comparable: boolean): TargetCheck {
  const target = 'service RSS ≤ 300 MB';
  const rss = sqlite?.scenarios.map((s) => s.service.peakRssMb).filter((v): v is number => v !== null) ?? [];
  if (!rss.length) return { target, value: 'not measured', pass: null, comparable };
  const peak = Math.max(...rss);
  return { target, value: `${peak.toFixed(0)} MB`, pass: peak <= 300, comparable };
}

function postgresCheck(
  sqlite: StepResult | undefined,
  postgres: StepResult | undefined,
  comparable: boolean,
): TargetCheck {
  const target = 'PostgreSQL within 2× of SQLite on reads (req/s)';
  const pairs = READS.map((name) => ({
    name,
    s: sqlite?.scenarios.find((r) => r.scenario === name),
    p: postgres?.scenarios.find((r) => r.scenario === name),
  })).filter((pair) => pair.s && pair.p);
  if (!pairs.length)
    return { target, value: 'not measured (needs --db sqlite --db postgres://…)', pass: null, comparable };
  const worst = pairs.reduce((a, b) =>
    a.s!.service.rps / a.p!.service.rps >= b.s!.service.rps / b.p!.service.rps ? a : b,
  );
  const factor = worst.s!.service.rps / worst.p!.service.rps;
  return { target, value: `worst ${worst.name}: SQLite ${x(factor)} PostgreSQL`, pass: factor <= 2, comparable };
}

export function evaluateTargets(
  backends: BackendResult[],
  options: Pick<BenchOptions, 'events' | 'connections'>,
): TargetCheck[] {
  const atTargetSize = options.events === TARGET_EVENTS;
  const comparable = atTargetSize && options.connections === TARGET_CONNECTIONS;
  const main = (backend: string) =>
    backends.find((b) => b.backend === backend)?.steps.find((s) => s.events === options.events);
  const sqlite = main('sqlite');
  const postgres = main('postgres');
  return [
    ...scenarioChecks(sqlite, postgres, { atTargetSize, comparable }),
    scalingCheck(backends),
    memoryCheck(sqlite, comparable),
    postgresCheck(sqlite, postgres, comparable),
  ];
}
