import { DuplicateHookHandlerError } from './duplicate-hook-handler-error.ts';
import { UnknownHookPhaseError } from './unknown-hook-phase-error.ts';

/** The hook phases of ADR 0006. */
export const HOOK_PHASES = [
  'pre_tool_use',
  'post_tool_use',
  'session_start',
  'session_end',
] as const;

export type HookPhase = (typeof HOOK_PHASES)[number];

/**
 * What a handler returns: nothing (pass the payload on unchanged), `{ payload }` (pass this payload on
 * instead, e.g. a redacted tool input), or `{ halt: reason }` (stop the chain; no later handler runs).
 * The replacement is wrapped so a payload that happens to have a `halt` field is never mistaken for a halt.
 */
export type HookVerdict =
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing (void) lets the call go on
  void | undefined | { readonly payload: unknown } | { readonly halt: string };

/** A named handler; the name is what a halted result reports. */
export interface HookHandler {
  readonly name: string;
  run(payload: unknown): HookVerdict | Promise<HookVerdict>;
}

/** A hooks value: phase → handlers in registration order. Immutable; registering returns a new value. */
export interface Hooks {
  readonly handlers: Readonly<Record<HookPhase, readonly HookHandler[]>>;
}

/** The outcome of a run: the payload as the last handler left it, and who halted and why when one did. */
export type HookRunResult =
  | { readonly halted: false; readonly payload: unknown; readonly ran: readonly string[] }
  | {
      readonly halted: true;
      readonly payload: unknown;
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
export function registerHook(hooks: Hooks, phase: string, handler: HookHandler): Hooks {
  assertPhase(phase);
  if (hooks.handlers[phase].some((existing) => existing.name === handler.name)) {
    throw new DuplicateHookHandlerError(phase, handler.name);
  }
  const handlers = Object.freeze({
    ...hooks.handlers,
    [phase]: Object.freeze([...hooks.handlers[phase], handler]),
  });
  return Object.freeze({ handlers });
}

/**
 * Runs the handlers of `phase` in registration order, folding the payload through them, and stops at the
 * first `{ halt }`. A handler that throws is a broken invariant: the error propagates unchanged.
 * @throws UnknownHookPhaseError for a phase outside HOOK_PHASES.
 */
export async function runHooks(
  hooks: Hooks,
  phase: string,
  payload: unknown,
): Promise<HookRunResult> {
  assertPhase(phase);
  let current = payload;
  const ran: string[] = [];
  for (const handler of hooks.handlers[phase]) {
    const verdict = await handler.run(current);
    ran.push(handler.name);
    if (verdict === undefined || verdict === null) continue;
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
    current = verdict.payload;
  }
  return { halted: false, payload: current, ran };
}
