import { resolve } from 'node:path';
import { readFeatureFlags, readOnOffWord, type FeatureFlags } from './feature-flags.ts';

/** Everything Forja reads from its environment, with defaults that work offline on a fresh machine. */
export interface ForjaConfig {
  host: string;
  port: number;
  /** Where embedded data lives (PGlite files, project workspaces). */
  dataDirectory: string;
  /** A PostgreSQL server; when absent, embedded PGlite under `dataDirectory`. */
  databaseUrl: string | undefined;
  logLevel: string;
  flags: FeatureFlags;
  /** FORJA_PUBLIC_URL: the addresses people reach Forja by, besides the one it listens on (ADR 0100). */
  publicUrls: URL[];
  /** Turns the line runs at once in this process (`FORJA_MAX_PARALLEL_TURNS`); 1 runs them one at a time. */
  maxParallelTurns: number;
  /** Connections this process keeps to a PostgreSQL server (`DATABASE_POOL_SIZE`, default 10); unused on PGlite. */
  databasePoolSize: number;
  /** `FORJA_PGLITE_TEMPLATE` (default on): a new embedded database starts from the template `npm ci` built (ADR 0425). */
  pgliteTemplate: boolean;
}

export interface ConfigError {
  variable: string;
  message: string;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4321;
export const DEFAULT_MAX_PARALLEL_TURNS = 4;
const DEFAULT_DATABASE_POOL_SIZE = 10;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads and checks the whole environment, in this one place, before anything starts: a wrong value is a named
 * error (the command exits 2 with it), never a warning and a silent default. The model, terminal and embedding
 * settings are checked by the same code that later reads them, so the check and the use cannot disagree.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  workingDirectory = process.cwd(),
): { ok: true; config: ForjaConfig } | { ok: false; error: ConfigError } {
  const port = env.PORT === undefined || env.PORT === '' ? DEFAULT_PORT : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return {
      ok: false,
      error: {
        variable: 'PORT',
        message: `PORT must be a whole number from 0 to 65535, not "${env.PORT}".`,
      },
    };
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    return {
      ok: false,
      error: {
        variable: 'LOG_LEVEL',
        message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`,
      },
    };
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return {
      ok: false,
      error: {
        variable: 'DATABASE_URL',
        message: 'DATABASE_URL must be a postgres:// or postgresql:// connection URL.',
      },
    };
  }
  const publicUrls = readPublicUrls(env.FORJA_PUBLIC_URL);
  if (!Array.isArray(publicUrls)) return { ok: false, error: publicUrls };
  const maxParallelTurns =
    env.FORJA_MAX_PARALLEL_TURNS === undefined || env.FORJA_MAX_PARALLEL_TURNS === ''
      ? DEFAULT_MAX_PARALLEL_TURNS
      : Number(env.FORJA_MAX_PARALLEL_TURNS);
  if (!Number.isInteger(maxParallelTurns) || maxParallelTurns < 1 || maxParallelTurns > 256) {
    return {
      ok: false,
      error: {
        variable: 'FORJA_MAX_PARALLEL_TURNS',
        message: `FORJA_MAX_PARALLEL_TURNS must be a whole number from 1 to 256, not "${env.FORJA_MAX_PARALLEL_TURNS}".`,
      },
    };
  }
  const databasePoolSize =
    env.DATABASE_POOL_SIZE === undefined || env.DATABASE_POOL_SIZE === ''
      ? DEFAULT_DATABASE_POOL_SIZE
      : Number(env.DATABASE_POOL_SIZE);
  if (!Number.isInteger(databasePoolSize) || databasePoolSize < 4 || databasePoolSize > 1000) {
    // Four at least: three connections are held by LISTEN (appends, live turn text, accounts), the rest serve
    // queries; with fewer no query would ever get a connection. The memory workers' pool is apart (ADR 0427).
    return {
      ok: false,
      error: {
        variable: 'DATABASE_POOL_SIZE',
        message: `DATABASE_POOL_SIZE must be a whole number from 4 to 1000, not "${env.DATABASE_POOL_SIZE}".`,
      },
    };
  }
  const pgliteTemplate = readSwitch(env.FORJA_PGLITE_TEMPLATE, true);
  if (pgliteTemplate === null) {
    return {
      ok: false,
      error: {
        variable: 'FORJA_PGLITE_TEMPLATE',
        message: `FORJA_PGLITE_TEMPLATE must be on or off, not "${env.FORJA_PGLITE_TEMPLATE}".`,
      },
    };
  }
  const flags = readFeatureFlags(env);
  if (!flags.ok) return { ok: false, error: { variable: flags.variable, message: flags.message } };
  return {
    ok: true,
    config: {
      flags: flags.flags,
      host: env.HOST || DEFAULT_HOST,
      port,
      dataDirectory: resolve(workingDirectory, env.FORJA_DATA_DIR || '.forja'),
      databaseUrl,
      logLevel,
      publicUrls,
      maxParallelTurns,
      databasePoolSize,
      pgliteTemplate,
    },
  };
}

/** An on/off variable: unset or empty is `fallback`; null for a word that is neither. */
function readSwitch(value: string | undefined, fallback: boolean): boolean | null {
  return (value ?? '').trim() === '' ? fallback : readOnOffWord(value);
}

/** FORJA_PUBLIC_URL: one or more comma-separated http(s) origins, such as `https://forja.example.com`. */
function readPublicUrls(value: string | undefined): URL[] | ConfigError {
  const urls: URL[] = [];
  for (const text of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const url = URL.canParse(text) ? new URL(text) : null;
    if (
      url === null ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.username !== '' ||
      url.password !== '' ||
      (url.pathname !== '/' && url.pathname !== '')
    ) {
      return {
        variable: 'FORJA_PUBLIC_URL',
        message: `FORJA_PUBLIC_URL must be comma-separated http:// or https:// addresses without a path, such as https://forja.example.com, not "${text}".`,
      };
    }
    urls.push(url);
  }
  return urls;
}
