import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forEachBackend, type RequestOptions, type TestResponse } from '../support/server.js';
import { expectHandled, inconsistencies, prototypeKeys, routeTargets, type RouteTarget } from '../support/routes.js';

/**
 * Property-based fuzzing of every route and method with random and hostile values (seeded, so a
 * failure repeats). Each case is one request; the properties: no 5xx, a 4xx in the WordPress error
 * shape, no change to any prototype; after all cases the database is still consistent.
 * FUZZ_RUNS and FUZZ_SEED change the number of cases per backend and the seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);

/**
 * Values known to have broken services like this one: script URLs, date overflows, huge numbers, keys of the object
 * machinery.
 */
const HOSTILE = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f',
  '\ud800',
  '\uffff',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '  javascript://example.com/%0Aalert(1)',
  '\u0001vbscript:x',
  'data:text/html,<b>',
  'http://x.com/"><script>alert(1)</script>',
  'https://example.org/a b',
  '//evil.example',
  '+1000000 years',
  '-1000000 years',
  '+1 week',
  'next monday',
  'now',
  'tomorrow',
  '@99999999999999',
  '9999-12-31 23:59:59',
  '0000-00-00 00:00:00',
  '2030-02-30',
  '2030-13-01',
  '10000-01-01',
  '-0001-01-01',
  '99999999999',
  '2147483648',
  '-2147483649',
  '-1',
  '0',
  '1e309',
  '1e-400',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '١٢٣',
  'UTC+25',
  'UTC-15',
  'UTC+14.5',
  'Europe/Nowhere',
  '../../etc/passwd',
  '😀'.repeat(200),
  '😀 '.repeat(200),
  'w '.repeat(300),
  'a'.repeat(5000),
  '%',
  '%00',
  '%E0%A4%A',
  '%%%',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '"',
  '\\',
  '[]',
  '{}',
  ',,,',
  '-',
  '""',
  'publish',
  'any',
  'trash',
  'draft',
  'private',
  'future',
  'inherit',
  'auto-draft',
  'true',
  'false',
  'on',
  'yes',
];

/** Short values only in URLs: a URL past the header limit is another test's subject. */
const shortHostile = fc.constantFrom(...HOSTILE.filter((v) => v.length < 300));
const text = fc.oneof(
  shortHostile,
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

function scalar(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: text },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE, -0, 0.5, 1e308) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

/** Keys: the endpoint's own argument names (so validators run), globals, the object machinery, and noise. */
function keyFor(target: RouteTarget): fc.Arbitrary<string> {
  const own = fc.constantFrom(...(target.args.length ? target.args : ['page']));
  return fc.oneof(
    { weight: 6, arbitrary: own },
    // Bracket syntax: qs turns these into arrays and nested objects (form bodies and query strings).
    {
      weight: 2,
      arbitrary: fc
        .tuple(own, fc.constantFrom('[]', '[a]', '[a][b]', '[0]', '[toString]', '[__proto__]', '[valueOf][x]'))
        .map(([k, s]) => k + s),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '_fields',
        '_envelope',
        '_method',
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'valueOf',
        'a[__proto__][x]',
      ),
    },
    { weight: 1, arbitrary: text },
  );
}

function valueFor(target: RouteTarget): fc.Arbitrary<unknown> {
  const key = keyFor(target);
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((pairs) => Object.fromEntries(pairs)),
    ),
  })).value;
}

/** A lone surrogate cannot be percent-encoded in a path (URLSearchParams replaces it instead). */
function isEncodable(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

interface Case {
  method: string;
  path: string;
  as: 'administrator' | 'author' | 'subscriber' | undefined;
  query: Array<[string, string]>;
  body: { kind: 'json'; text: string } | { kind: 'form'; pairs: Array<[string, string]> } | null;
}

function caseFor(target: RouteTarget): fc.Arbitrary<Case> {
  const key = keyFor(target);
  const method = fc.constantFrom(...target.methods, 'HEAD', 'OPTIONS');
  const path = target.withTarget
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant(target.path) },
        {
          weight: 1,
          arbitrary: fc
            .oneof(shortHostile, fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String))
            .filter(isEncodable)
            .map((v) => target.withTarget!(encodeURIComponent(v))),
        },
      )
    : fc.constant(target.path);
  const queryValue = fc.oneof(text, fc.integer().map(String));
  const body = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(key, valueFor(target)), { maxLength: 6 })
        .map((pairs) => ({ kind: 'json' as const, text: JSON.stringify(Object.fromEntries(pairs)) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(text, fc.constantFrom('{', '{"a":', '[1,', '"\\ud800"', `{"a":${'['.repeat(3000)}`))
        .map((t) => ({ kind: 'json' as const, text: t })),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(key, queryValue), { maxLength: 6 })
        .map((pairs) => ({ kind: 'form' as const, pairs })),
    },
  );
  return fc.record({
    method,
    path,
    as: fc.constantFrom('administrator', 'author', 'subscriber', undefined),
    query: fc.array(fc.tuple(key, queryValue), { maxLength: 5 }),
    body,
  });
}

function describeCase(c: Case): string {
  const body =
    c.body === null
      ? ''
      : c.body.kind === 'json'
        ? ` json ${c.body.text.slice(0, 200)}`
        : ` form ${new URLSearchParams(c.body.pairs)}`;
  return `${c.method} ${c.path}?${new URLSearchParams(c.query)} as ${c.as ?? 'anonymous'}${body}`;
}

function polluted(): boolean {
  return ({} as Record<string, unknown>).polluted !== undefined;
}

forEachBackend('Fuzz: random and hostile requests on every route', (srv) => {
  let targets: RouteTarget[] = [];
  before(async () => {
    targets = await routeTargets(srv());
    for (const role of ['administrator', 'author', 'subscriber'] as const) await srv().user(role);
  });

  it(
    `${RUNS} seeded cases: no 5xx, WordPress errors, no prototype change, a consistent database`,
    { timeout: 600_000 },
    async (t) => {
      const keysBefore = prototypeKeys();
      const failures = new Map<string, string>();
      let serverErrors = 0;
      const statuses = new Map<number, number>();
      const send = async (c: Case): Promise<TestResponse> => {
        const search = new URLSearchParams(c.query).toString();
        const path = search ? `${c.path}?${search}` : c.path;
        // fetch sends no body with GET or HEAD: the method override carries it (common.md 1.6).
        const carried = c.body !== null && (c.method === 'GET' || c.method === 'HEAD');
        const opts: RequestOptions = { headers: carried ? { 'x-http-method-override': c.method } : {} };
        if (c.as) opts.as = c.as;
        if (c.body?.kind === 'json')
          Object.assign(opts, { body: c.body.text, headers: { ...opts.headers, 'content-type': 'application/json' } });
        if (c.body?.kind === 'form') opts.form = new URLSearchParams(c.body.pairs).toString();
        return srv().request(carried ? 'POST' : c.method, path, opts);
      };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...targets).chain((target) => caseFor(target)),
          async (c) => {
            const res = await send(c);
            const what = describeCase(c);
            if (res.status >= 500) serverErrors++;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            try {
              if (c.method === 'HEAD' && c.body === null) assert.ok(res.status < 500, `${what}: ${res.status}`);
              else expectHandled(res, what);
            } catch (err) {
              failures.set(
                `${res.status} ${c.method} ${c.path.replace(/\d+/g, 'N')}`,
                (err as Error).message.split('\n')[0]!,
              );
            }
            if (polluted()) failures.set('prototype', what);
            return true;
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      const byStatus = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      t.diagnostic(
        `${RUNS} cases (seed ${SEED}): ${serverErrors} answered 5xx, ${failures.size} kinds of failure; ${byStatus}`,
      );
      const report = [...failures].map(([k, v]) => `${k}\n    ${v}`).join('\n');
      assert.equal(failures.size, 0, `${failures.size} kinds of failure in ${RUNS} cases:\n${report}`);
      assert.deepEqual(prototypeKeys(), keysBefore);
      assert.deepEqual(await inconsistencies(srv()), []);
    },
  );
});
