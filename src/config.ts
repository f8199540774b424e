import { DEFAULT_DATABASE_URL, backendOf } from './db/connect.js';

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
  /** Failed application-password logins for one login within the window before it is throttled; 0 = no limit. */
  loginFailuresPerLogin: number;
  /** Failed logins from one client address within the window before it is throttled; 0 = no limit. */
  loginFailuresPerAddress: number;
  /** The window failed logins are counted in, in seconds. */
  loginFailureWindowSeconds: number;
  /** Anonymous requests per client address and minute; 0 = no limit. */
  rateLimitPerMinute: number;
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

/** Reads the environment; `overrides` (CLI flags) win. Throws ConfigError with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigInput = {}): Config {
  const pick = (key: keyof Config, envName: string) => overrides[key] ?? env[envName];
  const port = integer('PORT', pick('port', 'PORT') ?? '8080', 0, 65535);
  const host = pick('host', 'HOST') ?? '127.0.0.1';
  let restPrefix = pick('restPrefix', 'REST_PREFIX') ?? '/wp-json';
  if (!restPrefix.startsWith('/')) restPrefix = `/${restPrefix}`;
  restPrefix = restPrefix.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(restPrefix)) {
    throw new ConfigError(`REST_PREFIX must be a path such as /wp-json (got "${restPrefix}")`);
  }
  const siteUrl = (pick('siteUrl', 'SITE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(siteUrl);
    if (!/^https?:$/.test(u.protocol)) throw new Error();
  } catch {
    throw new ConfigError(`SITE_URL must be an absolute http(s) URL (got "${siteUrl}")`);
  }
  const databaseUrl = pick('databaseUrl', 'DATABASE_URL') || DEFAULT_DATABASE_URL;
  try {
    backendOf(databaseUrl);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const corsRaw = pick('corsOrigins', 'CORS_ORIGINS') ?? '';
  const corsOrigins = corsRaw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin))
      throw new ConfigError(`CORS_ORIGINS entries must be origins such as https://app.example.org (got "${origin}")`);
  }
  const logLevel = pick('logLevel', 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`,
    );
  }
  const bodyLimit = integer(
    'BODY_LIMIT',
    pick('bodyLimit', 'BODY_LIMIT') ?? String(1024 * 1024),
    1024,
    1024 * 1024 * 1024,
  );
  const trustRaw = (pick('trustProxy', 'TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(trustRaw))
    throw new ConfigError(`TRUST_PROXY must be true or false (got "${trustRaw}")`);
  const trustProxy = trustRaw === 'true' || trustRaw === '1';
  const heapGrowthPercent = integer(
    'HEAP_GROWTH_PERCENT',
    pick('heapGrowthPercent', 'HEAP_GROWTH_PERCENT') ?? '30',
    0,
    1000,
  );
  const loginFailuresPerLogin = integer(
    'LOGIN_FAILURES_PER_LOGIN',
    pick('loginFailuresPerLogin', 'LOGIN_FAILURES_PER_LOGIN') ?? '10',
    0,
    1_000_000,
  );
  const loginFailuresPerAddress = integer(
    'LOGIN_FAILURES_PER_ADDRESS',
    pick('loginFailuresPerAddress', 'LOGIN_FAILURES_PER_ADDRESS') ?? '50',
    0,
    1_000_000,
  );
  const loginFailureWindowSeconds = integer(
    'LOGIN_FAILURE_WINDOW_SECONDS',
    pick('loginFailureWindowSeconds', 'LOGIN_FAILURE_WINDOW_SECONDS') ?? '900',
    1,
    7 * 24 * 3600,
  );
  const rateLimitPerMinute = integer(
    'RATE_LIMIT_PER_MINUTE',
    pick('rateLimitPerMinute', 'RATE_LIMIT_PER_MINUTE') ?? '0',
    0,
    1_000_000,
  );
  const adminUser = pick('adminUser', 'CALENDAR_ADMIN_USER') || undefined;
  const adminAppPassword = pick('adminAppPassword', 'CALENDAR_ADMIN_APP_PASSWORD') || undefined;
  if (Boolean(adminUser) !== Boolean(adminAppPassword)) {
    throw new ConfigError('CALENDAR_ADMIN_USER and CALENDAR_ADMIN_APP_PASSWORD must be set together');
  }
  if (adminAppPassword && adminAppPassword.replace(/[^A-Za-z0-9]/g, '').length < 8) {
    throw new ConfigError('CALENDAR_ADMIN_APP_PASSWORD must hold at least 8 letters or digits');
  }
  return {
    port,
    host,
    restPrefix,
    siteUrl,
    databaseUrl,
    corsOrigins,
    languages: SUPPORTED_LANGUAGES,
    logLevel,
    adminUser,
    adminAppPassword,
    bodyLimit,
    trustProxy,
    heapGrowthPercent,
    loginFailuresPerLogin,
    loginFailuresPerAddress,
    loginFailureWindowSeconds,
    rateLimitPerMinute,
  };
}
