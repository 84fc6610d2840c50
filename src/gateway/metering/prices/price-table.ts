/** What a model costs, in US dollars per million tokens. */
export type ModelPrice = {
  /** Input neither read from nor written to the prompt cache. */
  input: number;
  /** Input read from the prompt cache. */
  cachedInput: number;
  /** Input written to the prompt cache (Anthropic bills it above the input rate; OpenAI does not). */
  cacheWrite: number;
  output: number;
};

/** Prices by model name (`gpt-4o`) or by provider and model (`openai:gpt-4o`, which wins). */
export type PriceTable = {
  /** The day the prices were read from the providers' price lists, or `FORJA_PRICES` with its path. */
  source: string;
  models: ReadonlyMap<string, ModelPrice>;
};

/** The token counts a call's cost is computed from: `inputTokens` is all input, the cached shares part of it. */
export type PricedUsage = {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
};

/** The day the built-in prices were read from OpenAI's and Anthropic's public price lists. */
export const BUILT_IN_PRICES_AS_OF = '2025-11-24';

function clamp(value: number, max: number) {
  return Math.min(Math.max(0, value), Math.max(0, max));
}
// Kept to a billionth of a dollar: exact enough for any bill, and free of float noise in sums.
const round = (usd: number) => Math.round(usd * 1e9) / 1e9;
const roundUp = (usd: number) => Math.ceil(usd * 1e9 - 1e-6) / 1e9;

const openAi = (input: number, cachedInput: number, output: number): ModelPrice => ({
  input,
  cachedInput,
  cacheWrite: input,
  output,
});
// Anthropic: a cache read costs 0.1x the input rate, a (5-minute) cache write 1.25x.
const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  cachedInput: round(input * 0.1),
  cacheWrite: round(input * 1.25),
  output,
});

/**
 * List prices of current OpenAI and Anthropic models as published on `BUILT_IN_PRICES_AS_OF`: a dated table,
 * not a live one. A price that changed, a model not here or a negotiated rate is set with `FORJA_PRICES`.
 */
export const BUILT_IN_PRICES: PriceTable = {
  source: `built-in list prices of ${BUILT_IN_PRICES_AS_OF}`,
  models: new Map<string, ModelPrice>([
    ['gpt-5', openAi(1.25, 0.125, 10)],
    ['gpt-5-mini', openAi(0.25, 0.025, 2)],
    ['gpt-5-nano', openAi(0.05, 0.005, 0.4)],
    ['gpt-4.1', openAi(2, 0.5, 8)],
    ['gpt-4.1-mini', openAi(0.4, 0.1, 1.6)],
    ['gpt-4.1-nano', openAi(0.1, 0.025, 0.4)],
    ['gpt-4o', openAi(2.5, 1.25, 10)],
    ['gpt-4o-mini', openAi(0.15, 0.075, 0.6)],
    ['o3', openAi(2, 0.5, 8)],
    ['o4-mini', openAi(1.1, 0.275, 4.4)],
    ['text-embedding-3-small', openAi(0.02, 0.02, 0)],
    ['text-embedding-3-large', openAi(0.13, 0.13, 0)],
    ['claude-opus-4-5', anthropic(5, 25)],
    ['claude-opus-4-1', anthropic(15, 75)],
    ['claude-opus-4-0', anthropic(15, 75)],
    ['claude-sonnet-4-5', anthropic(3, 15)],
    ['claude-sonnet-4-0', anthropic(3, 15)],
    ['claude-haiku-4-5', anthropic(1, 5)],
    ['claude-3-5-haiku', anthropic(0.8, 4)],
  ]),
};

/** A dated snapshot of a model (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`) costs what its alias does. */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The price of `provider:model`, else of `model`, else of its undated alias; null when none is known. */
export function priceFor(table: PriceTable, provider: string, model: string): ModelPrice | null {
  const alias = model.replace(SNAPSHOT_SUFFIX, '');
  for (const key of [`${provider}:${model}`, model, `${provider}:${alias}`, alias]) {
    const price = table.models.get(key);
    if (price !== undefined) return price;
  }
  return null;
}

/**
 * What a call cost in US dollars: the input that missed the cache at the input rate, cache reads and writes at
 * theirs, the output at the output rate. Cached shares are clamped into the input, so bad figures never make a
 * call cost less than its cache-read price nor more than its dearest.
 */
export function callCostUsd(price: ModelPrice, usage: PricedUsage): number {
  const input = Math.max(0, usage.inputTokens);
  const cached = clamp(usage.cachedInputTokens ?? 0, input);
  const written = clamp(usage.cacheWriteInputTokens ?? 0, input - cached);
  const uncached = input - cached - written;
  return round(
    (uncached * price.input +
      cached * price.cachedInput +
      written * price.cacheWrite +
      Math.max(0, usage.outputTokens) * price.output) /
      1_000_000,
  );
}

/**
 * The most a call of at most `inputTokens` in and `outputTokens` out can cost: all of its input at the dearest
 * input rate (a cache write can cost more than plain input), all of its output at the output rate.
 */
export function reservationCostUsd(
  price: ModelPrice,
  inputTokens: number,
  outputTokens: number,
): number {
  const dearestInput = Math.max(price.input, price.cachedInput, price.cacheWrite);
  return roundUp((inputTokens * dearestInput + outputTokens * price.output) / 1_000_000);
}
