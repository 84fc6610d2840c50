import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { USER_STARTED_AGENTS } from '../handoffs/agent-activation.ts';
import { transitionHandoff, type HandoffCommand } from '../handoffs/transition-handoff.ts';
import { eventIdForSeq } from './test-support/build-session-events.ts';
import type { ConversationCommand } from './commands.ts';
import type { ConversationState } from './conversation-state.ts';
import { decide } from './decide.ts';
import { evolve } from './evolve.ts';
import { initialState } from './conversation-state.ts';
import type { NewSessionEvent, SessionEvent } from './session-event.ts';

/**
 * Model-based check of the decider: random steps — commands through `decide`, and what the rest of the
 * system does (the person accepting handoffs, agents answering) — appended to a log and folded. Whatever
 * the order, the domain guarantees of record ADR 0008 must hold over the resulting log.
 */
type Step =
  | { readonly kind: 'command'; readonly build: (state: ConversationState) => ConversationCommand }
  | { readonly kind: 'handoff'; readonly command: HandoffCommand; readonly pick: number }
  | { readonly kind: 'answer' };

const agent = fc.constantFrom('criativo', 'po', 'arquiteto');
const actor = fc.constantFrom('user', 'system', 'criativo');
const turnId = fc.constantFrom('t1', 't2', 't3');
const validBrief = { title: 'T', summary: 'S', problem: 'P', audience: 'A', goals: ['G'] };

const commandStep: fc.Arbitrary<Step> = fc
  .oneof(
    fc
      .record({ agent, actor })
      .map(({ agent, actor }) => ({ type: 'ActivateAgent' as const, agent, actor })),
    fc
      .record({
        agent,
        turn_id: turnId,
        kind: fc.constantFrom('message' as const, 'consolidation' as const),
      })
      .map((command) => ({ type: 'StartTurn' as const, ...command })),
    turnId.map((turn_id) => ({ type: 'FailTurn' as const, turn_id, reason: 'x' })),
    actor.map((actor) => ({ type: 'ConfirmReadiness' as const, actor })),
    fc
      .record({
        agent,
        brief: fc.constantFrom<unknown>(validBrief, {}, { ...validBrief, goals: [] }),
      })
      .map(({ agent, brief }) => ({
        type: 'RecordProductBrief' as const,
        agent,
        brief,
      })),
  )
  .map((command) => ({ kind: 'command', build: () => command }));

const offerStep: fc.Arbitrary<Step> = fc
  .record({ from: agent, to: agent, id: fc.constantFrom('h1', 'h2'), latest: fc.boolean() })
  .map(({ from, to, id, latest }) => ({
    kind: 'command',
    build: (state) => ({
      type: 'OfferHandoff',
      handoff_id: id,
      from_agent: from,
      to_agent: to,
      artifact_id: latest ? (state.artifacts.at(-1)?.event_id ?? null) : null,
      actor: 'system',
    }),
  }));

const handoffStep: fc.Arbitrary<Step> = fc
  .record({
    command: fc.constantFrom<HandoffCommand>(
      { type: 'accept', actor: 'user' },
      { type: 'reject', actor: 'user', reason: 'not yet' },
      { type: 'complete', actor: 'po' },
    ),
    pick: fc.nat(),
  })
  .map(({ command, pick }) => ({ kind: 'handoff', command, pick }));

const noiseStep = fc.oneof(
  commandStep,
  offerStep,
  handoffStep,
  fc.constant<Step>({ kind: 'answer' }),
);

const command = (
  built: ConversationCommand | ((state: ConversationState) => ConversationCommand),
): Step => ({
  kind: 'command',
  build: typeof built === 'function' ? built : () => built,
});

/** The record ADR 0008 flow, in order; random noise alone would almost never reach a brief or an activated PO. */
const happyPath: readonly Step[] = [
  command({ type: 'ActivateAgent', agent: 'criativo', actor: 'user' }),
  command({ type: 'StartTurn', agent: 'criativo', turn_id: 't1', kind: 'message' }),
  { kind: 'answer' },
  command({ type: 'ConfirmReadiness', actor: 'user' }),
  command({ type: 'StartTurn', agent: 'criativo', turn_id: 't2', kind: 'consolidation' }),
  command({ type: 'RecordProductBrief', agent: 'criativo', brief: validBrief }),
  { kind: 'answer' },
  command((state) => ({
    type: 'OfferHandoff',
    handoff_id: 'h-po',
    from_agent: 'criativo',
    to_agent: 'po',
    artifact_id: state.product_brief?.event_id ?? null,
    actor: 'system',
  })),
  { kind: 'handoff', command: { type: 'accept', actor: 'user' }, pick: -1 },
  command({ type: 'ActivateAgent', agent: 'po', actor: 'user' }),
];

/**
 * A random subsequence of the happy path (dropped steps exercise the refusals, e.g. a brief without
 * readiness) interleaved with random noise steps.
 */
const stepsArbitrary: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.subarray([...happyPath]),
    fc.array(noiseStep, { maxLength: 30 }),
    fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  )
  .map(([happy, noise, choices]) => {
    const merged: Step[] = [];
    let [h, n] = [0, 0];
    for (const takeHappy of choices) {
      const next = takeHappy ? (happy[h++] ?? noise[n++]) : (noise[n++] ?? happy[h++]);
      if (next !== undefined) merged.push(next);
    }
    return [...merged, ...happy.slice(h), ...noise.slice(n)];
  });

function run(steps: readonly Step[]): SessionEvent[] {
  const log: SessionEvent[] = [];
  let state = initialState();
  const append = (events: readonly NewSessionEvent[]) => {
    for (const event of events) {
      const seq = log.length + 1;
      const stored: SessionEvent = {
        ...event,
        id: eventIdForSeq(seq),
        session_id: 'session-1',
        seq,
        created_at: `t${seq}`,
      };
      log.push(stored);
      state = evolve(state, stored);
    }
  };
  // The session always begins with some event, as in the store (the session exists before its agents).
  append([{ type: 'chat.message', actor: 'user', payload: { v: 1, text: 'idea' } }]);
  for (const step of steps) {
    if (step.kind === 'command') {
      const decision = decide(step.build(state), state);
      if (decision.ok) append(decision.events);
    } else if (step.kind === 'handoff') {
      // pick -1 is the latest handoff; any other number picks among all handoffs of the session.
      const handoff =
        step.pick < 0
          ? state.handoffs.at(-1)
          : state.handoffs[step.pick % Math.max(state.handoffs.length, 1)];
      const moved = handoff === undefined ? undefined : transitionHandoff(handoff, step.command);
      if (moved?.ok) append([moved.event]);
    } else if (state.turns_in_progress.length > 0) {
      const { agent, turn_id } = state.turns_in_progress[0]!;
      append([
        { type: 'agent.response', actor: agent, payload: { v: 1, agent, text: 'answer', turn_id } },
      ]);
    }
  }
  return log;
}

const eventsBefore = (log: readonly SessionEvent[], seq: number) =>
  log.filter((event) => event.seq < seq);
const payloadOf = (event: SessionEvent) => event.payload as Record<string, unknown>;

describe('decide properties over random sessions', () => {
  it('a product brief is appended only after the person confirmed readiness, again only after a rejection', () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const log = run(steps);
        for (const brief of log.filter((event) => event.type === 'artifact.product_brief')) {
          expect(
            eventsBefore(log, brief.seq).some(
              (event) => event.type === 'readiness.confirmed' && event.actor === 'user',
            ),
          ).toBe(true);
        }
        const confirmations = log.filter((event) => event.type === 'readiness.confirmed');
        // Readiness again only after a handoff to the PO was rejected since the last one (ADR 0160).
        confirmations.slice(1).forEach((confirmation, index) => {
          const previous = confirmations[index]!;
          expect(
            log.some(
              (event) =>
                event.type === 'handoff.rejected' &&
                payloadOf(event)['to_agent'] === 'po' &&
                event.seq > previous.seq &&
                event.seq < confirmation.seq,
            ),
          ).toBe(true);
        });
        expect(confirmations.every((event) => event.actor === 'user')).toBe(true);
      }),
    );
  });

  it('an agent is activated only by the person (user-started) or by an accepted handoff addressed to it', () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const log = run(steps);
        for (const activation of log.filter((event) => event.type === 'agent.activated')) {
          const { agent: activated, handoff_id } = payloadOf(activation);
          if (USER_STARTED_AGENTS.has(String(activated))) {
            expect(activation.actor).toBe('user');
            continue;
          }
          const acceptance = eventsBefore(log, activation.seq).find(
            (event) =>
              event.type === 'handoff.accepted' && payloadOf(event)['handoff_id'] === handoff_id,
          );
          expect(acceptance !== undefined && payloadOf(acceptance)['to_agent']).toBe(activated);
        }
      }),
    );
  });

  it("one agent's turns never overlap: every turn.started of an agent follows the end of its previous turn", () => {
    fc.assert(
      fc.property(stepsArbitrary, (steps) => {
        const open = new Map<string, string>();
        for (const event of run(steps)) {
          const { agent, turn_id } = payloadOf(event) as { agent?: string; turn_id?: string };
          if (event.type === 'turn.started') {
            expect(open.has(String(agent))).toBe(false);
            open.set(String(agent), String(turn_id));
          }
          if (event.type === 'agent.response' || event.type === 'turn.failed') {
            for (const [lane, turn] of open) if (turn === turn_id) open.delete(lane);
          }
        }
      }),
    );
  });
});
