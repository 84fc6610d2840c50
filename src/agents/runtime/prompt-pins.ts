import { createHash } from 'node:crypto';
import type { ModelMessage } from '../../gateway/index.ts';
import { pinSystemPrompt, type PinState } from '../../harness/index.ts';

/**
 * Each lane's pinned system prompt in this process, and the updates it sent, each kept where it was sent in the
 * history (ADR 0430). A cache, never a record: a process that does not hold a lane's pin (a restart, a lane
 * taken over by another process, one evicted here) pins the next fresh prompt, and only the provider's cache
 * notices. So does a history that changed before an update's place (a compaction, a lean rewrite): the pin
 * moves to the fresh prompt.
 */
export interface PromptPins {
  /** The lane's next call for `fresh`, the prompt just assembled. */
  pin(lane: { sessionId: string; agent: string }, fresh: string): PinnedCall;
}

/** One call of a lane, between its prompt's assembly and its request. */
export interface PinnedCall {
  /** What the model is given as instructions, the pin and every update, for the window's arithmetic. */
  instructions: string;
  /** The system prompt to send and the history with the updates in their places (a new one last). */
  place(history: readonly ModelMessage[]): { system: string; messages: ModelMessage[] };
}

/** The lanes kept at most; the least recently used pin goes first. */
export const DEFAULT_PINNED_LANES = 1000;

interface PlacedUpdate {
  /** Placed after this many messages of the history. */
  at: number;
  /** The hash of those messages: the place holds while they are the same. */
  before: string;
  text: string;
}

interface Lane {
  pin: PinState;
  updates: PlacedUpdate[];
}

export function createPromptPins(options: { maxLanes?: number } = {}): PromptPins {
  const maxLanes = options.maxLanes ?? DEFAULT_PINNED_LANES;
  const lanes = new Map<string, Lane>();
  const keep = (key: string, lane: Lane) => {
    lanes.delete(key);
    lanes.set(key, lane);
    if (lanes.size > maxLanes) lanes.delete(lanes.keys().next().value as string);
  };
  return {
    pin({ sessionId, agent }, fresh) {
      const key = `${sessionId}\n${agent}`;
      const kept = lanes.get(key);
      const step = pinSystemPrompt(kept?.pin, fresh);
      const updates = step.moved ? [] : (kept?.updates ?? []);
      const texts = [...updates.map((update) => update.text), step.update ?? []].flat();
      return {
        instructions: [step.state.system, ...texts].join('\n\n'),
        place(history) {
          if (!updates.every((update) => placeHolds(update, history))) {
            keep(key, { pin: { system: fresh, known: fresh, updatesLength: 0 }, updates: [] });
            return { system: fresh, messages: [...history] };
          }
          const placed =
            step.update === null
              ? updates
              : [...updates, { at: history.length, before: hashOf(history), text: step.update }];
          keep(key, { pin: step.state, updates: placed });
          return { system: step.state.system, messages: withUpdates(history, placed) };
        },
      };
    },
  };
}

function placeHolds(update: PlacedUpdate, history: readonly ModelMessage[]): boolean {
  return update.at <= history.length && hashOf(history.slice(0, update.at)) === update.before;
}

function hashOf(messages: readonly ModelMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages)).digest('base64');
}

/** The history with each update after the messages it followed when it was sent. */
function withUpdates(
  history: readonly ModelMessage[],
  updates: readonly PlacedUpdate[],
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let next = 0;
  for (const [index, message] of [...history, null].entries()) {
    while (updates[next] !== undefined && updates[next]!.at === index) {
      messages.push({ role: 'user', content: updates[next]!.text, contextUpdate: true });
      next += 1;
    }
    if (message !== null) messages.push(message);
  }
  return messages;
}
