import type { Logger } from 'pino';
import type {
  ContextManager,
  LiveTurns,
  OutputLimits,
  OutputTokenCaps,
  PromptPins,
  SessionView,
  AgentCatalog,
} from '../agents/index.ts';
import type { ModelGateway } from '../gateway/index.ts';
import type { Hooks } from '../harness/index.ts';
import type { Database, EventLog, LaneLeases, SessionEvent } from '../store/index.ts';
import type { TurnTracer } from '../telemetry/index.ts';
import type { SessionQueue } from './session-queue.ts';
import type { TurnSlots } from './turn-slots.ts';
import type { TurnStops } from './turn-stops.ts';
import type { ProjectWorkspaces, TerminalRunner } from '../workspace/index.ts';

/** What the conversation use cases are given. */
export interface ConversationDependencies {
  database: Database;
  eventLog: EventLog;
  gateway: ModelGateway;
  liveTurns: LiveTurns;
  hooks: Hooks;
  catalog: AgentCatalog;
  logger: Logger;
  queue: SessionQueue;
  /** The bound on the line's turns running at once in this process (FORJA_MAX_PARALLEL_TURNS). */
  slots: TurnSlots;
  /** The turns running in this process, each stoppable by the person (ADR 0220). */
  stops: TurnStops;
  views: SessionViews;
  /** Keeps every request inside the model's window; absent, the whole history is sent (tests of other parts). */
  contextManager?: ContextManager;
  /** How much of one model answer is taken (ADR 0306); absent, the defaults. */
  outputLimits?: OutputLimits;
  /** Each agent kind's output cap (`FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`); absent, the agents' defaults. */
  outputTokens?: OutputTokenCaps;
  newId: () => string;
  /** Who holds each lane (ADR 0170); absent, the in-process queue alone serialises lanes (tests of other parts). */
  leases?: LaneLeases;
  /**
   * Settles, once this process holds a lane, the reservations its previous owner left open (ADR 0130);
   * absent, they wait for the owner's heartbeat to go stale (ADR 0130).
   */
  reservations?: { settleLane(sessionId: string, lane: string): Promise<number> };
  /** Each run of a turn as an OpenTelemetry trace (ADR 0370); absent, none. */
  tracer?: TurnTracer;
  /** Each lane's pinned system prompt (ADR 0430); absent, every call sends its prompt as assembled. */
  promptPins?: PromptPins;
  /** The repositories and sandbox the line merges with; absent, finished modules are not merged (tests of other parts). */
  line?: LineWorkspace;
}

/** What merging the line needs beyond the conversation: the project repositories and the sandbox. */
export interface LineWorkspace {
  workspaces: ProjectWorkspaces;
  terminal: TerminalRunner;
}

/** Cached session views (the rehydrated runtimes), released when idle. */
export interface SessionViews {
  /** The view, brought up to date from the log (a read of what was appended since). */
  load(sessionId: string): Promise<SessionView>;
  /**
   * The kept view with no read, when this process has heard of no append it lacks (session-views.ts); else
   * undefined. Decide on it only with an append expecting its seq, and on a conflict decide again on `load`.
   */
  peek(sessionId: string): SessionView | undefined;
  /** The view past an append just made: folds what it returned, reading the log only after a gap. */
  afterAppend(sessionId: string, appended: readonly SessionEvent[]): Promise<SessionView>;
  /** Views kept now; for tests of the release of idle runtimes. */
  size(): number;
  /** Releases the views unused for the idle time, snapshotting those worth it in the background (ADR 0426). */
  releaseIdle(): number;
  /** Snapshots every kept view worth it, and waits for every snapshot under way (before the database closes). */
  saveSnapshots(): Promise<void>;
}

/** A use case's expected refusal; the HTTP edge turns `status` into the response code. */
export type Refusal = { ok: false; status: 404 | 409 | 502 | 503; code: string; message: string };

export const refusal = (status: Refusal['status'], code: string, message: string): Refusal => ({
  ok: false,
  status,
  code,
  message,
});
