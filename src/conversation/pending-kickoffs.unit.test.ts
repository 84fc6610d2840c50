import { describe, expect, it } from 'vitest';
import { rehydrate } from '../domain/conversation/index.ts';
import {
  buildSessionEvents,
  type EventSpec,
} from '../domain/conversation/test-support/build-session-events.ts';
import { pendingKickoffs } from './pending-kickoffs.ts';

const activated = (agent: string, handoffId: string | null): EventSpec => ({
  type: 'agent.activated',
  actor: 'system',
  payload: { v: 1, agent, handoff_id: handoffId },
});
const started = (agent: string): EventSpec => ({
  type: 'turn.started',
  actor: agent,
  payload: { v: 1, agent, turn_id: `t-${agent}`, kind: 'message' },
});
const pending = (specs: EventSpec[], runtimes = ['criativo', 'po', 'dev:a', 'dev:b']) => {
  const events = buildSessionEvents('s1', specs);
  return pendingKickoffs(rehydrate(events), events, (agent) => runtimes.includes(agent));
};

describe('pendingKickoffs', () => {
  it('lists agents activated by a handoff that have had no turn since, in activation order', () => {
    expect(
      pending([
        activated('criativo', null),
        started('criativo'),
        activated('dev:b', 'h2'),
        activated('dev:a', 'h1'),
      ]),
    ).toEqual(['dev:b', 'dev:a']);
  });

  it('forgets an agent once its turn started, and never lists the user-started Criativo', () => {
    expect(pending([activated('criativo', null), activated('po', 'h1'), started('po')])).toEqual(
      [],
    );
  });

  it('skips agents this process has no runtime for', () => {
    expect(pending([activated('ux-designer', 'h1')])).toEqual([]);
  });
});
