import { describe, expect, it } from 'vitest';
import { rehydrate } from '../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../domain/conversation/test-support/build-session-events.ts';
import { pendingLaneWork } from './lane-work.ts';

const activated = (agent: string, handoffId: string | null = null): EventSpec => ({
  type: 'agent.activated',
  actor: 'system',
  payload: { v: 1, agent, handoff_id: handoffId },
});
const message = (to: string): EventSpec => ({
  type: 'chat.message',
  actor: 'user',
  payload: { v: 1, text: 'olá', to },
});
const started = (agent: string, turn = `t-${agent}`, kind = 'message'): EventSpec => ({
  type: 'turn.started',
  actor: agent,
  payload: { v: 1, agent, turn_id: turn, kind },
});
const answer = (agent: string, turn = `t-${agent}`): EventSpec => ({
  type: 'agent.response',
  actor: agent,
  payload: { v: 1, agent, turn_id: turn, text: 'pronto' },
});
const proposed = (agent: string, turn = `t-${agent}`): EventSpec => ({
  type: 'action.proposed',
  actor: agent,
  payload: { v: 1, action_id: 'a1', agent, turn_id: turn, tool: 'run', args: {} },
});
const handoff = (status: 'offered' | 'rejected', id = 'h1'): EventSpec => ({
  type: `handoff.${status}`,
  actor: status === 'offered' ? 'criativo' : 'user',
  payload: {
    v: 1,
    handoff_id: id,
    from_agent: 'criativo',
    to_agent: 'po',
    artifact_id: null,
    status,
    ...(status === 'rejected' ? { reason: 'Falta o preço' } : {}),
  },
});
const work = (specs: EventSpec[], agent = 'criativo') => {
  const events = buildSessionEvents('s1', specs);
  return pendingLaneWork(rehydrate(events), events, agent, () => true);
};

describe('pendingLaneWork: what a lane owes, from the log', () => {
  it('goes on with a turn in progress, and owes nothing once it is answered', () => {
    expect(work([activated('criativo'), message('criativo'), started('criativo')])).toEqual({
      kind: 'continue',
    });
    expect(
      work([activated('criativo'), message('criativo'), started('criativo'), answer('criativo')]),
    ).toBeNull();
  });

  it('starts a turn for a message after the last turn started, not for one already answered', () => {
    const answered = [
      activated('criativo'),
      message('criativo'),
      started('criativo'),
      answer('criativo'),
    ];
    expect(work([...answered, message('criativo')])).toEqual({ kind: 'start' });
    expect(work([...answered, message('po')])).toBeNull();
  });

  it('leaves a turn waiting for the person alone, and closes an open consolidation', () => {
    expect(work([activated('po'), message('po'), started('po'), proposed('po')], 'po')).toBeNull();
    expect(
      work([
        activated('criativo'),
        message('criativo'),
        started('criativo', 'c1', 'consolidation'),
      ]),
    ).toEqual({ kind: 'close_interrupted', turn_id: 'c1' });
  });

  it('owes a kickoff to an agent activated by a handoff that has had no turn', () => {
    expect(work([activated('criativo'), activated('po', 'h1')], 'po')).toEqual({ kind: 'start' });
  });

  it('owes the sender a turn for a rejection of its handoff newer than its last turn, once', () => {
    const offered = [
      activated('criativo'),
      message('criativo'),
      started('criativo'),
      answer('criativo'),
      handoff('offered'),
    ];
    expect(work([...offered, handoff('rejected')])).toEqual({ kind: 'start' });
    expect(
      work([...offered, handoff('rejected'), started('criativo', 't2'), answer('criativo', 't2')]),
    ).toBeNull();
    // Offered again: the rejection is answered. Not the sender: nothing owed. No runtime here: not this process's.
    expect(work([...offered, handoff('rejected'), handoff('offered', 'h2')])).toBeNull();
    expect(work([...offered, handoff('rejected')], 'po')).toBeNull();
    const events = buildSessionEvents('s1', [...offered, handoff('rejected')]);
    expect(pendingLaneWork(rehydrate(events), events, 'criativo', () => false)).toBeNull();
  });
});

describe('pendingLaneWork with a question for the person', () => {
  const asked: EventSpec = {
    type: 'person.asked',
    actor: 'po',
    payload: {
      v: 1,
      question_id: 'q1',
      tool_call_id: 'c1',
      agent: 'po',
      turn_id: 't-po',
      question: 'Preço?',
    },
  };
  const answered: EventSpec = {
    type: 'person.answered',
    actor: 'user',
    payload: { v: 1, question_id: 'q1', agent: 'po', answer: 'R$ 30', decide_yourself: false },
  };

  it('owes nothing while the question waits, and goes on once it is answered', () => {
    const waiting = [activated('po'), started('po'), asked];
    expect(work(waiting, 'po')).toBeNull();
    expect(work([...waiting, answered], 'po')).toEqual({ kind: 'continue' });
  });
});
