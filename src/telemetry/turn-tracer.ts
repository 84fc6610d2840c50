import type { GatewayTurnOutcome, GatewayTurnRequest, ModelGateway } from '../gateway/index.ts';

/**
 * What the tool loop tells of a turn's run, as OpenTelemetry traces (ADR 0370): one trace per run of the loop,
 * its model calls and tool calls inside it. The loop calls this port; with no exporter configured it is
 * `noTurnTracer`, which only runs the work.
 */
export interface TurnTracer {
  /** Runs one run of an agent's loop (`invoke_agent`); `work` makes its model and tool calls through `trace`. */
  turn<T extends { status: string }>(
    turn: TracedTurn,
    work: (trace: TurnTrace) => Promise<T>,
  ): Promise<T>;
}

export interface TracedTurn {
  projectId: string;
  sessionId: string;
  agent: string;
}

/** The calls of one traced turn. */
export interface TurnTrace {
  /** One model call (`chat`): `model` is the provider and model the gateway routes the agent to, if any. */
  chat(call: TracedChat, work: () => Promise<GatewayTurnOutcome>): Promise<GatewayTurnOutcome>;
  /** One tool call (`execute_tool`). */
  tool<T extends { ok: boolean; result: string }>(
    call: TracedToolCall,
    work: () => Promise<T>,
  ): Promise<T>;
}

export interface TracedChat {
  turnId: string;
  request: GatewayTurnRequest;
  model: { provider: string; model: string } | null;
}

export interface TracedToolCall {
  turnId: string;
  id: string;
  name: string;
  arguments?: unknown;
}

const untracedTurn: TurnTrace = {
  chat: (_call, work) => work(),
  tool: (_call, work) => work(),
};

/** Tracing off: the work runs, nothing is recorded, no SDK is loaded. */
export const noTurnTracer: TurnTracer = {
  turn: (_turn, work) => work(untracedTurn),
};

/** `gateway` whose every `runTurn` is a `chat` span of `trace` (the provider and model the gateway routes to). */
export function tracedGateway(
  trace: TurnTrace,
  gateway: ModelGateway,
  turnId: string,
): Pick<ModelGateway, 'runTurn'> {
  return {
    runTurn(request, options) {
      const routed = gateway.status(request.agent);
      const model = routed.configured ? { provider: routed.provider, model: routed.model } : null;
      return trace.chat({ turnId, request, model }, () => gateway.runTurn(request, options));
    },
  };
}
