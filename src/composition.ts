import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAgentCatalog } from './agents/agent-catalog.ts';
import type { LoopAgent } from './agents/runtime/tool-loop.ts';
import { createConversationService, type ConversationService } from './conversation/conversation-service.ts';
import { createSessionQueue } from './conversation/session-queue.ts';
import { createSessionViews } from './conversation/session-views.ts';
import { CORE_ARTIFACT_DEFINITIONS, createArtifactRegistry } from './domain/artifacts/index.ts';
import { createLiveTurns, type LiveTurns } from './agents/runtime/live-turns.ts';
import type { ForjaConfig } from './config/config.ts';
import { FORJA_VERSION } from './config/version.ts';
import { createModelGateway, expireStaleReservations, type ModelGateway } from './gateway/index.ts';
import { createProviderFromConfig, type ModelProvider } from './gateway/providers/index.ts';
import { createHooks, createInstructionFiles, type Hooks, type InstructionFiles } from './harness/index.ts';
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
  conversation: ConversationService;
  app: ForjaApp;
  close(): Promise<void>;
}

export interface ForjaOptions {
  /** An already open database (tests), which the caller keeps and closes; otherwise the configured one is opened and closed with Forja. */
  database?: Database;
  /** The model provider; otherwise built from FORJA_MODEL and friends in `env`. */
  provider?: ModelProvider;
  env?: NodeJS.ProcessEnv;
  /** Hooks around tool calls (default: none). */
  hooks?: Hooks;
  /** Agents added to the catalog (tests run agents with tools of their own this way). */
  extraAgents?: LoopAgent[];
  /** How long an unused session runtime is kept before it is released. */
  idleReleaseMs?: number;
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
  const prompts = { instructionFiles, workspaceDirectory: (projectId: string) => join(config.dataDirectory, 'projects', projectId, 'workspace') };
  const artifacts = createArtifactRegistry([...CORE_ARTIFACT_DEFINITIONS]);
  const catalog = createAgentCatalog({ prompts, artifacts, extraAgents: options.extraAgents ?? [] });
  const views = createSessionViews(eventLog, { ...(options.idleReleaseMs === undefined ? {} : { idleMs: options.idleReleaseMs }) });
  const releaseIdleViews = setInterval(() => views.releaseIdle(), 60_000);
  releaseIdleViews.unref();
  const conversation = createConversationService(
    { database, eventLog, gateway, liveTurns, hooks: options.hooks ?? createHooks(), catalog, artifacts, logger, queue: createSessionQueue(), views, newId: randomUUID },
    prompts,
  );
  const app = createApp({ database, eventLog, notifications, liveTurns, gateway, instructionFiles, conversation, logger, version: FORJA_VERSION });
  return {
    database,
    eventLog,
    notifications,
    liveTurns,
    gateway,
    instructionFiles,
    conversation,
    app,
    close: async () => {
      clearInterval(releaseIdleViews);
      await conversation.drain();
      await notifications.close();
      if (options.database === undefined) await database.close();
    },
  };
}

function providerFromEnvironment(env: NodeJS.ProcessEnv, logger: Logger): ModelProvider | { notConfigured: string } {
  const result = createProviderFromConfig(env, { retries: { onRetry: (notice) => logger.warn({ provider: notice.provider, attempt: notice.attempt, delay_ms: notice.delayMs }, 'retrying the model provider') } });
  if (result.ok) return result.provider;
  logger.warn(result.error.message);
  return { notConfigured: result.error.message };
}
