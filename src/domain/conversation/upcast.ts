import { InvariantViolationError } from '../errors/invariant-violation-error.ts';
import type { SessionEvent } from './session-event.ts';

/** Turns a payload of version `n` into version `n + 1` (returning it with `v: n + 1`). */
export type PayloadUpcaster = (
  payload: Readonly<Record<string, unknown>>,
  event: SessionEvent,
) => Record<string, unknown>;

/** Upcasters by event type, then by the version they read. */
export type UpcasterTable = Readonly<Record<string, Readonly<Record<number, PayloadUpcaster>>>>;

/**
 * The project's upcasters. Empty: version 1 is the first version of every payload. When a payload shape
 * changes, add `'<type>': { 1: (payload) => ({ ...v2 shape, v: 2 }) }` here, raise the schema's literal,
 * and add a new frozen fixture — the v1 fixture must keep folding to the same state.
 */
export const UPCASTERS: UpcasterTable = {};

/**
 * Brings a stored event's payload to the current version by chaining upcasters from its `v`. Events with
 * no upcaster for their version (current ones, and ones too new for this reader) come back unchanged; the
 * fold then reads or reports them.
 */
export function upcast(event: SessionEvent, upcasters: UpcasterTable = UPCASTERS): SessionEvent {
  const byVersion = upcasters[event.type];
  if (byVersion === undefined) return event;
  let payload = event.payload;
  for (;;) {
    const version = versionOf(payload);
    const step = version === null ? undefined : byVersion[version];
    if (step === undefined || !isRecord(payload)) break;
    payload = step(payload, event);
    const next = versionOf(payload);
    // An upcaster that does not raise the version would loop forever: a bug in the table, not in the data.
    if (next === null || next <= (version as number)) {
      throw new InvariantViolationError(
        'upcaster',
        `${event.type} v${version} upcaster returned v${next}`,
      );
    }
  }
  return payload === event.payload ? event : { ...event, payload };
}

/** The `v` of a payload, or null when it has none. */
export function versionOf(payload: unknown): number | null {
  return isRecord(payload) && 'v' in payload && typeof payload.v === 'number' ? payload.v : null;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
