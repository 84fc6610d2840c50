import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_PRICES,
  callCostUsd,
  priceFor,
  reservationCostUsd,
  type ModelPrice,
} from './price-table.ts';
import { parsePricesFile, readPrices } from './read-prices-file.ts';

const rate = fc.double({ min: 0, max: 100, noNaN: true });
const price = fc.record({ input: rate, cachedInput: rate, cacheWrite: rate, output: rate });
const tokens = fc.nat(2_000_000);
const usage = fc.record({
  inputTokens: tokens,
  outputTokens: tokens,
  cachedInputTokens: fc.option(tokens, { nil: undefined }),
  cacheWriteInputTokens: fc.option(tokens, { nil: undefined }),
});

describe('the price of a call', () => {
  it('bills Anthropic cache reads at 0.1x and writes at 1.25x the input rate', () => {
    const sonnet = priceFor(BUILT_IN_PRICES, 'anthropic', 'claude-sonnet-4-5-20250929')!;
    expect(sonnet).toEqual({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
    expect(
      callCostUsd(sonnet, {
        inputTokens: 1_000_000,
        outputTokens: 1_000_000,
        cachedInputTokens: 600_000,
        cacheWriteInputTokens: 100_000,
      }),
    ).toBe(0.3 * 3 + 0.6 * 0.3 + 0.1 * 3.75 + 15);
  });

  it('finds a dated snapshot by its alias, a provider-qualified entry first, and nothing for an unknown model', () => {
    expect(priceFor(BUILT_IN_PRICES, 'openai', 'gpt-4o-mini-2024-07-18')?.input).toBe(0.15);
    expect(priceFor(BUILT_IN_PRICES, 'openai', 'gpt-4o-audio-preview')).toBeNull();
    const table = {
      source: 't',
      models: new Map<string, ModelPrice>([
        ['m', { input: 1, cachedInput: 1, cacheWrite: 1, output: 1 }],
        ['openai:m', { input: 2, cachedInput: 2, cacheWrite: 2, output: 2 }],
      ]),
    };
    expect(priceFor(table, 'openai', 'm')?.input).toBe(2);
    expect(priceFor(table, 'anthropic', 'm')?.input).toBe(1);
  });

  it('never costs more than its reservation at full price, nor less than nothing', () => {
    fc.assert(
      fc.property(price, usage, tokens, tokens, (p, u, inputBound, outputBound) => {
        const within = {
          ...u,
          inputTokens: Math.min(u.inputTokens, inputBound),
          outputTokens: Math.min(u.outputTokens, outputBound),
        };
        const cost = callCostUsd(p, within);
        expect(cost).toBeGreaterThanOrEqual(0);
        expect(cost).toBeLessThanOrEqual(reservationCostUsd(p, inputBound, outputBound));
      }),
    );
  });

  it('costs no more with cached tokens counted than without, when cache reads are the cheaper rate', () => {
    fc.assert(
      fc.property(price, usage, (p, u) => {
        const priced = { ...p, cachedInput: Math.min(p.cachedInput, p.input), cacheWrite: p.input };
        expect(callCostUsd(priced, u)).toBeLessThanOrEqual(
          callCostUsd(priced, { inputTokens: u.inputTokens, outputTokens: u.outputTokens }) + 1e-9,
        );
      }),
    );
  });

  it('grows with every token', () => {
    fc.assert(
      fc.property(price, usage, fc.nat(1000), (p, u, more) => {
        expect(
          callCostUsd(p, { ...u, outputTokens: u.outputTokens + more }),
        ).toBeGreaterThanOrEqual(callCostUsd(p, u));
      }),
    );
  });
});

describe('the FORJA_PRICES file', () => {
  it('puts its entries over the built-in ones, cached and write rates defaulting to the input rate', () => {
    const parsed = parsePricesFile(
      { models: { 'ollama:qwen3': { input: 0, output: 0 }, 'gpt-4o': { input: 2, output: 8 } } },
      'test',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(priceFor(parsed.table, 'ollama', 'qwen3')).toEqual({
      input: 0,
      cachedInput: 0,
      cacheWrite: 0,
      output: 0,
    });
    expect(priceFor(parsed.table, 'openai', 'gpt-4o')?.cachedInput).toBe(2);
    expect(priceFor(parsed.table, 'openai', 'gpt-4.1')?.input).toBe(2);
  });

  it('names the field and the rule of what it refuses', () => {
    const message = (value: unknown) => {
      const parsed = parsePricesFile(value, 'test');
      return parsed.ok ? null : parsed.message;
    };
    expect(message({ models: { 'gpt-4o': { input: -1, output: 1 } } })).toBe(
      'models["gpt-4o"].input must be 0 or more',
    );
    expect(message({ models: { 'gpt-4o': { input: 1 } } })).toBe(
      'models["gpt-4o"].output must be a number of US dollars per million tokens',
    );
    expect(message({ models: { 'gpt-4o': { input: 1, output: 1, cached: 1 } } })).toMatch(
      /^models\["gpt-4o"\] has a field it does not know: cached/,
    );
    expect(message({ model: {} })).toBe('models must be an object of prices by model name');
    expect(message({ models: {}, model: {} })).toMatch(
      /^the file has a field it does not know: model/,
    );
    expect(message({ models: { 'gpt 4o': { input: 1, output: 1 } } })).toMatch(
      /^models\["gpt 4o"\] must be a model name/,
    );
    expect(message({ models: { m: { input: 20_000, output: 1 } } })).toBe(
      'models["m"].input must be at most 10000 (dollars per million tokens)',
    );
  });

  it('accepts every well-formed file and refuses every price out of range, never throwing', () => {
    const key = fc.stringMatching(/^[a-z0-9][\w.:-]{0,20}$/);
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.record({ input: rate, output: rate }), { maxKeys: 5 }),
        (models) => {
          expect(parsePricesFile({ models }, 't').ok).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(
        key,
        fc.oneof(fc.double({ max: -1e-9 }), fc.double({ min: 10_001 }), fc.string()),
        (name, bad) => {
          const parsed = parsePricesFile({ models: { [name]: { input: bad, output: 1 } } }, 't');
          expect(parsed.ok).toBe(false);
          if (!parsed.ok) expect(parsed.message).toMatch(/\.input must/);
        },
      ),
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        parsePricesFile(value, 't');
      }),
    );
  });

  it('reads the file FORJA_PRICES names, and says what is wrong with one it cannot use', () => {
    const directory = mkdtempSync(join(tmpdir(), 'forja-prices-'));
    const file = join(directory, 'prices.json');
    writeFileSync(file, JSON.stringify({ models: { local: { input: 0, output: 0 } } }));
    const read = readPrices({ FORJA_PRICES: file });
    expect(read.ok && priceFor(read.table, 'openai', 'local')?.output).toBe(0);
    expect(readPrices({})).toEqual({ ok: true, table: BUILT_IN_PRICES });
    writeFileSync(file, '{not json');
    expect(readPrices({ FORJA_PRICES: file })).toEqual({
      ok: false,
      variable: 'FORJA_PRICES',
      message: `FORJA_PRICES (${file}): must be JSON, such as {"models": {"gpt-4o": {"input": 2.5, "output": 10}}}.`,
    });
    expect(readPrices({ FORJA_PRICES: join(directory, 'missing.json') })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/cannot be read \(ENOENT\)/),
    });
  });
});
