import { describe, expect, it } from 'vitest';
import type { SessionEvent } from './session-event.ts';
import { foldTurnTrace, TRACE_TEXT_CHARACTERS } from './turn-trace.ts';

let seq = 0;
const at = (second: number) => `2026-12-02T10:00:${String(second).padStart(2, '0')}.000Z`;
const event = (type: string, actor: string, payload: object, second: number): SessionEvent => ({
  id: `e${++seq}`,
  session_id: 's',
  seq,
  type,
  actor,
  payload: { v: 1, ...payload },
  created_at: at(second),
});

const A = { agent: 'dev:api', turn_id: 't1' };
const log = (): SessionEvent[] => {
  seq = 0;
  return [
    event('chat.message', 'user', { text: 'vai' }, 0),
    event('turn.started', 'dev:api', A, 1),
    event('turn.started', 'po', { agent: 'po', turn_id: 't2' }, 1),
    event(
      'agent.response',
      'dev:api',
      {
        ...A,
        text: '',
        usage_id: 'u1',
        tool_calls: [{ id: 'c1', name: 'terminal', arguments: { command: 'ls' } }],
      },
      3,
    ),
    event('artifact.module_contracts', 'dev:api', { data: {} }, 7),
    event(
      'tool.completed',
      'dev:api',
      {
        ...A,
        tool_call_id: 'c1',
        tool: 'terminal',
        args: { command: 'ls' },
        ok: true,
        result: 'x'.repeat(TRACE_TEXT_CHARACTERS + 10),
      },
      7,
    ),
    event('agent.response', 'po', { agent: 'po', turn_id: 't2', text: 'oi', usage_id: 'u9' }, 8),
    event('agent.response', 'dev:api', { ...A, text: 'pronto', usage_id: 'u2' }, 9),
    event('chat.message', 'user', { text: 'e agora' }, 10),
  ];
};

describe('a turn folded from the log', () => {
  it('gives its model calls, its tool calls timed from the event before them, its events, its end', () => {
    const trace = foldTurnTrace(log(), 't1');
    expect(trace).toMatchObject({
      turn_id: 't1',
      agent: 'dev:api',
      status: 'answered',
      started_at: at(1),
      ended_at: at(9),
      usage_ids: ['u1', 'u2'],
    });
    expect(trace!.tools).toEqual([
      expect.objectContaining({
        tool: 'terminal',
        args: '{"command":"ls"}',
        ok: true,
        started_at: at(3),
        ended_at: at(7),
        result_characters: TRACE_TEXT_CHARACTERS + 10,
      }),
    ]);
    expect(trace!.tools[0]!.result.length).toBe(TRACE_TEXT_CHARACTERS + 1);
    // Its own events and what its agent appended while it ran; not the other lane's, not the next message.
    expect(trace!.events.map((e) => e.type)).toEqual([
      'turn.started',
      'agent.response',
      'artifact.module_contracts',
      'tool.completed',
      'agent.response',
    ]);
  });

  it('is running until it ends, failed when it fails, and null for a turn the log does not know', () => {
    const running = log().slice(0, 6);
    expect(foldTurnTrace(running, 't1')).toMatchObject({ status: 'running', ended_at: null });
    const failed = [
      ...running,
      event('turn.failed', 'system', { ...A, reason: 'x', message: 'y' }, 8),
    ];
    expect(foldTurnTrace(failed, 't1')).toMatchObject({ status: 'failed', ended_at: at(8) });
    expect(foldTurnTrace(log(), 'nope')).toBeNull();
  });
});
