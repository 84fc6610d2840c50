import type { SessionEvent } from '../conversation/session-event.ts';
import { InvariantViolationError } from '../errors/invariant-violation-error.ts';
import { truncateText } from './truncate-text.ts';

/** One `rag_search` hit as the triage shows it. */
export type TriageFragment = {
  readonly source: string;
  readonly text: string;
  readonly score: number;
};

/** The triage limits: the shared budget of what a companion agent reads (record ADR 0101). */
export type TriageLimits = {
  readonly recentEvents: readonly SessionEvent[];
  /** Most items (events + fragments) in the window. */
  readonly maxPromptEvents: number;
  /** Most characters of one event payload or one fragment text. */
  readonly maxPayloadChars: number;
};

export type TriageWindowInput = TriageLimits & {
  readonly ragFragments: readonly TriageFragment[];
  /** What `rag_search` said about itself: `false`, or degraded with its reason. */
  readonly degraded: false | { readonly reason: string };
  /** Most slots fragments may take; by default half the window, so recency is never crowded out. */
  readonly maxFragmentSlots?: number;
};

export type TriageWindow = {
  /** The text given to the model. */
  readonly text: string;
  /** The events shown, oldest first. */
  readonly events: readonly SessionEvent[];
  /** The fragments shown, best first. */
  readonly fragments: readonly TriageFragment[];
};

export const RECENT_EVENTS_HEADING = '## eventos recentes';
export const FRAGMENTS_HEADING = '## fragmentos relevantes (rag_search)';

/**
 * The window as it was before RAG: the `maxPromptEvents` most recent events, oldest first, one line each,
 * payloads cut at `maxPayloadChars`. `composeTriageWindow` with no fragments and no degradation returns
 * exactly this text, byte for byte.
 */
export function renderRecentWindow(limits: TriageLimits): TriageWindow {
  return recentWindow(limits, limits.maxPromptEvents);
}

/**
 * Composes the triage window with RAG: fragments TAKE slots from the recent window (the oldest events give
 * way), never add on top, so events + fragments ≤ `maxPromptEvents`. Best-scored fragments first, at most
 * `maxFragmentSlots`. When RAG is degraded a `degraded: true` line with the reason follows the events —
 * visible, never hidden — and the events part stays the same as without RAG.
 */
export function composeTriageWindow(input: TriageWindowInput): TriageWindow {
  const maxFragmentSlots = input.maxFragmentSlots ?? Math.floor(input.maxPromptEvents / 2);
  assertLimit('maxFragmentSlots', maxFragmentSlots);
  const fragments = [...input.ragFragments]
    .sort((left, right) => right.score - left.score)
    .slice(0, Math.min(maxFragmentSlots, input.maxPromptEvents));
  const recent = recentWindow(input, input.maxPromptEvents - fragments.length);
  if (fragments.length === 0 && input.degraded === false) return recent;

  const lines = [FRAGMENTS_HEADING];
  if (input.degraded !== false)
    lines.push(`degraded: true (reason: ${oneLine(input.degraded.reason)})`);
  for (const fragment of fragments) {
    const text = truncateText(oneLine(fragment.text), input.maxPayloadChars);
    lines.push(`- [${fragment.score.toFixed(2)}] ${oneLine(fragment.source)}: ${text}`);
  }
  return { text: `${recent.text}\n\n${lines.join('\n')}`, events: recent.events, fragments };
}

function recentWindow(limits: TriageLimits, slots: number): TriageWindow {
  assertLimit('maxPromptEvents', limits.maxPromptEvents);
  assertLimit('maxPayloadChars', limits.maxPayloadChars);
  const ordered = [...limits.recentEvents].sort((left, right) => left.seq - right.seq);
  const events = slots > 0 ? ordered.slice(-slots) : [];
  const lines = events.map((event) => {
    const payload = truncateText(JSON.stringify(event.payload) ?? 'null', limits.maxPayloadChars);
    return `#${event.seq} ${event.created_at} ${event.type} (${event.actor}): ${payload}`;
  });
  return { text: [RECENT_EVENTS_HEADING, ...lines].join('\n'), events, fragments: [] };
}

/** Fragment text and reasons come from outside; a newline in them must not forge a line of the window. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function assertLimit(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvariantViolationError(
      'triage_limit',
      `${name} must be a non-negative integer, got ${value}`,
    );
  }
}
