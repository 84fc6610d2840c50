import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  createAgentCatalog,
  rosterProblems,
  type AgentDefinition,
  type RosterDependencies,
  type TriageRequest,
  type SessionEndCompanion,
  AGENT_ROSTER,
  identityFrom,
  type LoopAgent,
  createContextManager,
  INLINE_SUMMARY_INSTRUCTION,
  createLiveTurns,
  createPromptPins,
  type LiveTurns,
  shareLiveTurns,
  readOutputLimits,
  readOutputTokenCaps,
  foldVersion,
  loadViewSnapshot,
  saveViewSnapshot,
} from './agents/index.ts';
import {
  createConversationService,
  type ConversationService,
  createTurnSlots,
  createTurnStops,
  createSessionQueue,
  createSessionViews,
} from './conversation/index.ts';
import type { ForjaConfig } from './config/config.ts';
import { FORJA_VERSION } from './config/version.ts';
import {
  countEndedCalls,
  createModelGateway,
  createModelHealth,
  readPrices,
  startProcessIdentity,
  type ModelGateway,
  type ModelHealth,
  type WatchedModel,
} from './gateway/index.ts';
import {
  createEndpointProbe,
  createModelRouting,
  singleModelRouting,
  type ModelProvider,
  type ModelRouting,
} from './gateway/providers/index.ts';
import {
  contextWindowFor,
  createHooks,
  createInstructionFiles,
  readContextWindowSettings,
  tokenizerFromName,
  tokenizerNameFromEnvironment,
  type Hooks,
  type InstructionFiles,
} from './harness/index.ts';
import { createSignInLimiter, type SignInLimiter } from './accounts/sign-in-limiter.ts';
import { watchAccountsInUse } from './http/access/access-middleware.ts';
import { createApp, type ForjaApp } from './http/app.ts';
import { readStreamBufferSetting } from './http/stream-buffer-setting.ts';
import {
  composeTriageWithRag,
  createGraphInstructionTemplateSource,
  createMemory,
  graphProjectionRule,
  ragIndexRule,
  resolveTemplate,
  TEMPLATE_NAMES,
  type Embedder,
  type Memory,
} from './memory/index.ts';
import {
  createEventLog,
  recordingTurnEnds,
  createEventNotifications,
  createInProcessLaneLeases,
  deliveringAppends,
  createPostgresLaneLeases,
  fenceAppends,
  readLaneLeaseSettings,
  type LaneLeases,
  DEFAULT_OUTBOX_RETENTION_MS,
  openDatabase,
  pruneOutbox,
  claimDataDirectory,
  readAgentInstructions,
  readQuarantinedInstructions,
  signInFailuresIn,
  type Database,
  type EventLog,
  type EventNotifications,
  type ProcessModel,
} from './store/index.ts';
import { readTracingSettings, startTurnTracer } from './telemetry/index.ts';
import {
  createArchitectureDocs,
  createProjectWorkspaces,
  createMcpServers,
  createTerminalRunner,
  readCommitDiff,
  pushCredentials,
  readGitTimeout,
  setHostGitTimeout,
  createRepositorySurveys,
  terminalSettingsOrDefaults,
  worktreeFiles,
} from './workspace/index.ts';

/** A running Forja without its HTTP listener: what `serve` exposes and what tests drive in-process. */
export interface Forja {
  database: Database;
  eventLog: EventLog;
  notifications: EventNotifications;
  liveTurns: LiveTurns;
  gateway: ModelGateway;
  /** Whether the model endpoint answers, looked at again periodically (a local server may start later). */
  modelHealth: ModelHealth;
  instructionFiles: InstructionFiles;
  conversation: ConversationService;
  memory: Memory;
  app: ForjaApp;
  /** Whether people must sign in: from the moment the first account exists (ADR 0100). */
  accountsInUse(): Promise<boolean>;
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
  /** The roster (default `AGENT_ROSTER`; a test adds an agent to it as a new agent would be added). */
  roster?: readonly AgentDefinition[];
  /** How long an unused session runtime is kept before it is released. */
  idleReleaseMs?: number;
  /** The relational memory: `workers: false` leaves the graph projector and RAG indexer stopped (tests drive their cycles). */
  memory?: {
    workers?: boolean;
    intervalMs?: number;
    vectorSearch?: 'auto' | 'exact';
    embedder?: Embedder;
  };
  /**
   * Check, before anything runs, that the database records this data directory as its projects' (ADR 0316),
   * recording it when none is: `forja serve` does; tests that share one database among data directories do not.
   */
  claimDataDirectory?: boolean;
  /** Sign-in attempt limits (tests use a clock of their own). */
  signInLimiter?: SignInLimiter;
  /** How far (bytes) an event-stream client may fall behind before it is disconnected (tests set it small). */
  streamBufferBytes?: number;
  /** `lean: false` compacts by summary alone, as before ADR 0326 (the benchmark's baseline). */
  contextManager?: { lean?: boolean };
  /**
   * `fresh` sends each call's system prompt as assembled, as before ADR 0430 (the benchmark's baseline);
   * by default a lane's prompt is pinned and what changes is sent after the history.
   */
  promptLayout?: 'pinned' | 'fresh';
}

/** The settings read from the environment before anything opens: each refused with the variable named. */
function readForjaSettings(env: NodeJS.ProcessEnv, options: ForjaOptions) {
  // Every request fits the model's window (ADR 0080) (FORJA_MODEL_CONTEXT_TOKENS, per agent too).
  const windows = readContextWindowSettings(env);
  if (!windows.ok) throw new Error(windows.message);
  const roster = options.roster ?? AGENT_ROSTER;
  const rosterProblemsFound = rosterProblems(roster);
  if (rosterProblemsFound.length > 0)
    throw new Error(`the agent roster is incomplete: ${rosterProblemsFound.join('; ')}`);
  const streamBuffer = readStreamBufferSetting(env);
  if (!streamBuffer.ok) throw new Error(streamBuffer.message);
  // What each model costs, for money budgets and the cost in `GET /usage` (FORJA_PRICES over the built-in list).
  const prices = readPrices(env);
  if (!prices.ok) throw new Error(prices.message);
  const outputLimits = readOutputLimits(env);
  if (!outputLimits.ok) throw new Error(outputLimits.message);
  // Each agent kind's output cap (FORJA_MODEL_OUTPUT_TOKENS_<AGENT>), over the agents' own defaults.
  const outputTokens = readOutputTokenCaps(env);
  if (!outputTokens.ok) throw new Error(outputTokens.message);
  // Turns as OpenTelemetry traces when an OTLP endpoint is set; otherwise no SDK is loaded (ADR 0370).
  const tracing = readTracingSettings(env);
  if (!tracing.ok) throw new Error(tracing.message);
  return { windows, roster, streamBuffer, prices, outputLimits, outputTokens, tracing };
}

type Settings = ReturnType<typeof readForjaSettings>;

/** The database and what every append goes through: the process's identity, lane leases, notifications, live text. */
async function openStorage(
  config: ForjaConfig,
  logger: Logger,
  options: ForjaOptions,
  env: NodeJS.ProcessEnv,
) {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDirectory: config.dataDirectory,
      poolSize: config.databasePoolSize,
      pgliteTemplate: config.pgliteTemplate,
    }));
  // A process serving another data directory than the projects' would split their repositories (ADR 0316).
  if (options.claimDataDirectory)
    await claimDataDirectory(database, config.dataDirectory).catch(async (error: unknown) => {
      if (options.database === undefined) await database.close();
      throw error;
    });
  const routing = options.provider
    ? singleModelRouting(options.provider)
    : modelsFromEnvironment(env, logger, await scriptedPositions(database, env, logger));
  // Reservations belong to a living process: those of a dead one are settled as interrupted at once (ADR 0130).
  const processIdentity = await startProcessIdentity(database, {
    models: processModels(routing),
    onError: (error) =>
      logger.warn({ err: error }, 'the process heartbeat failed; it is tried again'),
  });
  // One process at a time per lane; on a server, a lane's appends are fenced by its lease (ADR 0170).
  const leases = createLaneLeases(database, processIdentity.id, env, logger);
  const notifications = await createEventNotifications(database, {
    lost: (error, retryInMs) =>
      logger.warn(
        { err: error, retry_in_ms: retryInMs },
        'lost the database connection that listens for appends; reconnecting',
      ),
    restored: () => logger.info('listening for appends again; open streams catch up from the log'),
  });
  // This process's own appends wake the memory workers as they commit, without waiting for their NOTIFY (ADR 0427).
  const appendsCommitted = new Set<() => void>();
  const eventLog = createSessionEventLog(database, leases, notifications, {
    committed: () => {
      for (const listener of appendsCommitted) listener();
    },
  });
  // On a server, what a turn streams reaches browsers connected to any process (ADR 0170).
  const liveTurns: LiveTurns & { close?: () => Promise<void> } =
    database.kind === 'postgres'
      ? await shareLiveTurns(createLiveTurns(), database, processIdentity.id, {
          onError: (error) =>
            logger.warn({ err: error }, 'sharing live turn text with other processes failed'),
        })
      : createLiveTurns();
  return {
    ...{ database, routing, processIdentity, leases, notifications, eventLog, liveTurns },
    appendsCommitted,
  };
}

type Storage = Awaited<ReturnType<typeof openStorage>>;

/**
 * The event log every append of a session goes through, as `forja serve` builds it (the `event-append` benchmark
 * measures this one, ADR 0429): the outbox rows of the graph and the RAG index in the append's transaction
 * (record ADR 0101), the turn's end recorded with it (ADR 0422), fenced by the lane's lease on a server (ADR
 * 0170), and this process's own appends handed to its streams in memory, with no read of the log (ADR 0210);
 * `committed` hears each of them commit (ADR 0427).
 */
export function createSessionEventLog(
  database: Database,
  leases: LaneLeases,
  notifications: EventNotifications,
  options: { notifyWhenAlone?: boolean; committed?: () => void } = {},
): EventLog {
  const { committed, ...logOptions } = options;
  const outboxed = createEventLog(database, [graphProjectionRule, ragIndexRule], logOptions);
  return deliveringAppends(
    fenceAppends(recordingTurnEnds(outboxed), leases),
    notifications,
    committed,
  );
}

/** The model gateway and each model endpoint's health, which size each other's windows. */
function wireModels(
  logger: Logger,
  { windows, prices }: Settings,
  { database, eventLog, routing, processIdentity }: Storage,
) {
  // Each agent's window: its settings, then what its model's server said (asked at start), then the family.
  const windowFor = (agent: string) => {
    const status = gateway.status(agent);
    return contextWindowFor(
      windows.settings,
      status.configured ? status.model : '',
      agent,
      modelHealth.serverWindow(agent),
    );
  };
  const gateway = createModelGateway({
    database,
    eventLog,
    logger,
    prices: prices.table,
    processId: processIdentity.id,
    provider: routing,
    // A request past the point where its server cuts prompts silently (Ollama's num_ctx) is never sent.
    silentCutAt: (agent) => {
      const server = modelHealth.serverWindow(agent);
      return server?.truncatesAt == null ? null : { tokens: server.truncatesAt, from: server.from };
    },
  });
  const modelHealth = createModelHealth({
    models: watchedModels(routing),
    windowOf: windowFor,
    logger,
  });
  return { gateway, modelHealth, windowFor };
}

type Models = ReturnType<typeof wireModels>;

/** The dev agents' terminal, its sandbox probed now, and host git's time limit. */
function startTerminal(logger: Logger, env: NodeJS.ProcessEnv) {
  const terminal = createTerminalRunner(
    terminalSettingsOrDefaults(env, (message) => logger.error(message)),
  );
  // Probed now, not at the first command: in `auto` mode every command waits until the sandbox is known to work.
  void terminal.probe().then((probe) => {
    if (!probe.available)
      logger.warn({ reason: probe.reason }, 'the terminal sandbox is not available');
  });
  // Every host git of this process has a time limit (ADR 0310); a wrong value keeps the default, reported.
  const gitTimeout = readGitTimeout(env);
  if (gitTimeout.ok) setHostGitTimeout(gitTimeout.timeoutMs);
  else logger.error(`${gitTimeout.message} Host git keeps its default time limit.`);
  return terminal;
}

/**
 * One view per session. A view this process heard nothing newer of is decided on with no read, checked by its
 * append (ADR 0262); a restart reads each session's snapshot and folds only the events after it (ADR 0426).
 */
function sessionViews(
  { database, eventLog, notifications }: Pick<Storage, 'database' | 'eventLog' | 'notifications'>,
  options: ForjaOptions,
  logger: Logger,
) {
  const version = foldVersion();
  return createSessionViews(eventLog, {
    heads: notifications,
    ...(options.idleReleaseMs === undefined ? {} : { idleMs: options.idleReleaseMs }),
    snapshots: {
      load: (sessionId) => loadViewSnapshot(database, sessionId, version),
      save: (view) => saveViewSnapshot(database, view, version),
      onError: (error) =>
        logger.warn(
          { err: error },
          'a snapshot of a session view failed; the log is folded instead',
        ),
    },
  });
}

/** Memory, the agents' prompts and tools, the production line and the agent catalog. */
async function wireAgents(
  config: ForjaConfig,
  logger: Logger,
  options: ForjaOptions,
  env: NodeJS.ProcessEnv,
  { windows, roster }: Settings,
  { database, eventLog, notifications }: Storage,
  { gateway, modelHealth, windowFor }: Models,
) {
  const memory = await createMemory({
    database,
    logger,
    env: env,
    ...options.memory,
  });
  const instructionFiles = createInstructionFiles({
    patchSource: {
      readPatch: async (projectId, agent) =>
        (await readAgentInstructions(database, projectId, agent))?.content ?? null,
    },
    graphTemplateSource: createGraphInstructionTemplateSource(memory.readTemplate),
    flags: config.flags,
    clock: Date.now,
  });
  // FORJA_TOKENIZER, else the BPE of the model's family where one ships, else the conservative estimate.
  const tokenizer = await tokenizerFromName(tokenizerNameFromEnvironment(env));
  // The instruction layer's budget follows each agent's window (decision 0090), as the ContextManager's history does.
  const prompts = {
    identity: identityFrom(roster),
    instructionFiles,
    workspaceDirectory: (projectId: string) =>
      join(config.dataDirectory, 'projects', projectId, 'workspace'),
    quarantinedInstructions: (projectId: string) =>
      readQuarantinedInstructions(database, projectId),
    tokenizer,
    contextWindowTokens: (agent: string) => windowFor(agent).tokens,
  };
  // The production line after Criativo (ADR 0010): PO, Arquiteto, and one dev agent per module on demand.
  const terminal = startTerminal(logger, env);
  const mcpServers = createMcpServers(terminal);
  // The survey of a project's main, made again only when main moved (ADR 0416).
  const surveys = createRepositorySurveys();
  const workspaces = createProjectWorkspaces({
    dataDirectory: config.dataDirectory,
    commitMaxBytes: terminal.settings.limits.commitBytes,
  });
  const line = {
    prompts,
    database,
    eventLog,
    workspaces,
    docs: createArchitectureDocs(workspaces),
    files: worktreeFiles,
    terminal,
    ragSearch: memory.ragSearch,
    // The projects' MCP servers, each started in the dev's sandbox on first use (ADR 0410).
    mcp: mcpServers,
    newId: randomUUID,
    survey: (projectId: string) => surveys(workspaces.workspaceDirectory(projectId)),
  };
  const views = sessionViews({ database, eventLog, notifications }, options, logger);
  const releaseIdleViews = setInterval(() => views.releaseIdle(), 60_000);
  releaseIdleViews.unref();
  const summaryInstruction = () =>
    resolveTemplate({
      enabled: config.flags.graph_templates_enabled,
      name: TEMPLATE_NAMES.contextManagerSummarize,
      inline: INLINE_SUMMARY_INSTRUCTION,
      read: memory.readTemplate,
    });
  const contextManager = createContextManager({
    gateway,
    windows: windows.settings,
    serverWindow: (agent) => modelHealth.serverWindow(agent),
    templates: { instruction: summaryInstruction },
    ...(options.contextManager?.lean === false ? { lean: false } : {}),
  });
  const companions = {
    database,
    eventLog,
    gateway,
    prompts,
    triage: (projectId: string, input: TriageRequest) =>
      composeTriageWithRag({ ...input, search: memory.ragSearchFor(projectId) }),
    kickoff: (name: string, inline: string) =>
      resolveTemplate({
        enabled: config.flags.graph_templates_enabled,
        name,
        inline,
        read: memory.readTemplate,
      }),
    newId: randomUUID,
  };
  const rosterDependencies: RosterDependencies = {
    prompts,
    line,
    companions,
    flags: config.flags,
  };
  const catalog = createAgentCatalog({
    roster,
    dependencies: rosterDependencies,
    extraAgents: options.extraAgents ?? [],
  });
  const afterSessionEnd: SessionEndCompanion[] = roster.flatMap((definition) =>
    definition.runs.kind === 'after-session-end'
      ? [definition.runs.create(rosterDependencies)]
      : [],
  );
  return {
    ...{ memory, instructionFiles, prompts, terminal, mcpServers, line, views, releaseIdleViews },
    ...{ contextManager, catalog, afterSessionEnd },
  };
}

type Agents = Awaited<ReturnType<typeof wireAgents>>;

/** The conversation use cases over everything wired before them, and the turns' tracer. */
async function wireConversation(
  config: ForjaConfig,
  logger: Logger,
  options: ForjaOptions,
  { tracing, outputLimits, outputTokens }: Settings,
  { database, eventLog, liveTurns, leases, processIdentity, notifications }: Storage,
  { gateway }: Models,
  { catalog, views, contextManager, line, terminal, prompts, afterSessionEnd }: Agents,
) {
  const turnTracer = await startTurnTracer(tracing.settings, FORJA_VERSION, (message, error) =>
    logger.warn(error ? { err: error } : {}, message),
  );
  const conversation = createConversationService(
    {
      database,
      eventLog,
      gateway,
      liveTurns,
      hooks: options.hooks ?? createHooks(),
      catalog,
      logger,
      queue: createSessionQueue(),
      leases,
      // On a server, a lane taken over settles what its dead owner reserved at once (ADR 0130).
      ...(leases.shared
        ? {
            reservations: {
              settleLane: (sessionId: string, lane: string) =>
                processIdentity.settleLane(sessionId, lane),
            },
          }
        : {}),
      slots: createTurnSlots(config.maxParallelTurns),
      // On a server, Stop pressed in another process reaches the turn through the notifications (ADR 0220).
      stops: createTurnStops(
        leases.shared
          ? (sessionId, afterSeq, listener) =>
              notifications.subscribe(sessionId, afterSeq, listener)
          : undefined,
      ),
      views,
      contextManager,
      outputLimits: outputLimits.limits,
      outputTokens: outputTokens.caps,
      newId: randomUUID,
      tracer: turnTracer.tracer,
      ...(options.promptLayout === 'fresh' ? {} : { promptPins: createPromptPins() }),
      line: { workspaces: line.workspaces, terminal },
    },
    prompts,
    afterSessionEnd,
  );
  return { turnTracer, conversation };
}

/** The HTTP app and who may use it. */
async function wireApp(
  config: ForjaConfig,
  logger: Logger,
  options: ForjaOptions,
  { prices, streamBuffer }: Settings,
  { database, eventLog, notifications, liveTurns }: Storage,
  { gateway, modelHealth }: Models,
  { terminal, instructionFiles, memory, line }: Agents,
  conversation: ConversationService,
) {
  const accounts = await watchAccountsInUse(database);
  const access = {
    network: { listenHost: config.host, port: config.port, publicUrls: config.publicUrls },
    accountsInUse: accounts.inUse,
    signInLimiter: options.signInLimiter ?? createSignInLimiter(signInFailuresIn(database)),
  };
  const app = createApp({
    database,
    eventLog,
    notifications,
    liveTurns,
    gateway,
    modelHealth,
    terminal,
    instructionFiles,
    conversation,
    memory,
    logger,
    version: FORJA_VERSION,
    access,
    prices: prices.table,
    streamBufferBytes: options.streamBufferBytes ?? streamBuffer.bytes,
    dataDirectory: config.dataDirectory,
    pushCredentials: (name) => pushCredentials(options.env ?? process.env, name),
    readCommitDiff: (projectId, sha) =>
      readCommitDiff(line.workspaces.workspaceDirectory(projectId), sha),
    workspaceDirectory: (projectId) => line.workspaces.workspaceDirectory(projectId),
  });
  return { accounts, access, app };
}

/** Starts the background work (memory workers, model health, outbox pruning, lane takeover); gives back its timers. */
async function startBackgroundWork(
  logger: Logger,
  options: ForjaOptions,
  env: NodeJS.ProcessEnv,
  { database, leases, appendsCommitted }: Storage,
  { modelHealth }: Models,
  { memory }: Agents,
  conversation: ConversationService,
) {
  if (options.memory?.workers !== false) {
    memory.start();
    appendsCommitted.add(memory.wake);
  }
  modelHealth.start();
  // The windows are asked of the servers at start: the first turns are sized to what they say.
  await modelHealth.ready();
  // The outbox is a delivery queue: processed rows older than the retention are deleted (hourly, unref'd).
  const pruneOutboxRows = setInterval(() => {
    pruneOutbox(database, DEFAULT_OUTBOX_RETENTION_MS).then(
      (pruned) => pruned > 0 && logger.info({ pruned }, 'pruned processed outbox rows'),
      (error: unknown) =>
        logger.warn({ err: error }, 'pruning the outbox failed; it is tried again in an hour'),
    );
  }, 60 * 60_000);
  pruneOutboxRows.unref();
  // Lanes of a process that stopped renewing its leases are taken over here (shared leases only).
  const takeOver = leases.shared
    ? setInterval(() => {
        conversation
          .takeOverOrphanedLanes()
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'looking for lanes to take over failed; it is tried again'),
          );
      }, takeoverIntervalMs(env))
    : null;
  takeOver?.unref();
  return { pruneOutboxRows, takeOver };
}

/** The composition root: opens the database and wires every part. The only place that knows them all. */
export async function createForja(
  config: ForjaConfig,
  logger: Logger,
  options: ForjaOptions = {},
): Promise<Forja> {
  const env = options.env ?? process.env;
  const settings = readForjaSettings(env, options);
  const storage = await openStorage(config, logger, options, env);
  const models = wireModels(logger, settings, storage);
  const agents = await wireAgents(config, logger, options, env, settings, storage, models);
  const wired = [settings, storage, models, agents] as const;
  const { turnTracer, conversation } = await wireConversation(config, logger, options, ...wired);
  const { accounts, access, app } = await wireApp(config, logger, options, ...wired, conversation);
  const { pruneOutboxRows, takeOver } = await startBackgroundWork(
    logger,
    options,
    env,
    storage,
    models,
    agents,
    conversation,
  );
  const { database, eventLog, notifications, liveTurns, leases, processIdentity } = storage;
  const { gateway, modelHealth } = models;
  const { instructionFiles, memory, mcpServers, releaseIdleViews, views } = agents;
  return {
    database,
    eventLog,
    notifications,
    liveTurns,
    gateway,
    modelHealth,
    instructionFiles,
    conversation,
    memory,
    app,
    accountsInUse: access.accountsInUse,
    // Closing twice (a signal during shutdown, a test's cleanup) must not release resources twice.
    close: once(async () => {
      clearInterval(releaseIdleViews);
      clearInterval(pruneOutboxRows);
      if (takeOver) clearInterval(takeOver);
      await modelHealth.stop();
      await memory.stop();
      await conversation.drain();
      // The views' snapshots, so the next start folds only what comes after them (ADR 0426).
      await views.saveSnapshots();
      await mcpServers.close();
      await turnTracer.shutdown();
      await leases.close();
      await liveTurns.close?.();
      await processIdentity.close();
      await notifications.close();
      await accounts.close();
      if (options.database === undefined) await database.close();
    }),
  };
}

/** What `forja status` shows of this process's models: each agent kind's, and the variable that chose it. */
function processModels(routing: ModelRouting): ProcessModel[] {
  return routing.assignments().map((assignment) => ({
    agent: assignment.agent,
    variable: assignment.variable,
    provider: assignment.configured ? assignment.provider : null,
    model: assignment.configured ? assignment.model : null,
  }));
}

/** Each distinct endpoint with the agent kinds it serves, the default model's first (for health and windows). */
function watchedModels(routing: ModelRouting): WatchedModel[] {
  const watched = new Map<string, WatchedModel & { agents: string[] }>();
  const assignments = [...routing.assignments()].sort(
    (a, b) => Number(b.variable === 'FORJA_MODEL') - Number(a.variable === 'FORJA_MODEL'),
  );
  for (const assignment of assignments) {
    const endpoint = routing.endpointFor(assignment.agent);
    const key = JSON.stringify([assignment.variable === 'FORJA_MODEL' ? '' : assignment.variable]);
    const known = watched.get(key);
    if (known !== undefined) {
      known.agents.push(assignment.agent);
      continue;
    }
    watched.set(key, {
      agents: [assignment.agent],
      variable: assignment.variable,
      status: assignment.configured
        ? { configured: true, provider: assignment.provider, model: assignment.model }
        : { configured: false, message: assignment.message },
      probe: endpoint === null ? null : createEndpointProbe(endpoint),
    });
  }
  if (watched.size === 0)
    watched.set('', {
      agents: [],
      variable: 'FORJA_MODEL',
      status: { configured: false, message: 'No model configured' },
      probe: null,
    });
  return [...watched.values()];
}

/** The model of each agent kind (`FORJA_MODEL`, `FORJA_MODEL_<KIND>`); a setting that does not work is logged. */
function modelsFromEnvironment(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  scriptedPositions: Record<string, Record<string, number>>,
): ModelRouting {
  const { routing, problems } = createModelRouting(env, {
    scriptedPositions,
    onStrictRefused: (notice) =>
      logger.warn(
        { provider: notice.provider, model: notice.model, error: notice.message },
        `${notice.provider}:${notice.model} refused strict tool schemas; its tools are sent without strict mode from now on`,
      ),
    retries: {
      onRetry: (notice) =>
        logger.warn(
          { provider: notice.provider, attempt: notice.attempt, delay_ms: notice.delayMs },
          'retrying the model provider',
        ),
    },
  });
  for (const problem of problems) logger.warn(problem.error.message);
  return routing;
}

/** A scripted model resumes after a restart: each script's cursor is the calls that already ended (ADR 0030). */
async function scriptedPositions(
  database: Database,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<Record<string, Record<string, number>>> {
  const scripted = Object.entries(env).some(
    ([variable, value]) =>
      variable.startsWith('FORJA_MODEL') && value?.trim().startsWith('scripted:') === true,
  );
  if (!scripted) return {};
  const positions = await countEndedCalls(database, 'scripted');
  if (Object.keys(positions).length > 0)
    logger.info({ turns_taken: positions }, 'scripted models resume where the log says');
  return positions;
}

function leaseMsOf(env: NodeJS.ProcessEnv): number {
  const settings = readLaneLeaseSettings(env);
  if (!settings.ok) throw new Error(settings.message);
  return settings.leaseMs;
}

/** Half a lease: a dead process's lane is taken over within about 1.5 leases of its last renewal. */
const takeoverIntervalMs = (env: NodeJS.ProcessEnv) => Math.max(250, leaseMsOf(env) / 2);

function createLaneLeases(
  database: Database,
  owner: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): LaneLeases {
  if (database.kind !== 'postgres') return createInProcessLaneLeases(owner);
  return createPostgresLaneLeases(database, {
    owner,
    leaseMs: leaseMsOf(env),
    onLost: (lease) =>
      logger.error(
        { session_id: lease.sessionId, agent: lease.lane, epoch: lease.epoch },
        'this process lost a lane it was running (it stalled past the lease); its appends are refused',
      ),
    onError: (error) =>
      logger.warn({ err: error }, 'renewing or releasing a lane lease failed; it is tried again'),
  });
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= action());
}
