import type { BackendResult, BenchOptions, ScenarioResult } from './bench.js';
import type { ScenarioName } from './scenarios.js';

/** One target of the benchmark issue; `pass` is null when this run did not measure it. */
export interface TargetCheck {
  target: string;
  value: string;
  pass: boolean | null;
  /** False when the run's settings differ from the ones the targets are set for. */
  comparable: boolean;
}

/** The targets hold for 100k events, 32 connections, SQLite. */
export const TARGET_EVENTS = 100_000;
export const TARGET_CONNECTIONS = 32;
const READS: ScenarioName[] = ['list-default', 'list-varied', 'single', 'venues-upcoming'];

const x = (n: number) => `${n.toFixed(2)}×`;
const ms = (n: number) => `${n.toFixed(1)} ms`;

export function evaluateTargets(
  backends: BackendResult[],
  options: Pick<BenchOptions, 'events' | 'connections'>,
): TargetCheck[] {
  const comparable = options.events === TARGET_EVENTS && options.connections === TARGET_CONNECTIONS;
  const main = (backend: string) =>
    backends.find((b) => b.backend === backend)?.steps.find((s) => s.events === options.events);
  const sqlite = main('sqlite');
  const scenario = (name: ScenarioName): ScenarioResult | undefined =>
    sqlite?.scenarios.find((s) => s.scenario === name);
  const checks: TargetCheck[] = [];
  const add = (
    target: string,
    measured: ScenarioResult | undefined,
    value: (s: ScenarioResult) => string,
    pass: (s: ScenarioResult) => boolean,
  ) =>
    checks.push(
      measured
        ? { target, value: value(measured), pass: pass(measured), comparable }
        : { target, value: 'not measured', pass: null, comparable },
    );

  add(
    'list-default ≥ 0.5× baseline req/s, p99 ≤ 10 ms',
    scenario('list-default'),
    (s) => `${x(s.ratio.rps)}, p99 ${ms(s.service.p99)}`,
    (s) => s.ratio.rps >= 0.5 && s.service.p99 <= 10,
  );
  add(
    'list-varied ≥ 0.15× baseline req/s, p99 ≤ 25 ms',
    scenario('list-varied'),
    (s) => `${x(s.ratio.rps)}, p99 ${ms(s.service.p99)}`,
    (s) => s.ratio.rps >= 0.15 && s.service.p99 <= 25,
  );
  add(
    'single ≥ 0.3× baseline req/s',
    scenario('single'),
    (s) => x(s.ratio.rps),
    (s) => s.ratio.rps >= 0.3,
  );
  add(
    'create ≥ 1,000 req/s with no errors',
    scenario('create'),
    (s) => `${s.service.rps.toFixed(0)} req/s, ${s.service.errors} errors`,
    (s) => s.service.rps >= 1000 && s.service.errors === 0,
  );

  const scaling = backends.find((b) => b.backend === 'sqlite')?.scaling ?? [];
  const at1k = scaling.find((r) => r.events === 1_000);
  const at1m = scaling.find((r) => r.events === 1_000_000);
  checks.push(
    at1k && at1m
      ? {
          target: 'list-varied p50 at 1M ≤ 1.5× its 1k value',
          value: x(at1m.p50 / at1k.p50),
          pass: at1m.p50 <= 1.5 * at1k.p50,
          comparable: true,
        }
      : {
          target: 'list-varied p50 at 1M ≤ 1.5× its 1k value',
          value: 'not measured (needs --scale-1m)',
          pass: null,
          comparable: true,
        },
  );

  const rss = sqlite?.scenarios.map((s) => s.service.peakRssMb).filter((v): v is number => v !== null) ?? [];
  checks.push(
    rss.length
      ? {
          target: 'service RSS ≤ 300 MB',
          value: `${Math.max(...rss).toFixed(0)} MB`,
          pass: Math.max(...rss) <= 300,
          comparable,
        }
      : { target: 'service RSS ≤ 300 MB', value: 'not measured', pass: null, comparable },
  );

  const postgres = main('postgres');
  const pairs = READS.map((name) => ({
    name,
    s: sqlite?.scenarios.find((r) => r.scenario === name),
    p: postgres?.scenarios.find((r) => r.scenario === name),
  })).filter((pair) => pair.s && pair.p);
  if (pairs.length) {
    const worst = pairs.reduce((a, b) =>
      a.s!.service.rps / a.p!.service.rps >= b.s!.service.rps / b.p!.service.rps ? a : b,
    );
    const factor = worst.s!.service.rps / worst.p!.service.rps;
    checks.push({
      target: 'PostgreSQL within 2× of SQLite on reads (req/s)',
      value: `worst ${worst.name}: SQLite ${x(factor)} PostgreSQL`,
      pass: factor <= 2,
      comparable,
    });
  } else {
    checks.push({
      target: 'PostgreSQL within 2× of SQLite on reads (req/s)',
      value: 'not measured (needs --db sqlite --db postgres://…)',
      pass: null,
      comparable,
    });
  }
  return checks;
}
