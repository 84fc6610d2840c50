import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { addressMessage } from '../../web/src/session/chat/address-message.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';

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
const activated = (agent: string, handoff_id: string | null = null): [string, unknown] => [
  'agent.activated',
  { v: 1, agent, handoff_id },
];
const started = (agent: string, turn_id: string): [string, unknown] => [
  'turn.started',
  { v: 1, agent, turn_id, kind: 'message' },
];

describe('lanes on the session page', () => {
  it('gives each active agent a status: working, waiting for you, blocked, idle or done — idle is never done', () => {
    const view = foldSession(
      log(
        activated('criativo'),
        activated('po', 'h1'),
        [
          'handoff.completed',
          {
            v: 1,
            handoff_id: 'h1',
            from_agent: 'criativo',
            to_agent: 'po',
            artifact_id: null,
            status: 'completed',
          },
        ],
        activated('dev:api', 'h2'),
        activated('dev:web', 'h3'),
        activated('dev:db', 'h4'),
        activated('dev:auth', 'h5'),
        started('dev:api', 't1'),
        started('dev:web', 't2'),
        [
          'action.proposed',
          { v: 1, action_id: 'a1', agent: 'dev:web', turn_id: 't2', tool: 'terminal', args: {} },
          'dev:web',
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:db',
            turn_id: 't3',
            tool_call_id: 'c1',
            tool: 'report_blocked',
            args: { modulo: 'auth', falta: 'checkSession' },
            ok: true,
            result: 'ok',
          },
          'dev:db',
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:auth',
            turn_id: 't4',
            tool_call_id: 'c2',
            tool: 'finish_task',
            args: { task_id: 'AT-1' },
            ok: true,
            result: 'ok',
          },
          'dev:auth',
        ],
      ),
    );
    expect(view.lanes).toEqual([
      { agent: 'criativo', status: 'idle' },
      { agent: 'po', status: 'done' },
      { agent: 'dev:api', status: 'working' },
      { agent: 'dev:web', status: 'waiting' },
      { agent: 'dev:db', status: 'blocked' },
      { agent: 'dev:auth', status: 'done' },
    ]);
  });

  it('shows who a message was for, and the addressee as the server picks it: last written to, unless an agent joined since', () => {
    const talking = log(activated('criativo'), activated('po', 'h1'), [
      'chat.message',
      { v: 1, text: 'back to you', to: 'criativo' },
      'user',
    ]);
    expect(foldSession(talking).addressee).toBe('criativo');
    expect(foldSession(talking).chat.at(-1)).toMatchObject({
      kind: 'user',
      text: 'back to you',
      to: 'criativo',
    });
    expect(
      foldSession([
        ...talking,
        ...log(activated('arquiteto', 'h2')).map((event) => ({ ...event, seq: 4 })),
      ]).addressee,
    ).toBe('arquiteto');
    expect(
      foldSession(
        log(activated('criativo'), [
          'chat.message',
          { v: 1, text: 'old log, no addressee' },
          'user',
        ]),
      ).chat.at(-1),
    ).toMatchObject({ to: null });
  });

  it('reads @slug at the start of a message as the addressee when that agent is active', () => {
    const active = ['criativo', 'dev:web'];
    expect(addressMessage('@dev:web does it validate?', null, active)).toEqual({
      text: 'does it validate?',
      to: 'dev:web',
    });
    expect(addressMessage('@po are you there?', 'criativo', active)).toEqual({
      text: '@po are you there?',
      to: 'criativo',
    });
    expect(addressMessage('no prefix', 'dev:web', active)).toEqual({
      text: 'no prefix',
      to: 'dev:web',
    });
    expect(addressMessage('@criativo', null, active)).toEqual({ text: '@criativo', to: null });
  });
});
