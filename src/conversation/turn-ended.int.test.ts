import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

type WireEvent = { seq: number; type: string; payload: Record<string, unknown> };

describe.each(testDatabaseEngines())('turn.ended on $name', (engine) => {
  let forja: Forja | undefined;
  afterEach(async () => {
    await forja?.close();
    forja = undefined;
  });

  it('tells an API client when each turn is over, and how, after everything the turn recorded', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        // A turn that goes on through a tool call before it answers: one end, after the answer.
        { agent: 'criativo', text: 'Deixa eu ver.', tool_calls: [{ name: 'no_such_tool' }] },
        { agent: 'criativo', text: 'Que bom! Para quem?' },
        // A turn the provider refuses: it ends failed.
        { agent: 'criativo', fail: { status: 400, message: 'bad request' } },
      ],
    });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(started.forja);
    const post = (path: string, body?: unknown) =>
      requestJson(started.forja, 'POST', `/api/sessions/${sessionId}${path}`, body);
    expect((await post('/agents/criativo/start')).status).toBe(201);
    expect((await post('/messages', { text: 'Quero vender pão.' })).status).toBe(201);
    await started.forja.conversation.idle(sessionId);
    expect((await post('/messages', { text: 'Para a vizinhança.' })).status).toBe(201);
    await started.forja.conversation.idle(sessionId);

    const listed = await requestJson(
      started.forja,
      'GET',
      `/api/sessions/${sessionId}/events?limit=1000`,
    );
    expect(listed.status).toBe(200);
    const events = listed.body.events as WireEvent[];
    const turns = events.filter((event) => event.type === 'turn.started');
    const ends = events.filter((event) => event.type === 'turn.ended');
    expect(turns).toHaveLength(2);
    expect(ends.map((event) => event.payload)).toEqual([
      { v: 1, agent: 'criativo', turn_id: turns[0]!.payload['turn_id'], outcome: 'answered' },
      { v: 1, agent: 'criativo', turn_id: turns[1]!.payload['turn_id'], outcome: 'failed' },
    ]);
    // Each end comes right after what ended it: the final answer, the failure.
    const eventBefore = (end: WireEvent) => events.find((event) => event.seq === end.seq - 1)!;
    expect(eventBefore(ends[0]!)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Que bom! Para quem?' },
    });
    expect(eventBefore(ends[1]!).type).toBe('turn.failed');
    // The answer that went on with a tool call did not end the turn.
    const firstAnswer = events.find((event) => event.type === 'agent.response')!;
    expect(firstAnswer.payload['text']).toBe('Deixa eu ver.');
    expect(events.find((event) => event.seq === firstAnswer.seq + 1)?.type).not.toBe('turn.ended');
    expect(events.at(-1)?.type).toBe('turn.ended');
  });
});
