import { describe, expect, it } from 'vitest';
import { initialState } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { AppendConflictError, appendedOrThrow } from '../store/index.ts';
import { retryOnStaleView, STALE_VIEW_ATTEMPTS } from './expected-version.ts';

const conflict = (message: string) =>
  new AppendConflictError({
    kind: 'expected_seq_conflict',
    sessionId: 's',
    expectedSeq: 1,
    actualSeq: 2,
    message,
  });

/** Only `views.load` is used: each load is a newer view (the seq a lane moved the session to). */
function dependenciesWithMovingSession() {
  let loads = 0;
  const views = {
    load: async () => ({ state: { ...initialState(), last_seq: ++loads }, events: [] }),
  };
  return { dependencies: { views } as unknown as ConversationDependencies, loads: () => loads };
}

describe('a session-wide operation with an expected version', () => {
  it('decides again on a newer view when a lane appended in between, and acts once', async () => {
    const { dependencies, loads } = dependenciesWithMovingSession();
    const seen: number[] = [];
    const result = await retryOnStaleView(
      dependencies,
      's',
      'accepting the handoff',
      async (view) => {
        seen.push(view.state.last_seq);
        if (seen.length < 3)
          throw conflict(
            `Session s is at seq ${view.state.last_seq + 1}, not the expected ${view.state.last_seq}`,
          );
        return { ok: true as const, decidedAt: view.state.last_seq };
      },
    );
    expect(result).toEqual({ ok: true, decidedAt: 3 });
    expect(seen).toEqual([1, 2, 3]);
    expect(loads()).toBe(3);
  });

  it('refuses with the reason after too many attempts, and lets other errors through', async () => {
    const { dependencies } = dependenciesWithMovingSession();
    const refused = await retryOnStaleView(dependencies, 's', 'accepting the handoff', async () => {
      throw conflict('Session s moved on');
    });
    expect(refused).toEqual({
      ok: false,
      status: 409,
      code: 'conflict',
      message: `accepting the handoff was decided ${STALE_VIEW_ATTEMPTS} times while the session kept moving (Session s moved on); nothing was done, try again.`,
    });
    await expect(
      retryOnStaleView(dependencies, 's', 'x', async () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
  });

  it('turns an append outcome into its events, a conflict into AppendConflictError, a missing session into an error', () => {
    expect(appendedOrThrow({ success: true, events: [], lastSeq: 3 })).toEqual({
      success: true,
      events: [],
      lastSeq: 3,
    });
    expect(() =>
      appendedOrThrow({
        success: false,
        error: {
          kind: 'expected_seq_conflict',
          sessionId: 's',
          expectedSeq: 2,
          actualSeq: 3,
          message: 'moved',
        },
      }),
    ).toThrow(AppendConflictError);
    expect(() =>
      appendedOrThrow({
        success: false,
        error: { kind: 'session_not_found', sessionId: 's', message: 'No session' },
      }),
    ).toThrow('No session');
  });
});
