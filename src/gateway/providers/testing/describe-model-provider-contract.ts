import { afterEach, describe, expect, it } from 'vitest';
import { ProviderCancelledError } from '../errors/provider-cancelled-error.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { ModelStreamPart } from '../model-provider.ts';
import { collectStream, joinText } from './collect-stream.ts';
import {
  contractRequest,
  type ContractFixture,
  type ContractScenario,
  type ContractTurn,
} from './contract-scenario.ts';

/**
 * The contract of the ModelProvider port, run against every implementation so that the scripted
 * provider the tests rely on behaves exactly like the real adapters: text streaming, tool calls,
 * usage, failures and cancellation. `arrange` prepares a provider able to play one scenario.
 */
export function describeModelProviderContract(
  name: string,
  arrange: (scenario: ContractScenario) => Promise<ContractFixture> | ContractFixture,
): void {
  describe(`ModelProvider contract: ${name}`, () => {
    const fixtures: ContractFixture[] = [];
    afterEach(async () => {
      await Promise.all(fixtures.splice(0).map((fixture) => fixture.close?.()));
    });
    const play = async (scenario: ContractScenario) => {
      const fixture = await arrange(scenario);
      fixtures.push(fixture);
      return fixture.provider;
    };
    const playTurn = async (turn: ContractTurn) => {
      const provider = await play({ kind: 'turn', turn });
      return collectStream(
        provider.stream(contractRequest, { signal: new AbortController().signal }),
      );
    };

    it('names itself and its model', async () => {
      const provider = await play({ kind: 'turn', turn: { text: 'Hi', toolCalls: [] } });
      expect(provider.name).toMatch(/\S/);
      expect(provider.model).toMatch(/\S/);
    });

    it('streams text as several deltas that join to the text, then usage, then finish stop', async () => {
      const text = 'Tell me about the bakery and who buys from it.';
      const { parts, error } = await playTurn({
        text,
        toolCalls: [],
        usage: { inputTokens: 31, outputTokens: 12 },
      });
      expect(error).toBeUndefined();
      expect(joinText(parts)).toBe(text);
      expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
      expect(parts.slice(-2)).toEqual([
        { type: 'usage', inputTokens: 31, outputTokens: 12, estimated: false },
        { type: 'finish', reason: 'stop' },
      ]);
      expectClosingOrder(parts);
    });

    it('emits a tool call once, with its arguments complete and parsed', async () => {
      const toolArguments = {
        type: 'business_rule',
        origin: ['evt-1', 'evt-2'],
        text: 'Orders close at 18:00',
      };
      const { parts, error } = await playTurn({
        text: '',
        toolCalls: [{ name: 'emit_artifact', arguments: toolArguments }],
        usage: { inputTokens: 40, outputTokens: 20 },
      });
      expect(error).toBeUndefined();
      const calls = parts.filter((part) => part.type === 'tool-call');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ name: 'emit_artifact', arguments: toolArguments });
      expect(calls[0]?.parseError).toBeUndefined();
      expect(calls[0]?.id).toMatch(/\S/);
      expect(JSON.parse(calls[0]?.rawArguments ?? '')).toEqual(toolArguments);
      expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
      expectClosingOrder(parts);
    });

    it('streams text before several tool calls, in order, each with its own id', async () => {
      const { parts, error } = await playTurn({
        text: 'Recording two rules.',
        toolCalls: [
          { name: 'emit_artifact', arguments: { type: 'business_rule', n: 1 } },
          { name: 'emit_artifact', arguments: { type: 'business_rule', n: 2 } },
        ],
      });
      expect(error).toBeUndefined();
      expect(
        parts.map((part) => part.type).filter((type, index, all) => type !== all[index - 1]),
      ).toEqual(['text-delta', 'tool-call', 'usage', 'finish']);
      const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
      expect(calls.map((call) => call.arguments?.['n'])).toEqual([1, 2]);
      expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    });

    it('estimates usage, and says so, when none is reported', async () => {
      const { parts, error } = await playTurn({ text: 'A short answer.', toolCalls: [] });
      expect(error).toBeUndefined();
      const usage = parts.find((part) => part.type === 'usage');
      expect(usage).toMatchObject({ type: 'usage', estimated: true });
      expect(usage?.type === 'usage' && usage.inputTokens > 0 && usage.outputTokens > 0).toBe(true);
      expectClosingOrder(parts);
    });

    it('fails from iteration, never from stream(), with a ProviderError and no closing parts', async () => {
      const provider = await play({ kind: 'failure' });
      const stream = provider.stream(contractRequest, { signal: new AbortController().signal });
      const { parts, error } = await collectStream(stream);
      expect(error).toBeInstanceOf(ProviderError);
      expect(parts.every((part) => part.type === 'text-delta')).toBe(true);
    });

    it('does nothing and fails as cancelled when the signal is already aborted', async () => {
      const provider = await play({ kind: 'turn', turn: { text: 'Never sent.', toolCalls: [] } });
      const controller = new AbortController();
      controller.abort();
      const { parts, error } = await collectStream(
        provider.stream(contractRequest, { signal: controller.signal }),
      );
      expect(parts).toEqual([]);
      expect(error).toBeInstanceOf(ProviderCancelledError);
    });

    it('ends with ProviderCancelledError when aborted in the middle of a stream', async () => {
      const provider = await play({ kind: 'endless', firstText: 'Thinking' });
      const controller = new AbortController();
      const iterator = provider
        .stream(contractRequest, { signal: controller.signal })
        [Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.value).toMatchObject({ type: 'text-delta' });
      controller.abort();
      await expect(iterator.next()).rejects.toBeInstanceOf(ProviderCancelledError);
    });
  });
}

// Every finished stream ends with exactly one usage immediately followed by exactly one finish.
function expectClosingOrder(parts: ModelStreamPart[]): void {
  expect(parts.filter((part) => part.type === 'usage')).toHaveLength(1);
  expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
  expect(parts.at(-2)?.type).toBe('usage');
  expect(parts.at(-1)?.type).toBe('finish');
}
