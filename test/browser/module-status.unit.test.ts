import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { moduleStatus } from '../../web/src/production/module-status.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import type { DevProgress } from '../../web/src/session/fold/session-view.ts';

const dev = (overrides: Partial<DevProgress> = {}): DevProgress => ({
  agent: 'dev:api',
  module: 'api',
  activeSince: 3,
  finished: [],
  blocks: [],
  lastSaid: null,
  failures: 0,
  ...overrides,
});

describe("a module's status on the map", () => {
  it("takes the line's state, says 'not started' for a dev not active yet and 'checking' while its check runs", () => {
    expect(
      moduleStatus({ lineState: 'working', dev: undefined, checking: false, openBlocks: 0 }),
    ).toBe('notStarted');
    expect(moduleStatus({ lineState: 'working', dev: dev(), checking: false, openBlocks: 0 })).toBe(
      'working',
    );
    expect(moduleStatus({ lineState: 'working', dev: dev(), checking: true, openBlocks: 0 })).toBe(
      'checking',
    );
    expect(moduleStatus({ lineState: 'finished', dev: dev(), checking: true, openBlocks: 0 })).toBe(
      'checking',
    );
    for (const state of ['blocked', 'finished', 'conflict', 'failed'] as const)
      expect(moduleStatus({ lineState: state, dev: dev(), checking: false, openBlocks: 0 })).toBe(
        state,
      );
    expect(moduleStatus({ lineState: 'merged', dev: dev(), checking: true, openBlocks: 0 })).toBe(
      'merged',
    );
  });

  it("falls back to the log's part until the line answers, and ignores a state it does not know", () => {
    expect(moduleStatus({ lineState: null, dev: dev(), checking: false, openBlocks: 1 })).toBe(
      'blocked',
    );
    // A block the log has and the line's last answer had not yet.
    expect(moduleStatus({ lineState: 'working', dev: dev(), checking: false, openBlocks: 1 })).toBe(
      'blocked',
    );
    expect(moduleStatus({ lineState: 'merged', dev: dev(), checking: false, openBlocks: 1 })).toBe(
      'merged',
    );
    const finished = dev({ finished: [{ seq: 12, taskId: 'AT-1', summary: null, commit: null }] });
    expect(moduleStatus({ lineState: null, dev: finished, checking: false, openBlocks: 0 })).toBe(
      'finished',
    );
    expect(
      moduleStatus({ lineState: 'from-the-future', dev: dev(), checking: false, openBlocks: 0 }),
    ).toBe('working');
  });

  it('folds a finish_task in flight as checking, until its result or a failed turn', () => {
    const event = (seq: number, type: string, payload: unknown): StoredEvent => ({
      id: `e${seq}`,
      session_id: 's',
      seq,
      type,
      actor: 'dev:api',
      payload,
      created_at: '2026-01-01T00:00:00Z',
    });
    const calling = [
      event(1, 'turn.started', { v: 1, agent: 'dev:api', turn_id: 't1', kind: 'message' }),
      event(2, 'agent.response', {
        v: 1,
        agent: 'dev:api',
        turn_id: 't1',
        text: '',
        tool_calls: [{ id: 'c1', name: 'finish_task', arguments: { task_id: 'AT-1' } }],
      }),
    ];
    expect(foldSession(calling).checking).toEqual(['dev:api']);
    const done = [
      ...calling,
      event(3, 'tool.completed', {
        v: 1,
        agent: 'dev:api',
        turn_id: 't1',
        tool_call_id: 'c1',
        tool: 'finish_task',
        args: { task_id: 'AT-1' },
        ok: true,
        result: 'Committed.',
      }),
    ];
    expect(foldSession(done).checking).toEqual([]);
    const failed = [
      ...calling,
      event(3, 'turn.failed', {
        v: 1,
        agent: 'dev:api',
        turn_id: 't1',
        reason: 'crash',
        message: 'x',
      }),
    ];
    expect(foldSession(failed).checking).toEqual([]);
  });
});
