import { describe, expect, it } from 'vitest';
import { ScriptExhaustedError } from '../errors/script-exhausted-error.ts';
import type { ModelRequest } from '../model-provider.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { createScriptedProvider } from './create-scripted-provider.ts';
import type { ScriptInput } from './script-schema.ts';

const script: ScriptInput = {
  turns: [
    { agent: 'criativo', text: 'Hello there.', usage: { input_tokens: 12, output_tokens: 7 } },
    { agent: 'po', text: 'Backlog ready.', tool_calls: [{ name: 'emit_artifact', arguments: { type: 'backlog' } }] },
    {
      agent: 'criativo',
      text: '',
      tool_calls: [
        { name: 'emit_artifact', arguments: { type: 'business_rule' } },
        { name: 'offer_handoff', arguments: {} },
      ],
    },
  ],
};

const requestFor = (agent: string): ModelRequest => ({ agent, system: 'sys', messages: [], tools: [], maxOutputTokens: 100 });
const call = (provider: ReturnType<typeof createScriptedProvider>, agent: string) =>
  collectStream(provider.stream(requestFor(agent), { signal: new AbortController().signal }));

describe('createScriptedProvider', () => {
  it('gives each agent its own next turn, in file order', async () => {
    const provider = createScriptedProvider({ script });
    expect(joinText((await call(provider, 'criativo')).parts)).toBe('Hello there.');
    expect(joinText((await call(provider, 'po')).parts)).toBe('Backlog ready.');
    const second = await call(provider, 'criativo');
    expect(second.parts.filter((part) => part.type === 'tool-call').map((part) => [part.id, part.name])).toEqual([
      ['call_criativo_1_0', 'emit_artifact'],
      ['call_criativo_1_1', 'offer_handoff'],
    ]);
  });

  it('reports scripted usage as real and estimates it, flagged, when absent', async () => {
    const provider = createScriptedProvider({ script });
    const first = await call(provider, 'criativo');
    expect(first.parts.find((part) => part.type === 'usage')).toEqual({ type: 'usage', inputTokens: 12, outputTokens: 7, estimated: false });
    const po = await call(provider, 'po');
    // Output estimate: ceil(bytes / 4) of the text plus the JSON arguments: "Backlog ready." + {"type":"backlog"}.
    const outputBytes = Buffer.byteLength('Backlog ready.{"type":"backlog"}');
    expect(po.parts.find((part) => part.type === 'usage')).toMatchObject({ outputTokens: Math.ceil(outputBytes / 4), estimated: true });
  });

  it('fails a call with no turn left, naming the agent and how many turns it had', async () => {
    const provider = createScriptedProvider({ script });
    await call(provider, 'po');
    const { error } = await call(provider, 'po');
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(error).toMatchObject({ agent: 'po', turnCount: 1, message: expect.stringContaining('"po"') });
    const unknown = await call(provider, 'dev');
    expect(unknown.error).toMatchObject({ agent: 'dev', turnCount: 0 });
  });

  it('says which turns were never taken', async () => {
    const provider = createScriptedProvider({ script });
    expect(provider.remainingTurns()).toEqual({ criativo: 2, po: 1 });
    await call(provider, 'criativo');
    await call(provider, 'po');
    expect(provider.remainingTurns()).toEqual({ criativo: 1 });
    expect(() => provider.assertAllTurnsConsumed()).toThrow(/unconsumed turns: criativo: 1/);
    await call(provider, 'criativo');
    expect(provider.remainingTurns()).toEqual({});
    expect(() => provider.assertAllTurnsConsumed()).not.toThrow();
  });

  it('resumes from a saved position, as after a process restart', async () => {
    const before = createScriptedProvider({ script });
    await call(before, 'criativo');
    const after = createScriptedProvider({ script, startAt: before.position() });
    expect(after.position()).toEqual({ criativo: 1 });
    const { parts } = await call(after, 'criativo');
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({ id: 'call_criativo_1_0' });
    expect(after.remainingTurns()).toEqual({ po: 1 });
  });

  it('refuses a start position that is not a whole number', () => {
    expect(() => createScriptedProvider({ script, startAt: { criativo: -1 } })).toThrow(/startAt\.criativo/);
  });

  it('consumes the turn of a call even when it is cancelled', async () => {
    const provider = createScriptedProvider({ script });
    const controller = new AbortController();
    const iterator = provider.stream(requestFor('criativo'), { signal: controller.signal })[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'ProviderCancelledError' });
    expect(provider.position()).toEqual({ criativo: 1 });
  });

  it('takes no turn until the stream is read', () => {
    const provider = createScriptedProvider({ script });
    provider.stream(requestFor('criativo'), { signal: new AbortController().signal });
    expect(provider.position()).toEqual({});
  });
});
