import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderHttpError } from '../errors/provider-http-error.ts';
import { ScriptExhaustedError } from '../errors/script-exhausted-error.ts';
import { ScriptExpectationError } from '../errors/script-expectation-error.ts';
import type {
  ModelProvider,
  ModelRequest,
  ModelStreamOptions,
  ModelStreamPart,
} from '../model-provider.ts';
import { realSleep, sleepUnlessCancelled, type Sleep } from '../retry/sleep-unless-cancelled.ts';
import { messageProtocolViolations } from '../protocol/message-protocol-violations.ts';
import { finishStream } from '../shared/finish-stream.ts';
import { toToolCallPart } from '../shared/to-tool-call-part.ts';
import { matchExpectation } from './match-expectation.ts';
import { validateScript } from './parse-script.ts';
import type { Script, ScriptInput, ScriptedTurn } from './script-schema.ts';
import { splitIntoWordDeltas } from './split-into-word-deltas.ts';

/** Turns already taken per agent, e.g. `{ criativo: 2 }`: the next criativo call takes its third turn. */
export type ScriptPosition = Record<string, number>;

export type ScriptedProviderOptions = {
  script: ScriptInput | Script;
  /** Where each agent's cursor starts, so a test can resume a script across a process restart. */
  startAt?: ScriptPosition;
  /** Reported as the model name and in errors: the file path, or `in-memory script`. */
  source?: string;
  /** How `delay_ms` and `pace_ms` are waited; the real timer unless a test records the waits. */
  sleep?: Sleep;
};

/** The scripted provider, plus what a test needs to check the script was played exactly. */
export type ScriptedProvider = ModelProvider & {
  /** Turns not yet taken, per agent; agents with none left are omitted, so `{}` means all consumed. */
  remainingTurns(): Record<string, number>;
  /** The cursor of every agent that has one; feed it back as `startAt` to resume. */
  position(): ScriptPosition;
  /** Throws when a turn was never taken: an unconsumed turn means the test did not go as scripted. */
  assertAllTurnsConsumed(): void;
};

/**
 * A deterministic model for tests and demos. Each call for an agent takes that agent's next turn in
 * script order, checks the request against the turn's `expect` (ScriptExpectationError when it does not
 * match), waits `delay_ms`, then either fails as the provider would (`fail`: ProviderHttpError) or
 * streams its text word by word, `pace_ms` apart, then its tool calls with deterministic ids
 * (`call_<agent>_<turnIndex>_<i>`). A call with no turn left throws ScriptExhaustedError.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const source = options.source ?? 'in-memory script';
  const script = validateScript(options.script, source);
  const turnsByAgent = groupTurnsByAgent(script);
  const scriptIndexOf = new Map(script.turns.map((turn, index) => [turn, index]));
  const cursor = new Map<string, number>(Object.entries(readStartAt(options.startAt ?? {})));

  async function* stream(
    request: ModelRequest,
    { signal }: ModelStreamOptions,
  ): AsyncGenerator<ModelStreamPart> {
    const ensureNotCancelled = (): void => {
      if (signal.aborted) throw new ProviderCancelledError('scripted');
    };
    ensureNotCancelled();
    refuseBrokenProtocol(request);
    const turns = turnsByAgent.get(request.agent) ?? [];
    const turnIndex = cursor.get(request.agent) ?? 0;
    const turn = turns[turnIndex];
    if (turn === undefined)
      throw new ScriptExhaustedError({ agent: request.agent, turnCount: turns.length });
    // Taken before the first part, so a cancelled call still consumes its turn, as a real call would.
    cursor.set(request.agent, turnIndex + 1);

    const mismatch = matchExpectation(turn.expect, request);
    if (mismatch !== undefined) {
      throw new ScriptExpectationError({
        source,
        agent: request.agent,
        scriptIndex: scriptIndexOf.get(turn) ?? -1,
        agentTurn: turnIndex,
        ...mismatch,
      });
    }
    const wait = (ms: number | undefined) =>
      ms
        ? sleepUnlessCancelled({
            ms,
            signal,
            sleep: options.sleep ?? realSleep,
            provider: 'scripted',
          })
        : undefined;
    await wait(turn.delay_ms);
    if (turn.fail !== undefined) {
      const { status, message, retry_after: retryAfter } = turn.fail;
      const retryAfterMs =
        retryAfter === undefined ? {} : { retryAfterMs: Math.round(retryAfter * 1000) };
      throw new ProviderHttpError({
        provider: 'scripted',
        status,
        body: message,
        detail: message,
        ...retryAfterMs,
      });
    }

    let partsSent = 0;
    const paced = async () => {
      if (partsSent++ > 0) await wait(turn.pace_ms);
      ensureNotCancelled();
    };
    for (const text of splitIntoWordDeltas(turn.text)) {
      await paced();
      yield { type: 'text-delta', text };
    }
    const rawArguments: string[] = [];
    for (const [callIndex, call] of turn.tool_calls.entries()) {
      await paced();
      const id = `call_${request.agent}_${turnIndex}_${callIndex}`;
      rawArguments.push(JSON.stringify(call.arguments));
      yield toToolCallPart({ id, name: call.name, rawArguments: JSON.stringify(call.arguments) });
    }
    ensureNotCancelled();
    yield* finishStream({
      request,
      reported: turn.usage && {
        inputTokens: turn.usage.input_tokens,
        outputTokens: turn.usage.output_tokens,
        ...(turn.usage.cached_input_tokens === undefined
          ? {}
          : { cachedInputTokens: turn.usage.cached_input_tokens }),
        ...(turn.usage.cache_write_input_tokens === undefined
          ? {}
          : { cacheWriteInputTokens: turn.usage.cache_write_input_tokens }),
      },
      outputText: turn.text + rawArguments.join(''),
      reason: turn.tool_calls.length > 0 ? 'tool_calls' : 'stop',
    });
  }

  function remainingTurns(): Record<string, number> {
    const remaining: Record<string, number> = {};
    for (const [agent, turns] of turnsByAgent) {
      const left = turns.length - (cursor.get(agent) ?? 0);
      if (left > 0) remaining[agent] = left;
    }
    return remaining;
  }

  return {
    name: 'scripted',
    model: source,
    stream,
    remainingTurns,
    position: () => Object.fromEntries(cursor),
    assertAllTurnsConsumed() {
      const remaining = Object.entries(remainingTurns());
      if (remaining.length === 0) return;
      const listed = remaining.map(([agent, count]) => `${agent}: ${count}`).join(', ');
      throw new Error(`scripted model (${source}) has unconsumed turns: ${listed}`);
    },
  };
}

/**
 * The scripted model is as strict as the strictest provider: a request whose messages break its protocol (a
 * message between a tool call and its result, a trailing assistant message, tool traffic without tools) is
 * refused with the HTTP 400 such a provider answers, so no test passes on a request a real provider rejects.
 */
function refuseBrokenProtocol(request: ModelRequest): void {
  const violations = messageProtocolViolations(request);
  if (violations.length === 0) return;
  const detail = `invalid_request_error: the messages break the protocol: ${violations.join('; ')}`;
  throw new ProviderHttpError({ provider: 'scripted', status: 400, body: detail, detail });
}

function groupTurnsByAgent(script: Script): Map<string, ScriptedTurn[]> {
  const turnsByAgent = new Map<string, ScriptedTurn[]>();
  for (const turn of script.turns) {
    const turns = turnsByAgent.get(turn.agent) ?? [];
    turns.push(turn);
    turnsByAgent.set(turn.agent, turns);
  }
  return turnsByAgent;
}

function readStartAt(startAt: ScriptPosition): ScriptPosition {
  for (const [agent, position] of Object.entries(startAt)) {
    if (!Number.isInteger(position) || position < 0) {
      throw new RangeError(`startAt.${agent} must be a non-negative whole number, got ${position}`);
    }
  }
  return startAt;
}
