import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../domain/conversation/index.ts';
import { lineModules, mergeIntoMainDecision } from './line-events.ts';

const DEV = 'a'.repeat(40);
const event = (seq: number, type: string, payload: Record<string, unknown>): SessionEvent =>
  ({
    id: `e${seq}`,
    session_id: 's',
    seq,
    type,
    actor: 'system',
    payload: { v: 1, ...payload },
    created_at: new Date(0).toISOString(),
  }) as unknown as SessionEvent;

describe('mergeIntoMainDecision', () => {
  it('refuses before line.completed, naming the rule', () => {
    expect(mergeIntoMainDecision([event(1, 'module.merged', { module: 'a' })])).toMatchObject({
      ok: false,
      code: 'line_not_completed',
      message: expect.stringContaining('main takes dev only after line.completed'),
    });
  });

  it("allows it after line.completed, with that event's dev commit (the last one)", () => {
    expect(
      mergeIntoMainDecision([
        event(1, 'line.completed', { commit: 'b'.repeat(40), modules: ['api'] }),
        event(2, 'line.completed', { commit: DEV, modules: ['api'] }),
      ]),
    ).toEqual({ ok: true, devCommit: DEV });
  });

  it('refuses a second time, naming the first merge', () => {
    expect(
      mergeIntoMainDecision([
        event(1, 'line.completed', { commit: DEV, modules: ['api'] }),
        event(2, 'line.merged_into_main', {
          commit: 'c'.repeat(40),
          dev_commit: DEV,
          actor: 'ana',
        }),
      ]),
    ).toMatchObject({
      ok: false,
      code: 'already_merged_into_main',
      message: expect.stringContaining(`seq 2 (main's merge commit ${'c'.repeat(40)})`),
    });
  });
});

describe('lineModules', () => {
  it("says not_started until the module's dev is activated, then working, blocked, finished", () => {
    const activated = event(1, 'agent.activated', { agent: 'dev:api', handoff_id: 'h' });
    const states = (events: SessionEvent[], blocks = 0) =>
      lineModules(events, ['api', 'web'], (module) => (module === 'api' ? blocks : 0)).map(
        (line) => [line.module, line.state],
      );
    expect(states([])).toEqual([
      ['api', 'not_started'],
      ['web', 'not_started'],
    ]);
    expect(states([activated])).toEqual([
      ['api', 'working'],
      ['web', 'not_started'],
    ]);
    expect(states([activated], 1)[0]).toEqual(['api', 'blocked']);
    const finished = event(2, 'dev.task_finished', {
      agent: 'dev:api',
      module: 'api',
      task_id: 'AT-1',
      summary: 'done',
      branch: 'dev-api',
      commit: DEV,
      files: ['src/api.ts'],
    });
    expect(states([activated, finished])[0]).toEqual(['api', 'finished']);
  });
});
