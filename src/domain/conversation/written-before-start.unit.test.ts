import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from './test-support/build-session-events.ts';
import { rehydrate } from './rehydrate.ts';
import { writtenBeforeStart } from './written-before-start.ts';

const given = (specs: Parameters<typeof buildSessionEvents>[1]) =>
  rehydrate(buildSessionEvents('session-1', specs));
const message = (text: string, to?: string) => ({
  type: 'chat.message',
  actor: 'user',
  payload: { v: 1, text, ...(to === undefined ? {} : { to }) },
});
const activated = (agent: string, handoff_id: string | null = null) => ({
  type: 'agent.activated',
  actor: handoff_id === null ? 'user' : 'system',
  payload: { v: 1, agent, handoff_id },
});
const seqs = (state: ReturnType<typeof given>, agent: string) =>
  writtenBeforeStart(state, agent).map((entry) => entry.seq);

describe('what the person wrote before starting an agent', () => {
  it("is the person's messages in its lane before its activation", () => {
    expect(
      seqs(
        given([message('Pão de madrugada'), message('por assinatura'), activated('criativo')]),
        'criativo',
      ),
    ).toEqual([1, 2]);
  });

  it('is nothing when nothing was written, the agent is not active, or it came by a handoff', () => {
    expect(seqs(given([activated('criativo')]), 'criativo')).toEqual([]);
    expect(seqs(given([message('oi')]), 'criativo')).toEqual([]);
    expect(seqs(given([message('oi'), activated('po', 'handoff-1')]), 'po')).toEqual([]);
  });

  it('is nothing once the agent has answered or the person wrote to it since it started', () => {
    const answered = given([
      message('oi'),
      activated('criativo'),
      {
        type: 'turn.started',
        payload: { v: 1, agent: 'criativo', turn_id: 't1', kind: 'message' },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 't1', text: 'Olá!' },
      },
    ]);
    expect(seqs(answered, 'criativo')).toEqual([]);
    expect(
      seqs(given([message('oi'), activated('criativo'), message('e então?')]), 'criativo'),
    ).toEqual([]);
  });
});
