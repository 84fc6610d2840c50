import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { CRIATIVO_GREETINGS } from '../domain/conversation/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

describe.each(testDatabaseEngines())("Criativo's greeting on $name", (engine) => {
  let forja: Forja | undefined;
  afterEach(async () => {
    await forja?.close();
    forja = undefined;
  });

  it('is recorded with its activation in the language Accept-Language prefers, and never sent to the model', async () => {
    const started = await startScriptedForja(engine, {
      turns: [
        {
          agent: 'criativo',
          // The model's first request holds the person's message, and not the greeting (checked below).
          expect: { messages: ['Quero vender pão.'] },
          text: 'Que bom! Para quem?',
        },
      ],
    });
    forja = started.forja;
    const greeted = async (headers: Record<string, string>) => {
      const { sessionId } = await newSessionThroughApi(started.forja);
      const answer = await requestJson(
        started.forja,
        'POST',
        `/api/sessions/${sessionId}/agents/criativo/start`,
        undefined,
        headers,
      );
      expect(answer.status).toBe(201);
      return { sessionId, payload: answer.body.payload };
    };
    expect((await greeted({ 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8' })).payload).toEqual({
      v: 1,
      agent: 'criativo',
      handoff_id: null,
      greeting: { language: 'pt', text: CRIATIVO_GREETINGS.pt },
    });
    expect(
      (await greeted({ 'accept-language': 'de-DE, en;q=0.5, pt;q=0.4' })).payload.greeting,
    ).toEqual({
      language: 'en',
      text: CRIATIVO_GREETINGS.en,
    });
    const { sessionId, payload } = await greeted({});
    expect(payload.greeting.language).toBe('en');
    // Every client reads it from the log, as the start's answer gave it.
    const events = await started.forja.eventLog.read(sessionId);
    expect(events.find((event) => event.type === 'agent.activated')?.payload).toEqual(payload);

    // What Criativo's next model call would send holds no greeting.
    const context = await requestJson(
      started.forja,
      'GET',
      `/api/sessions/${sessionId}/agents/criativo/context`,
    );
    expect(context.status).toBe(200);
    expect(JSON.stringify(context.body)).not.toContain("Hi, I'm Criativo");
    await requestJson(started.forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Quero vender pão.',
    });
    await started.forja.conversation.idle(sessionId);
    expect((await started.forja.eventLog.read(sessionId)).at(-2)?.payload).toMatchObject({
      text: 'Que bom! Para quem?',
    });
  });
});
