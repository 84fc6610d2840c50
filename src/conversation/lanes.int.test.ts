import { afterEach, describe, expect, it } from 'vitest';
import {
  endsTurn,
  rehydrate,
  type SessionEvent,
  TURN_ENDING_TYPES,
} from '../domain/conversation/index.ts';
import type { ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines, type TestDatabaseEngine } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { parallelLineScript, parallelModules } from './testing/parallel-line-script.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { startLine as startSharedLine } from './testing/start-line.ts';

const DEV_DELAY_MS = 1500;

/** A line whose turns run at most `maxParallelTurns` at once. */
const startLine = (engine: TestDatabaseEngine, script: ScriptInput, maxParallelTurns: number) =>
  startSharedLine(engine, script, { FORJA_MAX_PARALLEL_TURNS: String(maxParallelTurns) });

const agentOf = (event: SessionEvent) => (event.payload as { agent?: string }).agent;
const seqOf = (log: readonly SessionEvent[], type: string, agent: string) =>
  log.filter((event) => event.type === type && agentOf(event) === agent).map((event) => event.seq);

/**
 * The log is 1..n without a gap, folds with nothing skipped and no turn left open, and each lane reads in order
 * (a turn ends as `endsTurn` says).
 */
function expectWellFormed(log: readonly SessionEvent[]) {
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
  const state = rehydrate(log);
  expect(state.skipped).toEqual([]);
  expect(state.turns_in_progress).toEqual([]);
  for (const agent of new Set(log.filter((event) => event.type === 'turn.started').map(agentOf))) {
    const lane = log.filter(
      (event) =>
        agentOf(event) === agent &&
        ['turn.started', 'agent.response', 'tool.completed', ...TURN_ENDING_TYPES].includes(
          event.type,
        ),
    );
    // Every turn of the lane: started, then its events, then its end, before the lane's next turn starts.
    let open: string | null = null;
    for (const event of lane) {
      const turnId = (event.payload as { turn_id?: string }).turn_id ?? null;
      if (event.type === 'turn.started') {
        expect(open).toBeNull();
        open = turnId;
      } else {
        expect(turnId).toBe(open);
        if (endsTurn(event)) open = null;
      }
    }
  }
}

describe.each(testDatabaseEngines())('lanes on $name', (engine) => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it.each([2, 4])(
    'runs %i dev lanes side by side: every dev starts before any dev ends',
    { timeout: 240_000 },
    async (modules) => {
      const line = await startLine(
        engine,
        parallelLineScript({ modules, devDelayMs: DEV_DELAY_MS, devPaceMs: 20 }),
        4,
      );
      close = line.close;
      const { forja } = line;
      const sessionId = (await playUpToTheDevs(forja)).sessionId;
      const accepted = await requestJson(
        forja,
        'POST',
        `/api/sessions/${sessionId}/dev-handoffs/accept`,
      );
      expect(
        accepted.body.accepted.map((handoff: { to_agent: string }) => handoff.to_agent),
      ).toEqual(parallelModules(modules).map((name) => `dev:${name}`));
      await forja.conversation.idle(sessionId);
      const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
      const devs = parallelModules(modules).map((name) => `dev:${name}`);
      const lastStart = Math.max(...devs.flatMap((dev) => seqOf(log, 'turn.started', dev)));
      const firstEnd = Math.min(...devs.flatMap((dev) => seqOf(log, 'agent.response', dev)));
      expect(lastStart).toBeLessThan(firstEnd);
      expectWellFormed(log);
      line.provider.assertAllTurnsConsumed();
    },
  );

  it('accepts dev handoffs one by one, all at once, while the lanes they start append: each decided on a fresh view', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(
      engine,
      parallelLineScript({ modules: 4, devDelayMs: 300, devPaceMs: 5 }),
      4,
    );
    close = line.close;
    const { forja } = line;
    const sessionId = (await playUpToTheDevs(forja)).sessionId;
    const offered = (
      await requestJson(forja, 'GET', `/api/sessions/${sessionId}/handoffs`)
    ).body.handoffs.filter(
      (handoff: { to_agent: string; status: string }) =>
        handoff.to_agent.startsWith('dev:') && handoff.status === 'offered',
    );
    expect(offered).toHaveLength(4);
    // Each acceptance starts a kickoff whose lane appends while the next acceptances decide.
    const answers = await Promise.all(
      offered.map((handoff: { id: string }) =>
        requestJson(forja, 'POST', `/api/handoffs/${handoff.id}/accept`),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await forja.conversation.idle(sessionId);
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    for (const dev of parallelModules(4).map((name) => `dev:${name}`)) {
      expect(seqOf(log, 'agent.activated', dev)).toHaveLength(1);
      expect(seqOf(log, 'turn.started', dev)).toHaveLength(1);
    }
    expectWellFormed(log);
    line.provider.assertAllTurnsConsumed();
  });

  it('with FORJA_MAX_PARALLEL_TURNS=1 runs the dev lanes one after another, in the order offered', {
    timeout: 240_000,
  }, async () => {
    const line = await startLine(engine, parallelLineScript({ modules: 3, devDelayMs: 50 }), 1);
    close = line.close;
    const { forja } = line;
    const sessionId = (await playUpToTheDevs(forja)).sessionId;
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await forja.conversation.idle(sessionId);
    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const devTurns = log.filter(
      (event) =>
        (event.type === 'turn.started' || event.type === 'agent.response') &&
        agentOf(event)?.startsWith('dev:'),
    );
    expect(devTurns.map((event) => [event.type, agentOf(event)])).toEqual(
      parallelModules(3).flatMap((name) => [
        ['turn.started', `dev:${name}`],
        ['agent.response', `dev:${name}`],
      ]),
    );
    expectWellFormed(log);
  });

  it('answers the person writing to Criativo in the middle of the dev phase while the devs work', {
    timeout: 240_000,
  }, async () => {
    const criativoAfter = [
      { agent: 'criativo', text: 'Sim, os devs seguem; anoto a sua ideia para depois.' },
    ];
    const line = await startLine(
      engine,
      parallelLineScript({ modules: 2, devDelayMs: DEV_DELAY_MS, devPaceMs: 20, criativoAfter }),
      4,
    );
    close = line.close;
    const { forja } = line;
    const sessionId = (await playUpToTheDevs(forja)).sessionId;
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);

    const notActive = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'oi',
      to: 'dev:estoque',
    });
    expect(notActive).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'not_active',
          field: 'to',
          message: expect.stringContaining(
            'active: criativo, po, arquiteto, dev:modulo1, dev:modulo2',
          ),
        },
      },
    });
    const posted = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'E se tiver café também?',
      to: 'criativo',
    });
    expect(posted).toMatchObject({
      status: 201,
      body: { type: 'chat.message', payload: { text: 'E se tiver café também?', to: 'criativo' } },
    });
    await forja.conversation.idle(sessionId);

    const log = await forja.eventLog.read(sessionId, { limit: 10_000 });
    const answer = log.find(
      (event) =>
        event.type === 'agent.response' &&
        event.seq > posted.body.seq &&
        agentOf(event) === 'criativo',
    )!;
    expect(answer).toMatchObject({
      payload: { text: 'Sim, os devs seguem; anoto a sua ideia para depois.' },
    });
    // Answered while both devs' turns were open: before either dev's response.
    for (const dev of ['dev:modulo1', 'dev:modulo2'])
      expect(answer.seq).toBeLessThan(Math.min(...seqOf(log, 'agent.response', dev)));
    // The devs never saw the message to Criativo: it is not in their lanes.
    const state = rehydrate(log);
    expect(
      state.history
        .filter((entry) => entry.role === 'user' && entry.to === 'criativo')
        .map((entry) => entry.content),
    ).toContain('E se tiver café também?');
    expectWellFormed(log);
    line.provider.assertAllTurnsConsumed();
  });
});
