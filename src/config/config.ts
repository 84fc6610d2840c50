import { resolve } from 'node:path';
import { TOKENIZER_NAMES, isTokenizerName } from '../harness/index.ts';
import { readFeatureFlags, type FeatureFlags } from './feature-flags.ts';

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
}

export interface ConfigError {
  variable: string;
  message: string;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4321;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the environment; a wrong value is a named error, never a silent default. */
export function loadConfig(env: NodeJS.ProcessEnv, workingDirectory = process.cwd()): { ok: true; config: ForjaConfig } | { ok: false; error: ConfigError } {
  const port = env.PORT === undefined || env.PORT === '' ? DEFAULT_PORT : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return { ok: false, error: { variable: 'PORT', message: `PORT must be a whole number from 0 to 65535, not "${env.PORT}".` } };
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    return { ok: false, error: { variable: 'LOG_LEVEL', message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".` } };
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { ok: false, error: { variable: 'DATABASE_URL', message: 'DATABASE_URL must be a postgres:// or postgresql:// connection URL.' } };
  }
  const tokenizer = env.FORJA_TOKENIZER?.trim();
  if (tokenizer && !isTokenizerName(tokenizer)) {
    return { ok: false, error: { variable: 'FORJA_TOKENIZER', message: `FORJA_TOKENIZER must be one of ${TOKENIZER_NAMES.join(', ')} (or unset for the model's default), not "${tokenizer}".` } };
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
    },
  };
}
