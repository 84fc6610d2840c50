import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { eventTypes, newSessionThroughApi, startScriptedForja } from '../testing/scripted-forja.ts';

/**
 * The loop's stop rule (ADR 0380), played on the scripted model, whose script has exactly the calls the loop
 * may make: a call the rule saves would find no turn left and fail the turn.
 */
const RULE = {
  type: 'business_rule',
  data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 6h.' },
  origin: [3],
};

describe.each(testDatabaseEngines())('the stop rule on $name', { timeout: 120_000 }, (engine) => {
  let forja: Forja | undefined;
  afterEach(async () => {
    await forja?.close();
    forja = undefined;
  });

  async function talk(turns: Parameters<typeof startScriptedForja>[1]['turns'], texts: string[]) {
    const started = await startScriptedForja(engine, { turns });
    forja = started.forja;
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    for (const text of texts) {
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text });
      await forja.conversation.idle(sessionId);
    }
    return { sessionId, provider: started.provider, forja };
  }

  it('ends a turn that spoke and only recorded without another call; the next turn sees the call and its result', async () => {
    const { sessionId, provider, forja } = await talk(
      [
        {
          agent: 'criativo',
          text: 'Anotei: tudo antes das 6h. Quem compra?',
          tool_calls: [{ name: 'emit_artifact', arguments: RULE }],
        },
        {
          agent: 'criativo',
          text: 'Vizinhos, ótimo.',
          // The strict protocol check passes: the recorded call is followed by its result, then the message.
          expect: {
            messages: [
              'assistant: Anotei: tudo antes das 6h. Quem compra?',
              'emit_artifact(',
              'tool: Recorded business_rule.',
              'user: [#10] Os vizinhos',
            ],
          },
        },
      ],
      ['Entrego antes das 6h'],
    );
    // After the first message the script still holds one turn: no call was made for "Recorded business_rule.".
    expect(provider.remainingTurns()).toEqual({ criativo: 1 });
    expect((await eventTypes(forja, sessionId)).map(([, type]) => type)).toEqual([
      'session.created',
      'agent.activated',
      'chat.message',
      'turn.started',
      'agent.response',
      'artifact.business_rule',
      'tool.completed',
      'turn.completed',
      'turn.ended',
    ]);

    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Os vizinhos',
    });
    await forja.conversation.idle(sessionId);
    provider.assertAllTurnsConsumed();
    const last = (await forja.eventLog.read(sessionId)).at(-2);
    expect(last).toMatchObject({ type: 'agent.response', payload: { text: 'Vizinhos, ótimo.' } });
  });

  it('calls the model again with the refusal when a record tool fails', async () => {
    const { sessionId, provider, forja } = await talk(
      [
        {
          agent: 'criativo',
          text: 'Anotei a regra.',
          tool_calls: [{ name: 'emit_artifact', arguments: { ...RULE, origin: [999] } }],
        },
        {
          agent: 'criativo',
          text: 'Corrijo a origem.',
          expect: { messages: ['emit_artifact(', 'tool: ', 'origin'] },
        },
      ],
      ['Entrego antes das 6h'],
    );
    provider.assertAllTurnsConsumed();
    const events = await forja.eventLog.read(sessionId);
    expect(events.find((event) => event.type === 'tool.completed')?.payload).toMatchObject({
      ok: false,
    });
    expect(events.some((event) => event.type === 'turn.completed')).toBe(false);
    expect(events.at(-1)?.type).toBe('turn.ended');
    expect(events.at(-2)).toMatchObject({
      type: 'agent.response',
      payload: { text: 'Corrijo a origem.' },
    });
  });

  it('calls the model again when the answer recorded without saying anything', async () => {
    const { sessionId, provider, forja } = await talk(
      [
        { agent: 'criativo', tool_calls: [{ name: 'emit_artifact', arguments: RULE }] },
        {
          agent: 'criativo',
          text: 'Regra anotada. Quem compra?',
          expect: { messages: ['tool: Recorded business_rule.'] },
        },
      ],
      ['Entrego antes das 6h'],
    );
    provider.assertAllTurnsConsumed();
    const types = (await eventTypes(forja, sessionId)).map(([, type]) => type);
    expect(types.slice(-2)).toEqual(['agent.response', 'turn.ended']);
    expect(types).not.toContain('turn.completed');
  });
});
