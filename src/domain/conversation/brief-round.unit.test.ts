import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transitionHandoff } from '../handoffs/transition-handoff.ts';
import { briefRound, readinessOpen } from './brief-round.ts';
import type { ConversationCommand } from './commands.ts';
import type { ConversationState } from './conversation-state.ts';
import { initialState } from './conversation-state.ts';
import { decide } from './decide.ts';
import { evolve } from './evolve.ts';
import type { NewSessionEvent, SessionEvent } from './session-event.ts';
import { eventIdForSeq } from './test-support/build-session-events.ts';

const brief = { title: 'T', summary: 'S', problem: 'P', audience: 'A', goals: ['G'] };

/** A session log built through `decide` and the handoff rule, as the use cases build it. */
function session() {
  const log: SessionEvent[] = [];
  let state: ConversationState = initialState();
  const append = (events: readonly NewSessionEvent[]) => {
    for (const event of events) {
      const seq = log.length + 1;
      const stored = {
        ...event,
        id: eventIdForSeq(seq),
        session_id: 's-1',
        seq,
        created_at: `t${seq}`,
      };
      log.push(stored);
      state = evolve(state, stored);
    }
  };
  const run = (command: ConversationCommand) => {
    const decision = decide(command, state);
    if (decision.ok) append(decision.events);
    return decision;
  };
  let handoffs = 0;
  const api = {
    log,
    state: () => state,
    run,
    confirm: () => run({ type: 'ConfirmReadiness', actor: 'user' }),
    record: (data: unknown = brief) =>
      run({ type: 'RecordProductBrief', agent: 'criativo', brief: data }),
    offer: () => {
      handoffs += 1;
      return run({
        type: 'OfferHandoff',
        handoff_id: `h-${handoffs}`,
        from_agent: 'criativo',
        to_agent: 'po',
        artifact_id: state.product_brief?.event_id ?? null,
        actor: 'system',
      });
    },
    move: (type: 'accept' | 'reject') => {
      const handoff = state.handoffs.at(-1);
      if (handoff === undefined) return null;
      const moved = transitionHandoff(
        handoff,
        type === 'reject'
          ? { type, actor: 'user', reason: 'pricing is open' }
          : { type, actor: 'user' },
      );
      if (moved.ok) append([moved.event]);
      return moved;
    },
  };
  append([
    {
      type: 'agent.activated',
      actor: 'user',
      payload: { v: 1, agent: 'criativo', handoff_id: null },
    },
  ]);
  return api;
}

describe('readiness again after the PO handoff is rejected', () => {
  it('walks ideation → consolidating → handed over → rejected → consolidating v2', () => {
    const line = session();
    expect(briefRound(line.state())).toEqual({ stage: 'ideation' });
    expect(line.confirm().ok).toBe(true);
    expect(briefRound(line.state())).toEqual({
      stage: 'consolidating',
      readiness_seq: 2,
      next_version: 1,
    });
    expect(line.record().ok).toBe(true);
    expect(line.offer().ok).toBe(true);
    expect(briefRound(line.state())).toMatchObject({
      stage: 'handed_over',
      brief: { seq: 3, data: { version: 1 } },
      handoff: { id: 'h-1', status: 'offered' },
    });
    expect(readinessOpen(briefRound(line.state()))).toBe(false);
    expect(line.confirm()).toEqual({
      ok: false,
      reason:
        "readiness was already confirmed in this session (seq 2); the product brief v1 is offered (handoff h-1), and readiness is confirmed again only after the PO's handoff is rejected",
    });

    expect(line.move('reject')?.ok).toBe(true);
    expect(briefRound(line.state())).toMatchObject({ stage: 'rejected', handoff: { id: 'h-1' } });
    expect(readinessOpen(briefRound(line.state()))).toBe(true);
    expect(line.confirm().ok).toBe(true);
    expect(briefRound(line.state())).toEqual({
      stage: 'consolidating',
      readiness_seq: 6,
      next_version: 2,
    });
    // The model writing a version of its own changes nothing: the version is the system's.
    expect(line.record({ ...brief, title: 'T2', version: 7 })).toMatchObject({
      ok: true,
      events: [{ payload: { data: { title: 'T2', version: 2 } } }],
    });
    const state = line.state();
    expect(state.product_brief).toMatchObject({ seq: 7, data: { version: 2, title: 'T2' } });
    expect(state.product_briefs.map((each) => [each.data.version, each.data.title])).toEqual([
      [1, 'T'],
      [2, 'T2'],
    ]);
    expect(line.offer().ok).toBe(true);
    expect(line.move('accept')?.ok).toBe(true);
    expect(line.confirm()).toMatchObject({
      ok: false,
      reason: expect.stringContaining('v2 is accepted'),
    });
  });

  it('records one brief per confirmation: a second brief of the same round is refused', () => {
    const line = session();
    line.confirm();
    line.record();
    expect(line.record()).toEqual({
      ok: false,
      reason:
        "the product brief v1 was already consolidated after the latest readiness (seq 2); a new version needs readiness confirmed again, after the PO's handoff is rejected",
    });
  });

  it('keeps readiness closed while the brief was never offered to the PO', () => {
    const line = session();
    line.confirm();
    line.record();
    expect(briefRound(line.state())).toMatchObject({ stage: 'handed_over', handoff: null });
    expect(line.confirm()).toMatchObject({
      ok: false,
      reason: expect.stringContaining('has no handoff to the PO'),
    });
  });

  it('reads a brief from before versions as v1, the current one being the highest version', () => {
    const line = session();
    line.confirm();
    line.record();
    line.offer();
    line.move('reject');
    line.confirm();
    line.record({ ...brief, title: 'second' });
    const [v1, v2] = line.state().product_briefs;
    expect([v1!.data.version, v2!.data.version]).toEqual([1, 2]);
  });
});

type Step = 'confirm' | 'record' | 'offer' | 'accept' | 'reject' | 'bad-brief';

describe('readiness and briefs over random sessions', () => {
  const steps = fc.array(
    fc.constantFrom<Step>('confirm', 'record', 'offer', 'accept', 'reject', 'bad-brief'),
    { maxLength: 40 },
  );
  const play = (plan: readonly Step[]) => {
    const line = session();
    for (const step of plan) {
      if (step === 'confirm') line.confirm();
      else if (step === 'record') line.record();
      else if (step === 'bad-brief') line.record({ ...brief, goals: [] });
      else if (step === 'offer') line.offer();
      else line.move(step);
    }
    return line;
  };

  it('readiness and briefs alternate, each new readiness after a rejection of the brief before it, versions 1, 2, 3 …', () => {
    fc.assert(
      fc.property(steps, (plan) => {
        const { log, state } = play(plan);
        const rounds = log.filter(
          (event) =>
            event.type === 'readiness.confirmed' || event.type === 'artifact.product_brief',
        );
        rounds.forEach((event, index) =>
          expect(event.type).toBe(
            index % 2 === 0 ? 'readiness.confirmed' : 'artifact.product_brief',
          ),
        );
        const briefs = rounds.filter((event) => event.type === 'artifact.product_brief');
        briefs.forEach((event, index) =>
          expect((event.payload as { data: { version: number } }).data.version).toBe(index + 1),
        );
        // Every confirmation after the first follows a rejection of the handoff of the brief before it.
        rounds.forEach((event, index) => {
          if (event.type !== 'readiness.confirmed' || index === 0) return;
          const previousBrief = rounds[index - 1]!;
          const rejected = log.some(
            (candidate) =>
              candidate.type === 'handoff.rejected' &&
              candidate.seq > previousBrief.seq &&
              candidate.seq < event.seq &&
              (candidate.payload as { artifact_id: string }).artifact_id === previousBrief.id,
          );
          expect(rejected).toBe(true);
        });
        expect(state().product_brief?.data.version ?? 0).toBe(briefs.length);
        expect(state().product_briefs).toHaveLength(briefs.length);
      }),
    );
  });

  it('the readiness button is open exactly when a confirmation would be accepted', () => {
    fc.assert(
      fc.property(steps, (plan) => {
        const line = play(plan);
        const open = readinessOpen(briefRound(line.state()));
        expect(line.confirm().ok).toBe(open);
      }),
    );
  });
});
