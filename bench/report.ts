import type { BackendResult, BenchResult, StepResult } from './bench.js';
import { GZIP_MIN_BYTES } from '../src/http/compression.js';
import { DAY_WRITERS, SCENARIO_DESCRIPTIONS, SCENARIO_READS, SCENARIOS } from './scenarios.js';
import { TARGET_CONNECTIONS, TARGET_EVENTS } from './targets.js';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const fixed = (n: number, digits = 2) => n.toFixed(digits);

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** `32 connections`, and the scenarios that ran at their own: `32 connections (day-writes: 8)`. */
function connectionsText({ options, backends }: BenchResult): string {
  const own = new Map<string, number>();
  for (const backend of backends)
    for (const step of backend.steps)
      for (const s of step.scenarios) if (s.connections !== options.connections) own.set(s.scenario, s.connections);
  const list = [...own].map(([name, n]) => `${name}: ${n}`).join(', ');
  return `${options.connections} connections${list ? ` (${list})` : ''}`;
}

function header(result: BenchResult): string[] {
  const { meta, options } = result;
  const commit = meta.commit
    ? `${meta.commit.slice(0, 10)}${meta.dirty ? ' (with uncommitted changes)' : ''}`
    : 'unknown commit';
  return [
    `Calendar Server benchmark, ${meta.date}, ${commit}`,
    `${meta.machine.cores} cores (${meta.machine.cpu}), ${meta.machine.memoryGb} GB, ${meta.machine.os}; Node ${meta.versions.node}, SQLite ${meta.versions.sqlite}${meta.versions.postgresql ? `, PostgreSQL ${meta.versions.postgresql}` : ''}`,
    `${connectionsText(result)}, ${options.duration} s × ${options.rounds} round(s) per figure after ${options.coldPass ? 'a cold pass (each distinct read of the scenario once; list-uncached has none) and ' : ''}${options.warmup} s warm-up; each round alternates with a bare node:http server answering the bytes of the default page (×base = service / baseline).`,
    options.gzip
      ? `Requests accept gzip (Accept-Encoding: gzip, as browsers and HTTP libraries send); answers of ${GZIP_MIN_BYTES / 1024} KiB and more come compressed.`
      : 'Requests do not accept gzip (--no-gzip): every answer comes uncompressed.',
  ];
}

/** One dataset's scenarios, cached and uncached reads side by side (column `reads`). */
function scenarioTable(backend: BackendResult, step: StepResult): string[] {
  return [
    '',
    `${backend.backend === 'sqlite' ? 'SQLite' : `PostgreSQL (${backend.database})`}, ${int(step.events)} events; default page ${int(step.defaultPageBytes)} bytes${step.defaultPageEncoding ? ` ${step.defaultPageEncoding}` : ''}; list-varied pool ${int(step.variedPoolSize)} URLs`,
    ...table(
      [
        'scenario',
        'reads',
        'req/s',
        '×base',
        'p50 ms',
        '×base',
        'p99 ms',
        '×base',
        'errors',
        'past-end 404',
        'peak RSS MB',
        'baseline req/s',
        'cold pass s (reads)',
      ],
      step.scenarios.map((s) => [
        s.scenario,
        SCENARIO_READS[s.scenario],
        int(s.service.rps),
        fixed(s.ratio.rps),
        fixed(s.service.p50),
        fixed(s.ratio.p50, 1),
        fixed(s.service.p99),
        fixed(s.ratio.p99, 1),
        int(s.service.errors),
        s.service.pastEnd ? `${fixed((100 * s.service.pastEnd) / s.service.requests, 1)}%` : '-',
        s.service.peakRssMb === null ? '-' : int(s.service.peakRssMb),
        int(s.baseline.rps),
        s.coldPass ? `${fixed(s.coldPass.seconds, 1)} (${int(s.coldPass.requests)})` : '-',
      ]),
    ),
  ];
}

function scalingTable(backend: BackendResult): string[] {
  const first = int(backend.scaling[0]!.events);
  return [
    '',
    `${backend.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'} scaling, list-varied (×${first} = against ${first} events)`,
    ...table(
      ['events', 'req/s', `×${first}`, 'p50 ms', `×${first}`, 'p99 ms', '×base req/s', 'KiB/answer', 'cold pass s'],
      backend.scaling.map((r) => [
        int(r.events),
        int(r.rps),
        fixed(r.growth.rps),
        fixed(r.p50),
        fixed(r.growth.p50),
        fixed(r.p99),
        fixed(r.baselineRatio),
        fixed(r.answerKib, 1),
        r.coldPassSeconds === null ? '-' : fixed(r.coldPassSeconds, 1),
      ]),
    ),
  ];
}

function legend(): string[] {
  const readsWidth = Math.max(...SCENARIOS.map((name) => SCENARIO_READS[name].length));
  return [
    '',
    'Scenarios (reads: what the response cache can do for them)',
    ...SCENARIOS.map(
      (name) => `  ${name.padEnd(16)} ${SCENARIO_READS[name].padEnd(readsWidth)} ${SCENARIO_DESCRIPTIONS[name]}`,
    ),
    '  cached: the same URLs again, answered from the cache the cold pass filled; uncached: never the same URL twice;',
    '  stale on writes: repeated URLs; a write makes stale the answers built from what it changed.',
    '  Targets are judged on the rounds, never on a cold pass.',
  ];
}

function targetLines(result: BenchResult): string[] {
  return [
    '',
    `Targets (set for ${int(TARGET_EVENTS)} events, ${TARGET_CONNECTIONS} connections and day-writes' own ${DAY_WRITERS}; on SQLite unless they name PostgreSQL)`,
    ...result.targets.map((check) => {
      const verdict = check.pass === null ? 'n/a ' : check.pass ? 'PASS' : 'FAIL';
      return `  ${verdict}  ${check.target}: ${check.value}${check.comparable ? '' : ' (other settings: informative only)'}`;
    }),
  ];
}

/** The human-readable report printed at the end of `npm run bench`. */
export function formatReport(result: BenchResult): string {
  const out = header(result);
  for (const backend of result.backends) {
    for (const step of backend.steps) {
      const scalingOnly =
        step.scenarios.length === 1 &&
        backend.scaling.some((r) => r.events === step.events) &&
        step.events !== result.options.events;
      if (!scalingOnly) out.push(...scenarioTable(backend, step));
    }
    if (backend.scaling.length) out.push(...scalingTable(backend));
  }
  out.push(...legend(), ...targetLines(result));
  if (result.file) out.push('', `JSON: ${result.file}`);
  return out.join('\n');
}
