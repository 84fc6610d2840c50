import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { needsYouCount, pageTitle } from '../../web/src/session/fold/needs-you.ts';

function log(...events: Array<[type: string, payload: unknown, actor?: string]>): StoredEvent[] {
  return events.map(([type, payload, actor = 'system'], index) => ({
    id: `event-${index + 1}`,
    session_id: 'session',
    seq: index + 1,
    type,
    actor,
    payload,
    created_at: '2026-01-01T00:00:00Z',
  }));
}

const HANDOFF = {
  v: 1,
  handoff_id: 'h1',
  from_agent: 'criativo',
  to_agent: 'po',
  artifact_id: 'event-1',
};
const PROPOSED = {
  v: 1,
  action_id: 'a1',
  tool_call_id: 'c1',
  agent: 'dev:api',
  tool: 'terminal',
  args: { command: 'npm test' },
};

describe('what needs the person', () => {
  it('counts an action to approve, a handoff to accept and a failed turn not answered since; the tab title leads with it', () => {
    const events = log(
      ['handoff.offered', { ...HANDOFF, status: 'offered' }],
      ['action.proposed', PROPOSED, 'dev:api'],
      [
        'turn.failed',
        { v: 1, agent: 'po', turn_id: 't1', reason: 'provider_error', message: 'boom' },
        'po',
      ],
    );
    expect(needsYouCount(foldSession(events))).toBe(3);
    expect(pageTitle(3)).toBe('(3) Forja');
    expect(pageTitle(0)).toBe('Forja');

    const settled = [
      ...events,
      ...log(
        ['handoff.accepted', { ...HANDOFF, status: 'accepted' }],
        ['action.approved', { v: 1, action_id: 'a1' }, 'user'],
        ['agent.response', { v: 1, agent: 'po', text: 'Back on track.', turn_id: 't2' }, 'po'],
      ).map((event, index) => ({ ...event, seq: 4 + index, id: `event-${4 + index}` })),
    ];
    expect(needsYouCount(foldSession(settled))).toBe(0);
  });
});
