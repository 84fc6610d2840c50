import type { SessionEvent } from '../conversation/session-event.ts';
import type { ArtifactDefinition } from './artifact-definition.ts';

/** Most seqs one artifact may cite; more is a model pasting the whole conversation. */
export const MAX_ORIGIN_SEQS = 100;

export type OriginCheck =
  | { readonly ok: true; readonly origin: readonly number[] }
  | {
      readonly ok: false;
      readonly code: 'origin_empty' | 'origin_invalid';
      readonly reason: string;
    };

/**
 * Checks `origin`: a list of seqs of conversation events (`chat.message` / `agent.response`) in
 * `sessionEvents`. Required and non-empty when the type says so; when optional, absent or `[]` means none.
 * Repeated seqs are collapsed (first occurrence order kept) — a repeat is noise, not an error worth a retry.
 */
export function checkOrigin(
  definition: ArtifactDefinition,
  origin: unknown,
  sessionEvents: readonly SessionEvent[],
  conversationTypes: ReadonlySet<string>,
): OriginCheck {
  const cite = [...conversationTypes].join(' / ');
  const isEmpty =
    origin === undefined || origin === null || (Array.isArray(origin) && origin.length === 0);
  if (isEmpty) {
    if (definition.originRequired !== true) return { ok: true, origin: [] };
    return {
      ok: false,
      code: 'origin_empty',
      reason: `origin: ${definition.type} requires a non-empty list of seqs of the ${cite} events it came from`,
    };
  }
  if (!Array.isArray(origin)) {
    return {
      ok: false,
      code: 'origin_invalid',
      reason: 'origin: must be a list of event seqs (positive integers)',
    };
  }
  const notSeqs = origin.flatMap((seq, index) =>
    Number.isInteger(seq) && (seq as number) > 0 ? [] : [index],
  );
  if (notSeqs.length > 0) {
    const where = notSeqs.map((index) => `origin[${index}]`).join(', ');
    return {
      ok: false,
      code: 'origin_invalid',
      reason: `${where}: must be a positive integer seq`,
    };
  }
  const seqs = [...new Set(origin as number[])];
  if (seqs.length > MAX_ORIGIN_SEQS) {
    return {
      ok: false,
      code: 'origin_invalid',
      reason: `origin: must cite at most ${MAX_ORIGIN_SEQS} seqs`,
    };
  }
  const citable = new Set(
    sessionEvents.filter((event) => conversationTypes.has(event.type)).map((event) => event.seq),
  );
  const unknown = seqs.filter((seq) => !citable.has(seq));
  if (unknown.length > 0) {
    const listed = unknown.join(', ');
    const reason =
      unknown.length === 1
        ? `origin: seq ${listed} is not a ${cite} event of this session`
        : `origin: seqs ${listed} are not ${cite} events of this session`;
    return { ok: false, code: 'origin_invalid', reason };
  }
  return { ok: true, origin: seqs };
}
