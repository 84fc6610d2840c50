import type { Logger } from 'pino';
import { agentModelKind } from './providers/config/agent-model-kinds.ts';
import type { ModelProbe } from './providers/config/create-model-probe.ts';
import type { ServerWindow } from './providers/windows/server-window.ts';
import type { GatewayStatus } from './model-gateway.ts';

/** What `GET /api/health` says of one model endpoint. */
export type EndpointHealthReport = {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** The endpoint looked at (no credentials), or null when there is none (scripted, or no model). */
  target: string | null;
  /** Whether the endpoint answered the last look; null before the first. */
  reachable: boolean | null;
  checked_at: string | null;
  reason: string | null;
};

/** The window an agent's requests are sized to, where it came from, and what the person should know of it. */
export type AgentWindowReport = {
  tokens: number;
  source: string;
  from: string;
  /** Where the server cuts a prompt without saying so (Ollama's `num_ctx`), or null. */
  truncates_at: number | null;
  warning: string | null;
};

/** One agent kind's model, the variable that chose it, its endpoint's health and its window. */
export type AgentModelHealth = EndpointHealthReport & {
  agent: string;
  variable: string;
  window: AgentWindowReport | null;
};

/**
 * What `GET /api/health` and the UI's banner say of the models: the default model's endpoint (`FORJA_MODEL`),
 * reachable only when every agent's endpoint is, and each agent kind's own line.
 */
export type ModelHealthReport = EndpointHealthReport & { agents: AgentModelHealth[] };

export interface ModelHealth {
  current(): ModelHealthReport;
  /** Looks again now, unless a look is under way (joined) or the last one is under `minRecheckMs` old. */
  check(): Promise<ModelHealthReport>;
  /** The first look, then one every `unreachableIntervalMs` while it does not answer, `reachableIntervalMs` while it does. */
  start(): void;
  /** Settles once the first look at every endpoint has ended (each bounded by its probe's timeout). */
  ready(): Promise<void>;
  /** What the server of `agent`'s model said of its window at the last look, or null. */
  serverWindow(agent: string): ServerWindow | null;
  stop(): Promise<void>;
}

/** One endpoint watched, and the agent kinds it serves (the first watched is the default model's). */
export type WatchedModel = {
  agents: readonly string[];
  variable: string;
  status: GatewayStatus;
  probe: ModelProbe | null;
};

export type ModelHealthOptions = {
  /** Every endpoint, the default model's first; or `status` and `probe` for one model serving every agent. */
  models?: readonly WatchedModel[];
  status?: GatewayStatus;
  probe?: ModelProbe | null;
  /** The window each agent's requests are sized to now (composition resolves settings, server and family). */
  windowOf?: (agent: string) => AgentWindowReport | null;
  logger: Logger;
  unreachableIntervalMs?: number;
  reachableIntervalMs?: number;
  minRecheckMs?: number;
  clock?: () => number;
};

/**
 * Keeps an eye on each configured model endpoint. An endpoint that does not answer is not fatal: a local model
 * server may start after Forja. The looks are a GET of the model list (no tokens spent), at most one at a time
 * per endpoint, every 30 s while down and every 5 min while up, plus on demand no more than once per 5 s.
 */
export function createModelHealth(options: ModelHealthOptions): ModelHealth {
  const models: readonly WatchedModel[] = options.models ?? [
    {
      agents: [],
      variable: 'FORJA_MODEL',
      status: options.status ?? { configured: false, message: 'No model configured' },
      probe: options.probe ?? null,
    },
  ];
  const watches = models.map((model) => watchEndpoint(model, options));
  const byAgent = new Map<string, { watch: EndpointWatch; model: WatchedModel }>();
  for (const [index, model] of models.entries())
    for (const agent of model.agents) byAgent.set(agent, { watch: watches[index]!, model });

  function report(): ModelHealthReport {
    const reports = watches.map((watch) => watch.current());
    const first = reports[0]!;
    const failing = reports.find((entry) => entry.configured && entry.reachable === false);
    const unknown = reports.some((entry) => entry.configured && entry.reachable === null);
    const reachable = !first.configured
      ? false
      : failing !== undefined
        ? false
        : unknown
          ? null
          : true;
    return {
      ...first,
      reachable,
      reason: first.reason ?? failing?.reason ?? null,
      agents: [...byAgent.entries()].map(([agent, { watch, model }]) => ({
        agent,
        variable: model.variable,
        ...watch.current(),
        window: options.windowOf?.(agent) ?? null,
      })),
    };
  }

  return {
    current: report,
    async check() {
      await Promise.all(watches.map((watch) => watch.check()));
      return report();
    },
    start: () => {
      for (const watch of watches) watch.start();
    },
    ready: async () => {
      await Promise.all(watches.map((watch) => watch.firstLook()));
    },
    // `dev:billing` is served as `dev`; an agent of no kind by the default model (watched first).
    serverWindow: (agent) =>
      (byAgent.get(agentModelKind(agent) ?? agent) ?? { watch: watches[0]! }).watch.window(),
    stop: async () => {
      await Promise.all(watches.map((watch) => watch.stop()));
    },
  };
}

type EndpointWatch = {
  current(): EndpointHealthReport;
  check(): Promise<EndpointHealthReport>;
  start(): void;
  firstLook(): Promise<void>;
  window(): ServerWindow | null;
  stop(): Promise<void>;
};

function watchEndpoint(model: WatchedModel, options: ModelHealthOptions): EndpointWatch {
  const { status, probe } = model;
  const { logger } = options;
  const clock = options.clock ?? Date.now;
  const unreachableIntervalMs = options.unreachableIntervalMs ?? 30_000;
  const reachableIntervalMs = options.reachableIntervalMs ?? 300_000;
  const minRecheckMs = options.minRecheckMs ?? 5_000;
  const who = { model: status.configured ? status.model : null, agents: model.agents };
  let report: EndpointHealthReport = status.configured
    ? {
        configured: true,
        provider: status.provider,
        model: status.model,
        target: probe?.target ?? null,
        reachable: probe === null ? true : null,
        checked_at: probe === null ? new Date(clock()).toISOString() : null,
        reason: null,
      }
    : {
        configured: false,
        provider: null,
        model: null,
        target: null,
        reachable: false,
        checked_at: new Date(clock()).toISOString(),
        reason: status.message,
      };
  let window: ServerWindow | null = null;
  let lastCheckAt = -Infinity;
  let running: Promise<EndpointHealthReport> | null = null;
  let first: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopped = false;

  async function look(): Promise<EndpointHealthReport> {
    if (probe === null) return report;
    lastCheckAt = clock();
    const result = await probe.check();
    const previous = report.reachable;
    report = {
      ...report,
      reachable: result.reachable,
      reason: result.reason,
      checked_at: new Date(clock()).toISOString(),
    };
    if (
      result.window !== null &&
      result.window.note !== window?.note &&
      result.window.note !== null
    )
      logger.warn({ ...who, window: result.window }, result.window.note);
    if (result.window !== null) window = result.window;
    if (!result.reachable && previous !== false) {
      logger.warn(
        { ...who, target: probe.target, reason: result.reason },
        `the model endpoint is not reachable (${result.reason}); Forja keeps running and checks again every ${unreachableIntervalMs / 1000} s`,
      );
    } else if (result.reachable && previous === false) {
      logger.info({ ...who, target: probe.target }, 'the model endpoint answers again');
    } else if (result.reachable && previous === null) {
      logger.info({ ...who, target: probe.target, window }, 'the model endpoint answers');
    }
    return report;
  }

  function check(): Promise<EndpointHealthReport> {
    if (running) return running;
    if (probe === null || clock() - lastCheckAt < minRecheckMs) return Promise.resolve(report);
    running = look().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(): void {
    if (stopped || probe === null) return;
    timer = setTimeout(
      () => void check().then(schedule, schedule),
      report.reachable ? reachableIntervalMs : unreachableIntervalMs,
    );
    timer.unref();
  }

  return {
    current: () => report,
    check,
    window: () => window,
    start() {
      if (probe === null || started || stopped) return;
      started = true;
      first = check().then(schedule, schedule);
    },
    firstLook: async () => {
      await first;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
