import { performance } from 'node:perf_hooks';
import type { Database } from '../../store/index.ts';
import { budgetMessage } from '../metering/budget-message.ts';
import {
  BUILT_IN_PRICES,
  callCostUsd,
  priceFor,
  reservationCostUsd,
  type PriceTable,
} from '../metering/prices/price-table.ts';
import { reserveCall } from '../metering/reserve-call.ts';
import { settleCall } from '../metering/settle-call.ts';
import { estimateTokens } from '../providers/shared/estimate-tokens.ts';
import type { EmbeddingProvider } from './embedding-provider.ts';

export interface EmbeddingRequest {
  projectId: string;
  sessionId: string | null;
  /** Who asked: `rag` for indexing and search, or an agent slug. */
  agent: string;
  texts: readonly string[];
}

/** Expected outcomes are values, as for model turns. */
export type EmbeddingOutcome =
  | { status: 'completed'; usageId: string; vectors: number[][] }
  | { status: 'not_configured'; message: string }
  | { status: 'budget_exceeded'; usageId: string; message: string }
  | { status: 'failed'; usageId: string; message: string };

/** The gateway's embedding method: the one way Forja reaches a provider's embeddings. */
export interface EmbeddingGateway {
  /** `provider:model`, or null when no embedding provider is configured. */
  readonly model: string | null;
  embed(request: EmbeddingRequest): Promise<EmbeddingOutcome>;
}

/**
 * Embeddings through the gateway, metered like turns: reserved against the project's budget before the
 * provider is called and settled in `token_usage` whatever happens. Call it outside any transaction of
 * the caller (the reservation takes one of its own).
 */
export function createEmbeddingGateway(dependencies: {
  database: Database;
  provider: EmbeddingProvider | null;
  now?: () => number;
  /** What each model costs (the built-in list by default): embeddings count against a money budget too. */
  prices?: PriceTable;
}): EmbeddingGateway {
  const { database, provider } = dependencies;
  const now = dependencies.now ?? (() => performance.now());
  return {
    model: provider === null ? null : `${provider.name}:${provider.model}`,
    async embed(request) {
      if (provider === null)
        return {
          status: 'not_configured',
          message: 'No embedding provider is configured: set FORJA_EMBEDDING_MODEL=openai:<model>.',
        };
      const estimate = request.texts.reduce((sum, text) => sum + estimateTokens(text), 0);
      const call = {
        projectId: request.projectId,
        sessionId: request.sessionId,
        agent: request.agent,
        provider: provider.name,
        model: provider.model,
      };
      const price = priceFor(dependencies.prices ?? BUILT_IN_PRICES, call.provider, call.model);
      const costOf = (inputTokens: number) =>
        price === null ? null : callCostUsd(price, { inputTokens, outputTokens: 0 });
      const reservation = await reserveCall(
        database,
        call,
        estimate,
        null,
        price === null ? null : reservationCostUsd(price, estimate, 0),
      );
      if (!reservation.ok)
        return {
          status: 'budget_exceeded',
          usageId: reservation.usageId,
          message: `${budgetMessage(reservation.figures, call)} (embeddings)`,
        };
      const startedAt = now();
      try {
        const result = await provider.embed(request.texts, {});
        const usage = {
          inputTokens: result.inputTokens ?? estimate,
          outputTokens: 0,
          estimated: result.inputTokens === null,
        };
        await settleCall(database, reservation.usageId, {
          outcome: 'completed',
          usage,
          costUsd: costOf(usage.inputTokens),
          latencyMs: now() - startedAt,
          timeToFirstTokenMs: null,
        });
        return { status: 'completed', usageId: reservation.usageId, vectors: result.vectors };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await settleCall(database, reservation.usageId, {
          outcome: 'error',
          usage: { inputTokens: estimate, outputTokens: 0, estimated: true },
          costUsd: costOf(estimate),
          latencyMs: now() - startedAt,
          timeToFirstTokenMs: null,
          error: message,
        });
        return { status: 'failed', usageId: reservation.usageId, message };
      }
    },
  };
}
