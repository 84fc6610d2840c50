import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { answerVersions } from '../../web/src/session/answer-versions.ts';

let seq = 0;
const event = (type: string, payload: Record<string, unknown>): StoredEvent =>
  ({
    id: `e${++seq}`,
    seq,
    session_id: 's',
    type,
    actor: 'criativo',
    payload: { v: 1, agent: 'criativo', ...payload },
    created_at: '2026-12-02T00:00:00Z',
  }) as unknown as StoredEvent;

describe('the versions of a regenerated answer, from the log', () => {
  it('keeps each superseded answer as an earlier version of the answer that replaced it', () => {
    seq = 0;
    const events = [
      event('turn.started', { turn_id: 't1', kind: 'message' }),
      event('agent.response', { turn_id: 't1', text: 'First.', tool_calls: [] }),
      event('answer.superseded', { turn_id: 't1', event_id: 'e2', by: 'person' }),
      event('turn.started', { turn_id: 't2', kind: 'message', regenerates: 't1' }),
      event('agent.response', { turn_id: 't2', text: 'Second.', tool_calls: [] }),
      event('answer.superseded', { turn_id: 't2', event_id: 'e5', by: 'person' }),
      event('turn.started', { turn_id: 't3', kind: 'message', regenerates: 't2' }),
      event('agent.response', { turn_id: 't3', text: 'Third.', tool_calls: [] }),
    ];
    const versions = answerVersions(events);
    expect([...versions.keys()]).toEqual(['e8']);
    expect(versions.get('e8')!.map((version) => version.text)).toEqual([
      'First.',
      'Second.',
      'Third.',
    ]);
  });

  it('has nothing for an answer never regenerated, nor while the new answer is still coming', () => {
    seq = 0;
    const events = [
      event('turn.started', { turn_id: 't1', kind: 'message' }),
      event('agent.response', { turn_id: 't1', text: 'Only.', tool_calls: [] }),
      event('turn.started', { turn_id: 't5', kind: 'message' }),
      event('agent.response', { turn_id: 't5', text: 'Old.', tool_calls: [] }),
      event('answer.superseded', { turn_id: 't5', event_id: 'e4', by: 'person' }),
      event('turn.started', { turn_id: 't6', kind: 'message', regenerates: 't5' }),
    ];
    expect(answerVersions(events).size).toBe(0);
  });

  it('counts a stopped answer with words as a version', () => {
    seq = 0;
    const events = [
      event('turn.started', { turn_id: 't1', kind: 'message' }),
      event('turn.stopped', { turn_id: 't1', text: 'Half an', by: 'person' }),
      event('answer.superseded', { turn_id: 't1', event_id: 'e2', by: 'person' }),
      event('turn.started', { turn_id: 't2', kind: 'message', regenerates: 't1' }),
      event('agent.response', { turn_id: 't2', text: 'A whole answer.', tool_calls: [] }),
    ];
    expect(
      answerVersions(events)
        .get('e5')!
        .map((version) => version.text),
    ).toEqual(['Half an', 'A whole answer.']);
  });
});
