import type { Logger } from 'pino';
import { createLiveTurns, type LiveTurns } from './agents/runtime/live-turns.ts';
import type { ForjaConfig } from './config/config.ts';
import { FORJA_VERSION } from './config/version.ts';
import { createModelGateway, expireStaleReservations, type ModelGateway } from './gateway/index.ts';
import { createProviderFromConfig, type ModelProvider } from './gateway/providers/index.ts';
import { createInstructionFiles, type InstructionFiles } from './harness/index.ts';
import { createApp, type ForjaApp } from './http/app.ts';
import { createEventLog, createEventNotifications, openDatabase, readAgentInstructions, type Database, type EventLog, type EventNotifications } from './store/index.ts';

/** A running Forja without its HTTP listener: what `serve` exposes and what tests drive in-process. */
export interface Forja {
  database: Database;
  eventLog: EventLog;
  notifications: EventNotifications;
  liveTurns: LiveTurns;
  gateway: ModelGateway;
  instructionFiles: InstructionFiles;
  app: ForjaApp;
  close(): Promise<void>;
}

export interface ForjaOptions {
  /** An already open database (tests); otherwise the configured one is opened. */
  database?: Database;
  /** The model provider; otherwise built from FORJA_MODEL and friends in `env`. */
  provider?: ModelProvider;
  env?: NodeJS.ProcessEnv;
}

/** The composition root: opens the database and wires every part. The only place that knows them all. */
export async function createForja(config: ForjaConfig, logger: Logger, options: ForjaOptions = {}): Promise<Forja> {
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }));
  const eventLog = createEventLog(database);
  const notifications = await createEventNotifications(database);
  const liveTurns = createLiveTurns();
  const gateway = createModelGateway({ database, eventLog, logger, provider: options.provider ?? providerFromEnvironment(options.env ?? process.env, logger) });
  await expireStaleReservations(database);
  const instructionFiles = createInstructionFiles({
    patchSource: { readPatch: async (projectId, agent) => (await readAgentInstructions(database, projectId, agent))?.content ?? null },
    flags: config.flags,
    clock: Date.now,
  });
  const app = createApp({ database, eventLog, notifications, liveTurns, gateway, instructionFiles, logger, version: FORJA_VERSION });
  return {
    database,
    eventLog,
    notifications,
    liveTurns,
    gateway,
    instructionFiles,
    app,
    close: async () => {
      await notifications.close();
      await database.close();
    },
  };
}

function providerFromEnvironment(env: NodeJS.ProcessEnv, logger: Logger): ModelProvider | { notConfigured: string } {
  const result = createProviderFromConfig(env, { retries: { onRetry: (notice) => logger.warn({ provider: notice.provider, attempt: notice.attempt, delay_ms: notice.delayMs }, 'retrying the model provider') } });
  if (result.ok) return result.provider;
  logger.warn(result.error.message);
  return { notConfigured: result.error.message };
}
