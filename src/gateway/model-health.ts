import type { Logger } from 'pino';
import type { ModelProbe } from './providers/config/create-model-probe.ts';
import type { GatewayStatus } from './model-gateway.ts';

/** What `GET /api/health` and the UI's banner say of the model. */
export type ModelHealthReport = {
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

export interface ModelHealth {
  current(): ModelHealthReport;
  /** Looks again now, unless a look is under way (joined) or the last one is under `minRecheckMs` old. */
  check(): Promise<ModelHealthReport>;
  /** The first look, then one every `unreachableIntervalMs` while it does not answer, `reachableIntervalMs` while it does. */
  start(): void;
  stop(): Promise<void>;
}

export type ModelHealthOptions = {
  status: GatewayStatus;
  probe: ModelProbe | null;
  logger: Logger;
  unreachableIntervalMs?: number;
  reachableIntervalMs?: number;
  minRecheckMs?: number;
  clock?: () => number;
};

/**
 * Keeps an eye on the configured model endpoint. An endpoint that does not answer is not fatal: a local model
 * server may start after Forja. The looks are a GET of the model list (no tokens spent), at most one at a time,
 * every 30 s while down and every 5 min while up, plus on demand no more than once per 5 s.
 */
export function createModelHealth(options: ModelHealthOptions): ModelHealth {
  const { status, probe, logger } = options;
  const clock = options.clock ?? Date.now;
  const unreachableIntervalMs = options.unreachableIntervalMs ?? 30_000;
  const reachableIntervalMs = options.reachableIntervalMs ?? 300_000;
  const minRecheckMs = options.minRecheckMs ?? 5_000;
  const base = status.configured
    ? { configured: true, provider: status.provider, model: status.model }
    : { configured: false, provider: null, model: null };
  let report: ModelHealthReport = status.configured
    ? {
        ...base,
        target: probe?.target ?? null,
        reachable: probe === null ? true : null,
        checked_at: probe === null ? new Date(clock()).toISOString() : null,
        reason: null,
      }
    : {
        ...base,
        target: null,
        reachable: false,
        checked_at: new Date(clock()).toISOString(),
        reason: status.message,
      };
  let lastCheckAt = -Infinity;
  let running: Promise<ModelHealthReport> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopped = false;

  async function look(): Promise<ModelHealthReport> {
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
    if (!result.reachable && previous !== false) {
      logger.warn(
        { model: report.model, target: probe.target, reason: result.reason },
        `the model endpoint is not reachable (${result.reason}); Forja keeps running and checks again every ${unreachableIntervalMs / 1000} s`,
      );
    } else if (result.reachable && previous === false) {
      logger.info(
        { model: report.model, target: probe.target },
        'the model endpoint answers again',
      );
    } else if (result.reachable && previous === null) {
      logger.info({ model: report.model, target: probe.target }, 'the model endpoint answers');
    }
    return report;
  }

  function check(): Promise<ModelHealthReport> {
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
    start() {
      if (probe === null || started || stopped) return;
      started = true;
      void check().then(schedule, schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
