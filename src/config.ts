import { DEFAULT_DATABASE_URL, backendOf } from './db/connect.js';
import { DEFAULT_CACHE_MIB } from './http/cache.js';

/** Process configuration: environment variables, each overridable by a CLI flag of `calendar serve`. */
export interface Config {
  port: number;
  host: string;
  restPrefix: string;
  siteUrl: string;
  databaseUrl: string;
  /** Allowed CORS origins; empty = any origin, without credentials (decisions.md X 24). */
  corsOrigins: string[];
  /** Language segments served besides the unprefixed English interface (common.md 1.5). */
  languages: string[];
  logLevel: string;
  adminUser?: string;
  adminAppPassword?: string;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** Trust X-Forwarded-* from a reverse proxy (client IP, https detection for require_https). */
  trustProxy: boolean;
  /**
   * How far the JavaScript heap may grow past its live size before a full collection, in percent; 0 leaves it to V8
   * (server.ts).
   */
  heapGrowthPercent: number;
  /** MiB of answers the response cache keeps (http/cache.ts); 0 caches nothing. */
  responseCacheMb: number;
  /** Failed application-password logins for one login within the window before it is throttled; 0 = no limit. */
  loginFailuresPerLogin: number;
  /** Failed logins from one client address within the window before it is throttled; 0 = no limit. */
  loginFailuresPerAddress: number;
  /** The window failed logins are counted in, in seconds. */
  loginFailureWindowSeconds: number;
  /** Anonymous requests per client address and minute; 0 = no limit. */
  rateLimitPerMinute: number;
  /** `GET /metrics`: not served, served to anyone, or only with `Authorization: Bearer <metricsToken>`. */
  metrics: 'off' | 'public' | 'token';
  metricsToken?: string;
  /** Webhooks: seconds before the first retry of a failed delivery; each further retry waits twice as long. */
  webhookRetrySeconds: number;
}

export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr', 'de'];

export type ConfigInput = Partial<Record<keyof Config, string | undefined>>;

export class ConfigError extends Error {}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number (got "${raw}")`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max} (got ${n})`);
  return n;
}

type IntegerKey =
  | 'port'
  | 'bodyLimit'
  | 'heapGrowthPercent'
  | 'responseCacheMb'
  | 'loginFailuresPerLogin'
  | 'loginFailuresPerAddress'
  | 'loginFailureWindowSeconds'
  | 'rateLimitPerMinute'
  | 'webhookRetrySeconds';

/** Whole-number settings: environment variable, default and accepted range. */
const INTEGER_SETTINGS: Record<IntegerKey, { env: string; fallback: number; min: number; max: number }> = {
  port: { env: 'PORT', fallback: 8080, min: 0, max: 65535 },
  bodyLimit: { env: 'BODY_LIMIT', fallback: 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024 },
  heapGrowthPercent: { env: 'HEAP_GROWTH_PERCENT', fallback: 30, min: 0, max: 1000 },
  responseCacheMb: { env: 'RESPONSE_CACHE_MB', fallback: DEFAULT_CACHE_MIB, min: 0, max: 1024 * 1024 },
  loginFailuresPerLogin: { env: 'LOGIN_FAILURES_PER_LOGIN', fallback: 10, min: 0, max: 1_000_000 },
  loginFailuresPerAddress: { env: 'LOGIN_FAILURES_PER_ADDRESS', fallback: 50, min: 0, max: 1_000_000 },
  loginFailureWindowSeconds: { env: 'LOGIN_FAILURE_WINDOW_SECONDS', fallback: 900, min: 1, max: 7 * 24 * 3600 },
  rateLimitPerMinute: { env: 'RATE_LIMIT_PER_MINUTE', fallback: 0, min: 0, max: 1_000_000 },
  webhookRetrySeconds: { env: 'WEBHOOK_RETRY_SECONDS', fallback: 30, min: 1, max: 3600 },
};

type ReadSetting = (key: keyof Config, envName: string) => string | undefined;

function integers(pick: ReadSetting): Record<IntegerKey, number> {
  const out = {} as Record<IntegerKey, number>;
  for (const [key, { env, fallback, min, max }] of Object.entries(INTEGER_SETTINGS)) {
    out[key as IntegerKey] = integer(env, pick(key as IntegerKey, env) ?? String(fallback), min, max);
  }
  return out;
}

function restPrefixOf(pick: ReadSetting): string {
  let restPrefix = pick('restPrefix', 'REST_PREFIX') ?? '/wp-json';
  if (!restPrefix.startsWith('/')) restPrefix = `/${restPrefix}`;
  restPrefix = restPrefix.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(restPrefix)) {
    throw new ConfigError(`REST_PREFIX must be a path such as /wp-json (got "${restPrefix}")`);
  }
  return restPrefix;
}

function siteUrlOf(pick: ReadSetting, port: number): string {
  const siteUrl = (pick('siteUrl', 'SITE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(siteUrl);
    if (!/^https?:$/.test(u.protocol)) throw new Error();
  } catch {
    throw new ConfigError(`SITE_URL must be an absolute http(s) URL (got "${siteUrl}")`);
  }
  return siteUrl;
}

function databaseUrlOf(pick: ReadSetting): string {
  const databaseUrl = pick('databaseUrl', 'DATABASE_URL') || DEFAULT_DATABASE_URL;
  try {
    backendOf(databaseUrl);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return databaseUrl;
}

function corsOriginsOf(pick: ReadSetting): string[] {
  const corsOrigins = (pick('corsOrigins', 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin))
      throw new ConfigError(`CORS_ORIGINS entries must be origins such as https://app.example.org (got "${origin}")`);
  }
  return corsOrigins;
}

function logLevelOf(pick: ReadSetting): string {
  const logLevel = pick('logLevel', 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`,
    );
  }
  return logLevel;
}

function trustProxyOf(pick: ReadSetting): boolean {
  const trustRaw = (pick('trustProxy', 'TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(trustRaw))
    throw new ConfigError(`TRUST_PROXY must be true or false (got "${trustRaw}")`);
  return trustRaw === 'true' || trustRaw === '1';
}

function adminOf(pick: ReadSetting): Pick<Config, 'adminUser' | 'adminAppPassword'> {
  const adminUser = pick('adminUser', 'CALENDAR_ADMIN_USER') || undefined;
  const adminAppPassword = pick('adminAppPassword', 'CALENDAR_ADMIN_APP_PASSWORD') || undefined;
  if (Boolean(adminUser) !== Boolean(adminAppPassword)) {
    throw new ConfigError('CALENDAR_ADMIN_USER and CALENDAR_ADMIN_APP_PASSWORD must be set together');
  }
  if (adminAppPassword && adminAppPassword.replace(/[^A-Za-z0-9]/g, '').length < 8) {
    throw new ConfigError('CALENDAR_ADMIN_APP_PASSWORD must hold at least 8 letters or digits');
  }
  return { adminUser, adminAppPassword };
}

/**
 * `METRICS` and `METRICS_TOKEN`: a token alone turns the metrics on behind it; `public` without a
 * token, since a token that nothing checks would give a false sense of protection.
 */
function metricsOf(pick: ReadSetting): Pick<Config, 'metrics' | 'metricsToken'> {
  const metricsToken = pick('metricsToken', 'METRICS_TOKEN') || undefined;
  const metrics = pick('metrics', 'METRICS') || (metricsToken ? 'token' : 'off');
  if (metrics !== 'off' && metrics !== 'public' && metrics !== 'token')
    throw new ConfigError(`METRICS must be off, public or token (got "${metrics}")`);
  if (metrics === 'token' && !metricsToken) throw new ConfigError('METRICS=token needs METRICS_TOKEN');
  if (metrics === 'public' && metricsToken)
    throw new ConfigError('METRICS=public serves /metrics without a token: unset METRICS_TOKEN, or set METRICS=token');
  if (metricsToken && !/^[\x21-\x7e]{16,}$/.test(metricsToken))
    throw new ConfigError('METRICS_TOKEN must be at least 16 visible ASCII characters, without spaces');
  return { metrics, metricsToken };
}

/** Reads the environment; `overrides` (CLI flags) win. Throws ConfigError with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigInput = {}): Config {
  const pick: ReadSetting = (key, envName) => overrides[key] ?? env[envName];
  const numbers = integers(pick);
  return {
    ...numbers,
    host: pick('host', 'HOST') ?? '127.0.0.1',
    restPrefix: restPrefixOf(pick),
    siteUrl: siteUrlOf(pick, numbers.port),
    databaseUrl: databaseUrlOf(pick),
    corsOrigins: corsOriginsOf(pick),
    languages: SUPPORTED_LANGUAGES,
    logLevel: logLevelOf(pick),
    ...adminOf(pick),
    trustProxy: trustProxyOf(pick),
    ...metricsOf(pick),
  };
}
