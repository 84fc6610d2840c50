import fc from 'fast-check';
import { HANDOFF_STATUSES } from '../../handoffs/handoff.ts';
import { buildSessionEvents, type EventSpec } from './build-session-events.ts';
import type { SessionEvent } from '../session-event.ts';

/**
 * Test support: event specs over every type the conversation reads, drawn from small pools of agents and
 * ids so generated logs interleave turns, actions and handoffs, plus malformed payloads, too-new versions
 * and unrelated types — the fold must cope with all of them.
 */
const agent = fc.constantFrom('criativo', 'po', 'arquiteto');
const turnId = fc.constantFrom('turn-1', 'turn-2');
const actionId = fc.constantFrom('action-1', 'action-2');
const handoffId = fc.constantFrom('handoff-1', 'handoff-2');
const text = fc.string({ maxLength: 20 });

const validBrief = {
  title: 'Brief',
  summary: 'Summary',
  problem: 'Problem',
  audience: 'Audience',
  goals: ['Goal'],
};

export const eventSpecArbitrary: fc.Arbitrary<EventSpec> = fc.oneof(
  fc.record({
    type: fc.constant('chat.message'),
    actor: fc.constant('user'),
    payload: fc.record({ v: fc.constant(1), text }),
  }),
  agent.chain((name) =>
    fc.record({
      type: fc.constant('agent.response'),
      actor: fc.constant(name),
      payload: fc.record(
        { v: fc.constant(1), agent: fc.constant(name), text, turn_id: turnId },
        { requiredKeys: ['v', 'agent', 'text'] },
      ),
    }),
  ),
  fc.record({
    type: fc.constant('agent.activated'),
    payload: fc.record({
      v: fc.constant(1),
      agent,
      handoff_id: fc.option(handoffId, { nil: null }),
    }),
  }),
  fc.record({
    type: fc.constant('turn.started'),
    payload: fc.record({
      v: fc.constant(1),
      agent,
      turn_id: turnId,
      kind: fc.constantFrom('message', 'consolidation'),
    }),
  }),
  fc.record({
    type: fc.constant('turn.failed'),
    payload: fc.record({ v: fc.constant(1), turn_id: turnId, reason: text }),
  }),
  fc.constant({ type: 'readiness.confirmed', actor: 'user', payload: { v: 1 } }),
  fc.record({
    type: fc.constant('tool.completed'),
    payload: fc.record({
      v: fc.constant(1),
      agent,
      tool_call_id: fc.constantFrom('call-1', 'call-2'),
      tool: fc.constant('emit_artifact'),
      args: fc.jsonValue(),
      ok: fc.boolean(),
      result: text,
    }),
  }),
  fc.record({
    type: fc.constant('action.proposed'),
    payload: fc.record({
      v: fc.constant(1),
      action_id: actionId,
      agent,
      tool: fc.constant('run'),
      args: fc.jsonValue(),
    }),
  }),
  fc.record({
    type: fc.constantFrom('action.approved', 'action.denied'),
    actor: fc.constant('user'),
    payload: fc.record({ v: fc.constant(1), action_id: actionId }),
  }),
  fc
    .record({ id: handoffId, status: fc.constantFrom(...HANDOFF_STATUSES), to: agent, from: agent })
    .map(({ id, status, to, from }) => ({
      type: `handoff.${status}`,
      payload: { v: 1, handoff_id: id, from_agent: from, to_agent: to, artifact_id: null, status },
    })),
  fc.record({ title: text, statement: text }).map((rule) => ({
    type: 'artifact.business_rule',
    actor: 'criativo',
    payload: { v: 1, data: rule, origin: [1] },
  })),
  fc.constant({
    type: 'artifact.product_brief',
    actor: 'criativo',
    payload: { v: 1, data: validBrief },
  }),
  fc.constant({ type: 'artifact.epic', actor: 'po', payload: { v: 1, data: { id: 'EP-001' } } }),
  // What the fold must survive: unknown types, broken payloads, payloads from a newer writer.
  fc.record({
    type: fc.constantFrom('token.usage', 'agent.delta', 'session.ended'),
    payload: fc.jsonValue(),
  }),
  fc.record({
    type: fc.constantFrom('chat.message', 'handoff.accepted', 'artifact.business_rule'),
    payload: fc.jsonValue(),
  }),
  fc.record({
    type: fc.constantFrom('chat.message', 'turn.started'),
    payload: fc.record({ v: fc.integer({ min: 2, max: 5 }) }),
  }),
);

/** Test support: a whole session log of generated events, seqs 1..n. */
export const sessionLogArbitrary: fc.Arbitrary<SessionEvent[]> = fc
  .array(eventSpecArbitrary, { maxLength: 40 })
  .map((specs) => buildSessionEvents('session-1', specs));
