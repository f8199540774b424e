import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { forEachBackend } from '../support/server.js';

/**
 * Every `sh` example of README.md, docs/api.md and docs/operations.md runs here with bash and curl against a test
 * server, and answers as the document says.
 *
 * The conventions the documents follow for that:
 * - A block fenced with ```` ```sh not-run ```` is not an example (install commands, `npm start`, listings) and is
 *   skipped. Every other `sh` block is run, and must call curl at least once.
 * - `http://localhost:8080` in a command is the test server. The server is started the way README's worked example
 *   starts one (`CALENDAR_ADMIN_USER=admin`, `CALENDAR_ADMIN_APP_PASSWORD='abcd EFGH ijkl MNOP qrst UVWX'`) with
 *   `SITE_URL=http://localhost:8080`, so README's credentials work as written and the links in answers read as shown.
 * - The blocks run in reading order (`DOCUMENTS`) on one new database, as a reader would type them into one
 *   terminal: a variable a block sets (`API=…`) stays set for the blocks after it, and the IDs the examples use are
 *   those a reader gets by running the examples in order on a new database.
 * - A comment beginning `# →` after a curl call, on its last line or the lines after it (continued on comment lines
 *   indented by two spaces or more), is what that call answers: a leading status (`# → 410`) is asserted, otherwise
 *   any 2xx; an error code after the status (`410 venue-is-in-trash`) is the body's `code`; and every `"key":value`
 *   pair written out in full (no `…`) appears verbatim in the body.
 */

/** The documents whose examples run, in reading order: README's worked example sets what the others use. */
const DOCUMENTS = ['README.md', 'docs/api.md', 'docs/operations.md'];
const README_ORIGIN = 'http://localhost:8080';
const ADMIN = { CALENDAR_ADMIN_USER: 'admin', CALENDAR_ADMIN_APP_PASSWORD: 'abcd EFGH ijkl MNOP qrst UVWX' };
const NOT_RUN = 'not-run';

interface Example {
  /** `FILE:LINE (heading)`, for test names and messages. */
  where: string;
  script: string;
  /** The claim of each curl call, in the order the calls run; undefined where the document states none. */
  claims: Array<string | undefined>;
}

/** The runnable `sh` blocks of `file`, in order. */
function examplesOf(file: string): Example[] {
  const markdown = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{2,} /.test(lines[i]!)) heading = lines[i]!.replace(/^#+ /, '');
    const fence = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `${file}:${i + 1}: the code block is never closed`);
    const script = lines.slice(i + 1, end).join('\n');
    if (fence[1] === 'sh' && fence[2] !== NOT_RUN) {
      examples.push({ where: `${file}:${i + 1} (${heading})`, script, claims: claimsOf(script) });
    }
    i = end;
  }
  return examples;
}

const CURL_CALL = /(?:^\s*|\$\()curl\s/;
const CLAIM = /#\s*→\s*(.*)$/;
const CLAIM_CONTINUED = /^\s*#\s{2,}(.*)$/;

function claimsOf(script: string): Array<string | undefined> {
  const claims: Array<string | undefined> = [];
  let continuing = false;
  for (const line of script.split('\n')) {
    if (CURL_CALL.test(line)) claims.push(undefined);
    const claim = CLAIM.exec(line);
    if (claim) {
      assert.ok(claims.length > 0, `a claim comes before any curl call: ${line}`);
      claims[claims.length - 1] = claim[1]!;
      continuing = true;
    } else if (continuing && CLAIM_CONTINUED.test(line)) {
      claims[claims.length - 1] += CLAIM_CONTINUED.exec(line)![1]!;
    } else continuing = false;
  }
  return claims;
}

/** The shell variables a block sets (`API=…`), to be kept for the blocks after it. */
function assignedNames(script: string): string[] {
  return [...script.matchAll(/^([A-Za-z_]\w*)=/gm)].map((m) => m[1]!);
}

/**
 * Runs before each block: restores the variables earlier blocks set ($SESSION), saves them on exit, and records each
 * curl call's response head and output in the folder $CALLS, numbered in the order the calls run (a file counter,
 * since calls inside `$(…)` run in subshells). A call that takes over 30 seconds fails rather than hanging the test.
 */
function prelude(kept: string[]): string {
  // `declare -p` without names would print every variable, read-only ones included.
  const save = kept.length ? `trap 'declare -p ${kept.join(' ')} > "$SESSION" 2> /dev/null || true' EXIT\n` : '';
  return `set -eo pipefail
if [ -f "$SESSION" ]; then . "$SESSION"; fi
${save}curl() {
  local n=$(( $(cat "$CALLS/count" 2> /dev/null || echo 0) + 1 ))
  echo "$n" > "$CALLS/count"
  command curl --max-time 30 -D "$CALLS/$n.head" "$@" | tee "$CALLS/$n.out"
}
`;
}

interface Answer {
  status: number;
  body: string;
}

function recordedAnswers(calls: string): Answer[] {
  const count = existsSync(join(calls, 'count')) ? Number(readFileSync(join(calls, 'count'), 'utf8')) : 0;
  return Array.from({ length: count }, (_, i) => {
    const head = readFileSync(join(calls, `${i + 1}.head`), 'utf8');
    const out = readFileSync(join(calls, `${i + 1}.out`), 'utf8');
    const statuses = [...head.matchAll(/^HTTP\/\S+ (\d{3})/gm)];
    // `curl -i` writes the head before the body.
    const body = out.startsWith('HTTP/') ? out.slice(out.indexOf('\r\n\r\n') + 4) : out;
    return { status: Number(statuses.at(-1)?.[1]), body };
  });
}

const STATUS_AND_CODE = /^(\d{3})\b[\s,]*([a-z]+[-_][a-z0-9_-]+)?/;
const JSON_PAIR = /"[\w-]+":(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g;

function checkAnswer(answer: Answer, claim: string | undefined, call: string): void {
  const stated = STATUS_AND_CODE.exec(claim ?? '');
  if (stated) assert.equal(answer.status, Number(stated[1]), `${call}: status (${answer.body})`);
  else assert.ok(answer.status >= 200 && answer.status < 300, `${call}: status ${answer.status} (${answer.body})`);
  if (stated?.[2]) assert.equal(JSON.parse(answer.body).code, stated[2], `${call}: error code`);
  for (const [pair] of (claim ?? '').matchAll(JSON_PAIR)) {
    if (!pair.includes('…')) assert.ok(answer.body.includes(pair), `${call}: the body holds ${pair} (${answer.body})`);
  }
}

const run = promisify(execFile);
const examples = DOCUMENTS.flatMap(examplesOf);

forEachBackend(
  'documentation examples',
  (srv) => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'calendar-readme-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const kept = new Set<string>();
    for (const [index, example] of examples.entries()) {
      it(`${example.where} runs and answers as documented`, async () => {
        const hint = `if it is no example, open it with "\`\`\`sh ${NOT_RUN}"`;
        assert.ok(example.claims.length > 0, `${example.where} calls no curl: ${hint}`);
        const calls = join(dir, `calls-${index}`);
        mkdirSync(calls);
        for (const name of assignedNames(example.script)) kept.add(name);
        const script = prelude([...kept]) + example.script.replaceAll(README_ORIGIN, srv().origin);
        const env = { ...process.env, CALLS: calls, SESSION: join(dir, 'session.sh') };
        await run('bash', ['-c', script], { cwd: dir, env, timeout: 120_000 }).catch((err) => {
          assert.fail(`${example.where} failed (${err.code}):\n${err.stderr}\n${err.stdout}`);
        });
        const answers = recordedAnswers(calls);
        assert.equal(answers.length, example.claims.length, `${example.where}: every curl call ran once`);
        answers.forEach((answer, i) => checkAnswer(answer, example.claims[i], `${example.where}, curl call ${i + 1}`));
      });
    }
  },
  { ...ADMIN, SITE_URL: README_ORIGIN },
);
