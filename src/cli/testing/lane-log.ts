import { expect } from 'vitest';
import type { StoredEvent } from './forja-serve.ts';

/** Reading a session's log in the e2e tests of lanes across processes and restarts. */

/** The events that end a lane's turn on its answer: a response without tool calls, or `turn.completed` (ADR 0380). */
const endsOnAnswer = (event: StoredEvent) =>
  (event.type === 'agent.response' && event.payload.tool_calls === undefined) ||
  event.type === 'turn.completed';
export const finalAnswers = (log: StoredEvent[]) => log.filter(endsOnAnswer);
export const turnsStarted = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'turn.started');
export const messageSeqs = (log: StoredEvent[]) =>
  log.filter((event) => event.type === 'chat.message').map((event) => event.seq);
/**
 * Each message paired with the first turn of its addressee started after it that no earlier message took (one
 * message, one turn: ADR 0345): `lost` messages no turn took, `doubled` turns that took no message.
 */
export function lostAndDoubled(
  log: StoredEvent[],
  agent = 'criativo',
): { lost: number; doubled: number } {
  let waiting = 0;
  let doubled = 0;
  for (const event of log) {
    if (event.type === 'chat.message' && event.payload.to === agent) waiting += 1;
    if (event.type === 'turn.started' && event.payload.agent === agent) {
      if (waiting > 0) waiting -= 1;
      else doubled += 1;
    }
  }
  return { lost: waiting, doubled };
}
/** Every message has a turn of its own started after it. */
export const answered = (log: StoredEvent[]) => lostAndDoubled(log).lost === 0;
/** Every message is answered and every turn started has ended: the lane is at rest. */
export const settled = (log: StoredEvent[]) =>
  answered(log) && turnsStarted(log).length === finalAnswers(log).length;

/** Every turn started once and ended once, one at a time in the lane, and no seq is missing. */
export function expectOneOwnerAtATime(log: StoredEvent[]): void {
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
  const started = turnsStarted(log).map((event) => event.payload.turn_id);
  expect(new Set(started).size).toBe(started.length);
  const ended = finalAnswers(log).map((event) => event.payload.turn_id);
  expect([...ended].sort()).toEqual([...started].sort());
  let open = 0;
  for (const event of log) {
    if (event.type === 'turn.started') open += 1;
    if (endsOnAnswer(event)) open -= 1;
    expect(open, `at seq ${event.seq} two turns of the lane were open`).toBeLessThanOrEqual(1);
  }
}
