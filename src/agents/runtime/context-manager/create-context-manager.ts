import {
  isInLane,
  type ChatHistoryEntry,
  SESSION_EVENTS,
} from '../../../domain/conversation/index.ts';
import type { ModelGateway, ModelMessage, ToolDefinition } from '../../../gateway/index.ts';
import {
  contextMarginTokens,
  contextWindowFor,
  estimateTokenizer,
  historyBudget,
  type ContextWindow,
  type ContextWindowSettings,
  type ServerContext,
  type Tokenizer,
} from '../../../harness/index.ts';
import type { NewSessionEvent } from '../../../store/index.ts';
import type { SessionView } from '../session-view.ts';
import { firstAfter } from '../first-after.ts';
import {
  createCompactionPoints,
  type CompactionPoint,
  type CompactionPoints,
} from './compaction-points.ts';
import { compactionSplit, sumTokens, windowStart } from './plan-history.ts';
import { leanHistoryEntry } from './lean-history-entry.ts';
import { messageTokens, renderHistoryEntry, type RenderedEntry } from './render-history-entry.ts';
import {
  CONTEXT_MANAGER_AGENT,
  summarizeHistory,
  type SummaryTemplates,
} from './summarize-history.ts';

/** Compaction starts when the history passes this share of its budget. */
export const DEFAULT_COMPACT_AT = 0.8;
/** What a compaction keeps verbatim: the most recent messages up to this share of the budget. */
export const KEEP_RECENT_FRACTION = 0.4;
/** A tool result is never sent longer than this (nor than a quarter of the history budget). */
export const TOOL_RESULT_CAP_TOKENS = 4000;
/** What a lean compaction keeps whole: the most recent messages up to this share of the budget. */
export const LEAN_KEEP_RECENT_FRACTION = 0.1;
/** A lean compaction is tried from this share of the budget on (it costs no model call). */
export const LEAN_AT = 0.5;
/** …and made only when it saves at least this share of the budget (each one changes the request's bytes). */
export const LEAN_MIN_SAVING = 0.15;
/** At the threshold, a lean compaction is enough when it brings the history under this share of its budget. */
export const LEAN_ENOUGH = 0.6;
/** Below this, the fixed parts of the request leave no useful room for a conversation. */
export const MIN_HISTORY_TOKENS = 128;

export interface ContextManagerDependencies {
  gateway: ModelGateway;
  windows: ContextWindowSettings;
  /** What the server of an agent's model said of its window (the gateway's probe), or null. */
  serverWindow?: (agent: string) => ServerContext | null;
  templates: SummaryTemplates;
  tokenizer?: Tokenizer;
  compactAt?: number;
  /** False: compact by summary alone, never lean first (the benchmark's baseline); default true. */
  lean?: boolean;
}

/** One call's frame: everything the request carries besides the history. */
export interface ContextRequest {
  view: SessionView;
  projectId: string;
  sessionId: string;
  agent: string;
  system: string;
  tools: readonly ToolDefinition[];
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/** What the next call of an agent sends and why: the figures `forja context --session` prints. */
export interface ContextReport {
  agent: string;
  /** The model the agent's calls go to (`FORJA_MODEL_<AGENT>`, else `FORJA_MODEL`), or null when none is set. */
  model: { provider: string; model: string } | null;
  window: ContextWindow;
  system_tokens: number;
  tool_tokens: number;
  max_output_tokens: number;
  margin_tokens: number;
  history_budget: number;
  compact_at_tokens: number;
  compaction: CompactionPoint | null;
  /** Messages of the history that follow the compaction point (before any window cut). */
  history_messages: number;
  history_tokens: number;
  /** System + tools + messages as sent; with `max_output_tokens` and the margin it never passes the window. */
  request_tokens: number;
  /** True when the history passes the threshold: the next call compacts first. */
  compaction_due: boolean;
  /** Messages whose text was cut (long tool results), with a marker. */
  capped_messages: number;
  /** Messages not sent because a summary failed (a deterministic window with a note). */
  left_out: number;
  messages: ModelMessage[];
}

export type PreparedContext =
  | { ok: true; messages: ModelMessage[]; inputTokens: number; report: ContextReport }
  | { ok: false; reason: 'context_window'; message: string };

export interface ContextManager {
  /**
   * The messages of an agent's next call, compacting first when its history passes the threshold; the
   * events it records (`context.compacted`, `context.compaction_failed`) go through `append`.
   */
  prepare(
    request: ContextRequest,
    append: (events: NewSessionEvent[]) => Promise<void>,
  ): Promise<PreparedContext>;
  /** What the next call would send now, without calling a model or recording anything. */
  describe(request: ContextRequest): PreparedContext;
  /** Every compaction of the session, oldest first. */
  compactions(
    sessionId: string,
    view: SessionView,
  ): ReadonlyArray<CompactionPoint & { agent: string }>;
}

export const SUMMARY_HEADER = (throughSeq: number) =>
  `[Resumo da conversa até #${throughSeq}; as mensagens anteriores estão resumidas aqui]`;
export const LEFT_OUT_NOTE = (leftOut: number, reason: string) =>
  `[Nota do sistema: ${leftOut} mensagens anteriores desta conversa não foram enviadas nesta chamada porque não cabem na janela do modelo (${reason}). Estão guardadas no registro da sessão.]`;

/**
 * The ContextManager (ADR 0080): keeps each request inside the model's window. The history sent is the
 * agent's latest summary plus the messages after its `through_seq`; past the threshold a summarising call
 * moves the point forward; when that fails, the most recent messages that fit are sent with a note saying how
 * many were left out, and the failure is recorded. Never a silent cut, never an overflowing request.
 */
export function createContextManager(dependencies: ContextManagerDependencies): ContextManager {
  const tokenizer = dependencies.tokenizer ?? estimateTokenizer;
  const compactAt = dependencies.compactAt ?? DEFAULT_COMPACT_AT;
  const points: CompactionPoints = createCompactionPoints();
  const rendered = new WeakMap<ChatHistoryEntry, RenderedEntry & { cap: number; lean: boolean }>();
  /** The window of the agent's own model: settings, then its server's word, then its family. */
  const windowOf = (agent: string): ContextWindow =>
    contextWindowFor(
      dependencies.windows,
      modelOf(dependencies.gateway, agent),
      agent,
      dependencies.serverWindow?.(agent) ?? null,
    );
  const scope: Scope = { dependencies, tokenizer, compactAt, points, rendered, windowOf };
  return {
    describe(request) {
      const { shape, point, entries, total, due } = current(scope, request);
      if (shape.budget < MIN_HISTORY_TOKENS) return tooSmall(request, shape);
      if (total <= shape.budget)
        return assemble(scope, request, shape, { point, entries, from: 0, note: null, due });
      return windowed(scope, request, shape, point, entries, 'o resumo ainda não foi feito');
    },

    prepare: (request, append) => prepareContext(scope, request, append),

    compactions: (sessionId, view) => points.all(sessionId, view.events),
  };
}

/** What the ContextManager's parts share: its dependencies, tokenizer, threshold, points and rendering cache. */
interface Scope {
  readonly dependencies: ContextManagerDependencies;
  readonly tokenizer: Tokenizer;
  readonly compactAt: number;
  readonly points: CompactionPoints;
  readonly rendered: WeakMap<ChatHistoryEntry, RenderedEntry & { cap: number; lean: boolean }>;
  readonly windowOf: (agent: string) => ContextWindow;
}

function frame(scope: Scope, request: ContextRequest) {
  const { tokenizer, windowOf } = scope;
  const window = windowOf(request.agent);
  const systemTokens = tokenizer.count(request.system).tokens;
  const toolTokens =
    request.tools.length === 0 ? 0 : tokenizer.count(JSON.stringify(request.tools)).tokens;
  const budget = historyBudget({
    windowTokens: window.tokens,
    systemTokens,
    toolTokens,
    maxOutputTokens: request.maxOutputTokens,
  });
  return { window, systemTokens, toolTokens, budget };
}

/** An entry as sent; `lean`: its long tool payloads as references (a lean compaction passed it). */
function render(
  scope: Scope,
  entry: ChatHistoryEntry,
  budget: number,
  lean: boolean,
): RenderedEntry {
  const { tokenizer, rendered } = scope;
  const cap =
    entry.role === 'tool'
      ? Math.min(TOOL_RESULT_CAP_TOKENS, Math.floor(budget / 4))
      : Math.floor(budget / 2);
  const known = rendered.get(entry);
  if (known !== undefined && known.cap === cap && known.lean === lean) return known;
  const sent = renderHistoryEntry(lean ? leanHistoryEntry(entry) : entry, cap, tokenizer);
  const fresh = { ...sent, entry, cap, lean };
  rendered.set(entry, fresh);
  return fresh;
}

/** The agent's lane after `throughSeq`: the person's messages to it, its own turns and tool results. */
function tail(
  scope: Scope,

  view: SessionView,
  agent: string,
  point: { through_seq: number; payloads_through_seq: number } | null,
  budget: number,
): RenderedEntry[] {
  const history = view.state.history;
  const entries: RenderedEntry[] = [];
  const leanThrough = point?.payloads_through_seq ?? 0;
  for (
    let index = firstAfter(history, point?.through_seq ?? 0);
    index < history.length;
    index += 1
  ) {
    const entry = history[index]!;
    if (isInLane(entry, agent))
      entries.push(render(scope, entry, budget, entry.seq <= leanThrough));
  }
  return entries;
}

/** The summary a point carries as the history's first message; none for a lean point (no summary). */
function summaryMessage(
  scope: Scope,
  point: CompactionPoint | null,
): {
  message: ModelMessage | null;
  tokens: number;
} {
  const { tokenizer } = scope;
  if (point === null || point.summary === '') return { message: null, tokens: 0 };
  const message: ModelMessage = {
    role: 'user',
    content: `${SUMMARY_HEADER(point.through_seq)}\n${point.summary}`,
  };
  return { message, tokens: messageTokens(message, tokenizer) };
}

function tooSmall(request: ContextRequest, shape: ReturnType<typeof frame>): PreparedContext {
  const margin = contextMarginTokens(shape.window.tokens);
  return {
    ok: false,
    reason: 'context_window',
    message: `The model's window for ${request.agent} (${shape.window.tokens} tokens, from ${shape.window.from}) leaves ${shape.budget} tokens for the conversation after the system prompt (${shape.systemTokens}), the tools (${shape.toolTokens}), the answer (${request.maxOutputTokens}) and the margin (${margin}); at least ${MIN_HISTORY_TOKENS} are needed. Set FORJA_MODEL_CONTEXT_TOKENS to the model's real window.`,
  };
}

function assemble(
  scope: Scope,

  request: ContextRequest,
  shape: ReturnType<typeof frame>,
  parts: {
    point: CompactionPoint | null;
    entries: RenderedEntry[];
    from: number;
    note: string | null;
    due: boolean;
  },
): PreparedContext & { ok: true } {
  const { dependencies, tokenizer, compactAt } = scope;
  const messages: ModelMessage[] = [];
  let historyTokens = 0;
  if (parts.note !== null) {
    const note: ModelMessage = { role: 'user', content: parts.note };
    messages.push(note);
    historyTokens += messageTokens(note, tokenizer);
  }
  const summary = summaryMessage(scope, parts.point);
  if (summary.message !== null) {
    messages.push(summary.message);
    historyTokens += summary.tokens;
  }
  let capped = 0;
  for (let index = parts.from; index < parts.entries.length; index += 1) {
    const entry = parts.entries[index]!;
    messages.push(entry.message);
    historyTokens += entry.tokens;
    if (entry.capped > 0) capped += 1;
  }
  const inputTokens = shape.systemTokens + shape.toolTokens + historyTokens;
  return {
    ok: true,
    messages,
    inputTokens,
    report: {
      agent: request.agent,
      model: modelNamed(dependencies.gateway, request.agent),
      window: shape.window,
      system_tokens: shape.systemTokens,
      tool_tokens: shape.toolTokens,
      max_output_tokens: request.maxOutputTokens,
      margin_tokens: contextMarginTokens(shape.window.tokens),
      history_budget: shape.budget,
      compact_at_tokens: Math.floor(shape.budget * compactAt),
      compaction: parts.point,
      history_messages: parts.entries.length,
      history_tokens: historyTokens,
      request_tokens: inputTokens,
      compaction_due: parts.due,
      capped_messages: capped,
      left_out: parts.from,
      messages,
    },
  };
}

/** The most recent entries that fit beside the summary and a note; `from` entries are left out. */
function windowed(
  scope: Scope,

  request: ContextRequest,
  shape: ReturnType<typeof frame>,
  point: CompactionPoint | null,
  entries: RenderedEntry[],
  reason: string,
) {
  const { tokenizer } = scope;
  const summaryTokens = summaryMessage(scope, point).tokens;
  const noteTokens = messageTokens(
    { role: 'user', content: LEFT_OUT_NOTE(entries.length, reason) },
    tokenizer,
  );
  const from = windowStart(entries, shape.budget - summaryTokens - noteTokens);
  return assemble(scope, request, shape, {
    point,
    entries,
    from,
    note: from === 0 ? null : LEFT_OUT_NOTE(from, reason),
    due: true,
  });
}

function current(scope: Scope, request: ContextRequest) {
  const { compactAt, points } = scope;
  const shape = frame(scope, request);
  const point = points.latest(request.sessionId, request.view.events, request.agent);
  const entries =
    shape.budget < MIN_HISTORY_TOKENS
      ? []
      : tail(scope, request.view, request.agent, point, shape.budget);
  const total = summaryMessage(scope, point).tokens + sumTokens(entries);
  return { shape, point, entries, total, due: total > shape.budget * compactAt };
}

/**
 * A lean compaction, tried before a summary (ADR 0326): the tool payloads of what a summary would cover are
 * sent as references from now on. It is enough when the history falls well under the threshold (so the
 * next calls do not lean again at once); otherwise the summary runs.
 */
async function leanFirst(
  scope: Scope,

  request: ContextRequest,
  shape: ReturnType<typeof frame>,
  due: { point: CompactionPoint | null; entries: RenderedEntry[]; total: number; due: boolean },
  append: (events: NewSessionEvent[]) => Promise<void>,
): Promise<PreparedContext | null> {
  const { dependencies, points } = scope;
  const split = compactionSplit(due.entries, Math.floor(shape.budget * LEAN_KEEP_RECENT_FRACTION));
  const leanThrough = split === 0 ? 0 : due.entries[split - 1]!.entry.seq;
  if (dependencies.lean === false || leanThrough <= (due.point?.payloads_through_seq ?? 0))
    return null;
  const next: CompactionPoint = {
    seq: 0,
    through_seq: due.point?.through_seq ?? 0,
    summary: due.point?.summary ?? '',
    tokens_before: due.total,
    tokens_after: 0,
    payloads_through_seq: leanThrough,
  };
  const entries = tail(scope, request.view, request.agent, next, shape.budget);
  const tokensAfter = summaryMessage(scope, next).tokens + sumTokens(entries);
  // Worth a change of the request's bytes only if it saves much; at the threshold, only if it is enough.
  const goal = Math.min(
    due.total - shape.budget * LEAN_MIN_SAVING,
    due.due ? shape.budget * LEAN_ENOUGH : Number.POSITIVE_INFINITY,
  );
  if (tokensAfter > goal) return null;
  await append([
    SESSION_EVENTS.contextCompacted.create(CONTEXT_MANAGER_AGENT, {
      v: 1,
      agent: request.agent,
      through_seq: next.through_seq,
      summary: next.summary,
      tokens_before: due.total,
      tokens_after: tokensAfter,
      payloads_through_seq: leanThrough,
    }),
  ]);
  const recorded = points.latest(request.sessionId, request.view.events, request.agent) ?? {
    ...next,
    tokens_after: tokensAfter,
  };
  return assemble(scope, request, shape, {
    point: recorded,
    entries,
    from: 0,
    note: null,
    due: false,
  });
}

async function recordFailure(
  scope: Scope,

  request: ContextRequest,
  shape: ReturnType<typeof frame>,
  point: CompactionPoint | null,
  entries: RenderedEntry[],
  failure: { reason: string; message: string },
  append: (events: NewSessionEvent[]) => Promise<void>,
): Promise<PreparedContext> {
  const prepared = windowed(
    scope,
    request,
    shape,
    point,
    entries,
    `o resumo falhou: ${failure.reason}`,
  );
  const fromSeq = entries[prepared.report.left_out]?.entry.seq ?? request.view.state.last_seq;
  await append([
    SESSION_EVENTS.contextCompactionFailed.create(CONTEXT_MANAGER_AGENT, {
      v: 1,
      agent: request.agent,
      reason: failure.reason,
      message: failure.message,
      left_out: prepared.report.left_out,
      window_from_seq: fromSeq,
    }),
  ]);
  return prepared;
}

/** A request's history inside the window: leaned, summarised or windowed when it has to be (ADR 0080, 0326). */
async function prepareContext(
  scope: Scope,
  request: ContextRequest,
  append: (events: NewSessionEvent[]) => Promise<void>,
): Promise<PreparedContext> {
  const { dependencies, tokenizer, points, windowOf } = scope;
  const { shape, point, entries, total, due } = current(scope, request);
  if (shape.budget < MIN_HISTORY_TOKENS) return tooSmall(request, shape);
  if (total > shape.budget * LEAN_AT) {
    const leaned = await leanFirst(scope, request, shape, { point, entries, total, due }, append);
    if (leaned !== null) return leaned;
  }
  if (!due) return assemble(scope, request, shape, { point, entries, from: 0, note: null, due });
  const split = compactionSplit(entries, Math.floor(shape.budget * KEEP_RECENT_FRACTION));
  if (split === 0) {
    if (total <= shape.budget)
      return assemble(scope, request, shape, { point, entries, from: 0, note: null, due: false });
    return recordFailure(
      scope,
      request,
      shape,
      point,
      entries,
      {
        reason: 'nothing_to_summarise',
        message: 'the most recent messages alone pass the budget',
      },
      append,
    );
  }
  const summaryWindow = windowOf(CONTEXT_MANAGER_AGENT);
  const outcome = await summarizeHistory(dependencies.gateway, dependencies.templates, tokenizer, {
    projectId: request.projectId,
    sessionId: request.sessionId,
    agent: request.agent,
    previousSummary: point?.summary || null,
    agentSystem: request.system,
    entries: entries.slice(0, split).map((rendered) => leanHistoryEntry(rendered.entry)),
    windowTokens: summaryWindowTokens(
      dependencies.gateway,
      summaryWindow,
      shape.window,
      request.agent,
    ),
    maxOutputTokens: Math.max(64, Math.floor(shape.budget * 0.25)),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (!outcome.ok) return recordFailure(scope, request, shape, point, entries, outcome, append);
  const throughSeq = entries[split - 1]!.entry.seq;
  const kept = entries.slice(split);
  const next: CompactionPoint = {
    seq: 0,
    through_seq: throughSeq,
    summary: outcome.summary,
    tokens_before: total,
    tokens_after: 0,
    payloads_through_seq: throughSeq,
  };
  const tokensAfter = summaryMessage(scope, next).tokens + sumTokens(kept);
  await append([
    SESSION_EVENTS.contextCompacted.create(CONTEXT_MANAGER_AGENT, {
      v: 1,
      agent: request.agent,
      through_seq: throughSeq,
      summary: outcome.summary,
      tokens_before: total,
      tokens_after: tokensAfter,
      omitted: outcome.omitted,
      usage_id: outcome.usageId,
      payloads_through_seq: throughSeq,
    }),
  ]);
  const recorded = points.latest(request.sessionId, request.view.events, request.agent) ?? {
    ...next,
    tokens_after: tokensAfter,
  };
  if (tokensAfter <= shape.budget)
    return assemble(scope, request, shape, {
      point: recorded,
      entries: kept,
      from: 0,
      note: null,
      due: false,
    });
  return windowed(
    scope,
    request,
    shape,
    recorded,
    kept,
    'o resumo e as mensagens recentes passam a janela',
  );
}

/**
 * The summarising call fits the ContextManager's own model (`FORJA_MODEL_CONTEXT_MANAGER`). When that is the
 * agent's model too, never more than the agent's window: a smaller setting for the agent says what that model
 * takes.
 */
function summaryWindowTokens(
  gateway: ModelGateway,
  summaryWindow: ContextWindow,
  agentWindow: ContextWindow,
  agent: string,
): number {
  const same =
    JSON.stringify(gateway.status(agent)) === JSON.stringify(gateway.status(CONTEXT_MANAGER_AGENT));
  return same ? Math.min(summaryWindow.tokens, agentWindow.tokens) : summaryWindow.tokens;
}

function modelNamed(gateway: ModelGateway, agent: string): ContextReport['model'] {
  const status = gateway.status(agent);
  return status.configured ? { provider: status.provider, model: status.model } : null;
}

function modelOf(gateway: ModelGateway, agent: string): string {
  const status = gateway.status(agent);
  return status.configured ? status.model : '';
}
