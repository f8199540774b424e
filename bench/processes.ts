import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/..). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function buildService(): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed; the benchmark measures the built service (dist/)');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in MB (Linux /proc), or null where that is not available. */
function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS while a measurement runs; `stop()` gives the peak seen. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number | null } {
  let peak: number | null = rssMb(pid);
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      const last = rssMb(pid);
      return last !== null && (peak === null || last > peak) ? last : peak;
    },
  };
}

export interface RunningServer {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

function keepTail(child: ChildProcess): () => string {
  let tail = '';
  const collect = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return () => tail;
}

/** Every server this process started and has not stopped yet, so that an interrupted run leaves none behind. */
const running = new Set<ChildProcess>();

export function killRunningServers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function stopper(child: ChildProcess): () => Promise<void> {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

export interface ServiceOptions {
  databaseUrl: string;
  adminUser: string;
  adminPassword: string;
  /** Run src/cli.ts through tsx instead of the built dist/cli.js (the smoke test does, to skip the build). */
  fromSource: boolean;
}

/** `calendar serve` as its own process, as in production; resolves once /healthz answers. */
export async function startService(options: ServiceOptions): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['SITE_URL', 'REST_PREFIX', 'HOST', 'CORS_ORIGINS', 'NODE_OPTIONS']) delete env[name];
  Object.assign(env, {
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CALENDAR_ADMIN_USER: options.adminUser,
    CALENDAR_ADMIN_APP_PASSWORD: options.adminPassword,
  });
  const args = options.fromSource ? ['--import', 'tsx', 'src/cli.ts', 'serve'] : ['dist/cli.js', 'serve'];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = keepTail(child);
  const stop = stopper(child);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with status ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${origin}/healthz`);
      if (res.ok) return { origin, pid: child.pid!, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the service did not answer /healthz within 120 s:\n${output()}`);
}

/** CPU time a process has used so far, in clock ticks (Linux /proc), or null. */
function cpuTicks(pid: number): number | null {
  try {
    // Fields after the command name: state is field 3, utime and stime are fields 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Waits until a server has worked off what a finished run left queued (requests the load
 * generator gave up on keep running), so that the next run does not pay for the previous one:
 * idle means under 5% of a CPU over a quarter of a second, and no statement running on the
 * database server (`databaseBusy`). Gives up after five minutes.
 */
export async function drained(pid: number, databaseBusy: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 300_000;
  let before = cpuTicks(pid);
  while (before !== null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const after = cpuTicks(pid);
    if (after === null || (after - before <= 1 && !(await databaseBusy()))) return;
    before = cpuTicks(pid);
  }
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent (`fetch` would decode a compressed body). */
  body: Buffer;
}

/** One request without a body, its answer's bytes as sent. */
export function rawRequest(method: string, url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The bare node:http baseline (bench/baseline-server.mjs) answering `bodyFile`'s bytes, with `encoding` as their
 * `Content-Encoding`.
 */
export async function startBaseline(bodyFile: string, encoding: string | null): Promise<RunningServer> {
  const child = spawn(process.execPath, ['bench/baseline-server.mjs', bodyFile, ...(encoding ? [encoding] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepTail(child);
  const stop = stopper(child);
  const port = await new Promise<number>((resolve, reject) => {
    let line = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      line += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the baseline server exited with status ${code}:\n${output()}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stop };
}
