import { DuplicateHookHandlerError } from './duplicate-hook-handler-error.ts';
import { UnknownHookPhaseError } from './unknown-hook-phase-error.ts';

/** The hook phases of record ADR 0006. */
export const HOOK_PHASES = [
  'pre_tool_use',
  'post_tool_use',
  'session_start',
  'session_end',
] as const;

export type HookPhase = (typeof HOOK_PHASES)[number];

/** What `pre_tool_use` sees: a call whose arguments passed the tool's schema, before the tool runs. */
export interface PreToolUsePayload {
  readonly agent: string;
  readonly session_id: string;
  readonly tool: string;
  readonly tool_call_id: string;
  /** A replaced payload's `arguments` are what the tool runs with (checked against its schema again). */
  readonly arguments: unknown;
}

/** What `post_tool_use` sees: the call and its outcome, before the model reads the result. */
export interface PostToolUsePayload {
  readonly agent: string;
  readonly session_id: string;
  readonly tool: string;
  readonly tool_call_id: string;
  readonly arguments: unknown;
  /** A replaced payload's `outcome.result` is what is recorded and what the model reads (e.g. redacted); `ok` and the tool's effects are facts and stay. */
  readonly outcome: { readonly ok: boolean; readonly result: string };
}

/** What `session_start` sees: a session just created (its `session.created` is stored). */
export interface SessionStartPayload {
  readonly session_id: string;
  readonly project_id: string;
  readonly title: string | null;
}

/** What `session_end` sees: a session just ended (its `session.ended` is stored), with the classified reason. */
export interface SessionEndPayload {
  readonly session_id: string;
  readonly project_id: string;
  readonly reason: string;
}

/** Each phase's payload type. */
export interface HookPayloads {
  pre_tool_use: PreToolUsePayload;
  post_tool_use: PostToolUsePayload;
  session_start: SessionStartPayload;
  session_end: SessionEndPayload;
}

/** The phases around a tool call, whose handlers may replace the payload or halt the chain. */
export type ToolHookPhase = 'pre_tool_use' | 'post_tool_use';

/**
 * What a handler returns: nothing (pass the payload on unchanged), `{ payload }` (pass this payload on
 * instead, e.g. a redacted tool input), or `{ halt: reason }` (stop the chain; no later handler runs).
 * The replacement is wrapped so a payload that happens to have a `halt` field is never mistaken for a halt.
 * Session handlers only observe: the session is already recorded when they run, so there is nothing to
 * replace or stop (ADR 0195).
 */
export type HookVerdict<P extends HookPhase = HookPhase> = P extends ToolHookPhase
  ? // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing (void) lets the call go on
    void | undefined | { readonly payload: HookPayloads[P] } | { readonly halt: string }
  : // biome-ignore lint/suspicious/noConfusingVoidType: session handlers return nothing
    void | undefined;

/** A named handler of one phase; the name is what a halted result reports. */
export interface HookHandler<P extends HookPhase = HookPhase> {
  readonly name: string;
  run(payload: HookPayloads[P]): HookVerdict<P> | Promise<HookVerdict<P>>;
}

/** A hooks value: phase → handlers in registration order. Immutable; registering returns a new value. */
export interface Hooks {
  readonly handlers: { readonly [P in HookPhase]: readonly HookHandler<P>[] };
}

/** The outcome of a run: the payload as the last handler left it, and who halted and why when one did. */
export type HookRunResult<P extends HookPhase = HookPhase> =
  | { readonly halted: false; readonly payload: HookPayloads[P]; readonly ran: readonly string[] }
  | {
      readonly halted: true;
      readonly payload: HookPayloads[P];
      readonly ran: readonly string[];
      readonly haltedBy: string;
      readonly reason: string;
    };

function assertPhase(phase: string): asserts phase is HookPhase {
  if (!(HOOK_PHASES as readonly string[]).includes(phase))
    throw new UnknownHookPhaseError(phase, HOOK_PHASES);
}

/** An empty hooks value: no handler in any phase. */
export function createHooks(): Hooks {
  return Object.freeze({
    handlers: Object.freeze({
      pre_tool_use: [],
      post_tool_use: [],
      session_start: [],
      session_end: [],
    }),
  });
}

/**
 * A new hooks value with `handler` appended to `phase`; `hooks` itself is left unchanged.
 * @throws UnknownHookPhaseError for a phase outside HOOK_PHASES.
 * @throws DuplicateHookHandlerError when the phase already has a handler with that name.
 */
export function registerHook<P extends HookPhase>(
  hooks: Hooks,
  phase: P,
  handler: HookHandler<P>,
): Hooks {
  assertPhase(phase);
  const existing: readonly HookHandler<P>[] = hooks.handlers[phase];
  if (existing.some((other) => other.name === handler.name)) {
    throw new DuplicateHookHandlerError(phase, handler.name);
  }
  const handlers = Object.freeze({
    ...hooks.handlers,
    [phase]: Object.freeze([...existing, handler]),
  });
  return Object.freeze({ handlers });
}

/**
 * Runs the handlers of `phase` in registration order, folding the payload through them, and stops at the
 * first `{ halt }`. A handler that throws is a broken invariant: the error propagates unchanged.
 * @throws UnknownHookPhaseError for a phase outside HOOK_PHASES.
 */
export async function runHooks<P extends HookPhase>(
  hooks: Hooks,
  phase: P,
  payload: HookPayloads[P],
): Promise<HookRunResult<P>> {
  assertPhase(phase);
  let current = payload;
  const ran: string[] = [];
  const handlers: readonly HookHandler<P>[] = hooks.handlers[phase];
  for (const handler of handlers) {
    const verdict: unknown = await handler.run(current);
    ran.push(handler.name);
    if (verdict === undefined || verdict === null) continue;
    if (phase === 'session_start' || phase === 'session_end')
      throw new TypeError(
        `hook handler '${handler.name}' of ${phase} returned a value; session hooks only observe (the session is already recorded)`,
      );
    if (typeof verdict === 'object' && 'halt' in verdict) {
      return {
        halted: true,
        payload: current,
        ran,
        haltedBy: handler.name,
        reason: String(verdict.halt),
      };
    }
    if (typeof verdict !== 'object' || !('payload' in verdict)) {
      // A typo such as `{ hlat: ... }` must not silently erase the payload.
      throw new TypeError(
        `hook handler '${handler.name}' returned neither nothing, { payload } nor { halt }`,
      );
    }
    current = verdict.payload as HookPayloads[P];
  }
  return { halted: false, payload: current, ran };
}
