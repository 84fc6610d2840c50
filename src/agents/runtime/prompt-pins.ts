import { pinSystemPrompt, type PinnedSystemPrompt } from '../../harness/index.ts';

/**
 * Each lane's pinned system prompt in this process (ADR 0430). A cache, never a record: a process that does not
 * hold a lane's pin (a restart, a lane taken over by another process, one evicted here) pins the next fresh
 * prompt, and only the provider's cache notices.
 */
export interface PromptPins {
  /** What the lane's next call sends for `fresh`, the prompt just assembled; the pin moves when it must. */
  pin(lane: { sessionId: string; agent: string }, fresh: string): PinnedSystemPrompt;
}

/** The lanes kept at most; the least recently used pin goes first. */
export const DEFAULT_PINNED_LANES = 1000;

export function createPromptPins(options: { maxLanes?: number } = {}): PromptPins {
  const maxLanes = options.maxLanes ?? DEFAULT_PINNED_LANES;
  const pins = new Map<string, string>();
  return {
    pin({ sessionId, agent }, fresh) {
      const key = `${sessionId}\n${agent}`;
      const sent = pinSystemPrompt(pins.get(key), fresh);
      pins.delete(key);
      pins.set(key, sent.system);
      if (pins.size > maxLanes) pins.delete(pins.keys().next().value as string);
      return sent;
    },
  };
}
