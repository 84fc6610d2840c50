import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { BUILT_IN_PRICES, type ModelPrice, type PriceTable } from './price-table.ts';

export const PRICES_VARIABLE = 'FORJA_PRICES';

/** The most a price may say per million tokens: a bound that catches a price typed per token or per thousand. */
const MAX_USD_PER_MILLION = 10_000;
const MAX_MODELS = 1_000;
const MAX_FILE_BYTES = 1_000_000;

const usdPerMillion = z
  .number({ error: 'must be a number of US dollars per million tokens' })
  .min(0, 'must be 0 or more')
  .max(MAX_USD_PER_MILLION, `must be at most ${MAX_USD_PER_MILLION} (dollars per million tokens)`);

const priceSchema = z.strictObject({
  input: usdPerMillion,
  output: usdPerMillion,
  /** Defaults to `input` (a provider without a cheaper cache rate). */
  cached_input: usdPerMillion.optional(),
  /** Defaults to `input` (a provider that bills no cache writes). */
  cache_write: usdPerMillion.optional(),
});

/**
 * A `FORJA_PRICES` file: `{"models": {"gpt-4o": {"input": 2.5, "cached_input": 1.25, "output": 10}}}`, keyed by
 * model or `provider:model`, in US dollars per million tokens. Its entries replace the built-in ones of the
 * same key; the others stay.
 */
export const pricesFileSchema = z.strictObject({
  models: z
    .record(
      z
        .string()
        .min(1, 'must not be empty')
        .max(200, 'must be at most 200 characters')
        .regex(/^[\w.:/@-]+$/, 'must be a model name (letters, digits and . _ - : / @)'),
      priceSchema,
      { error: 'must be an object of prices by model name' },
    )
    .refine((models) => Object.keys(models).length <= MAX_MODELS, {
      error: `must name at most ${MAX_MODELS} models`,
    }),
});

export type PricesFile = z.infer<typeof pricesFileSchema>;

/** The built-in table with a prices file's entries over it. */
export function toPriceTable(file: PricesFile, source: string): PriceTable {
  const models = new Map<string, ModelPrice>(BUILT_IN_PRICES.models);
  for (const [key, price] of Object.entries(file.models))
    models.set(key, {
      input: price.input,
      output: price.output,
      cachedInput: price.cached_input ?? price.input,
      cacheWrite: price.cache_write ?? price.input,
    });
  return { source: `${source} over ${BUILT_IN_PRICES.source}`, models };
}

/** Checks a parsed prices file; a problem names the field (`models["gpt-4o"].input`) and the rule. */
export function parsePricesFile(
  value: unknown,
  source: string,
): { ok: true; table: PriceTable } | { ok: false; message: string } {
  const parsed = pricesFileSchema.safeParse(value);
  if (parsed.success) return { ok: true, table: toPriceTable(parsed.data, source) };
  const issue = parsed.error.issues[0]!;
  // `models["gpt-4o"].input`: the model's name quoted, since it may hold dots.
  const where =
    issue.path.length === 0
      ? 'the file'
      : issue.path
          .map((key, index) => (index === 1 ? `[${JSON.stringify(key)}]` : `.${String(key)}`))
          .join('')
          .slice(1);
  const message =
    issue.code === 'unrecognized_keys'
      ? `has a field it does not know: ${issue.keys.join(', ')} (allowed: models; per model input, cached_input, cache_write, output)`
      : issue.code === 'invalid_key'
        ? (issue.issues[0]?.message ?? issue.message)
        : issue.message;
  return { ok: false, message: `${where} ${message}` };
}

/**
 * The prices `FORJA_PRICES` names (a JSON file), else the built-in table. A file that cannot be read or is wrong
 * is an error naming the variable, the path, the field and the rule (start-up exits 2 on it).
 */
export function readPrices(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; table: PriceTable } | { ok: false; variable: string; message: string } {
  const path = env[PRICES_VARIABLE]?.trim();
  if (path === undefined || path === '') return { ok: true, table: BUILT_IN_PRICES };
  const fail = (message: string) => ({
    ok: false as const,
    variable: PRICES_VARIABLE,
    message: `${PRICES_VARIABLE} (${path}): ${message}`,
  });
  let text: string;
  try {
    if (!statSync(path).isFile()) return fail('must be a file.');
    if (statSync(path).size > MAX_FILE_BYTES)
      return fail(`must be at most ${MAX_FILE_BYTES} bytes.`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('must be JSON, such as {"models": {"gpt-4o": {"input": 2.5, "output": 10}}}.');
  }
  const parsed = parsePricesFile(value, `${PRICES_VARIABLE}=${path}`);
  return parsed.ok ? parsed : fail(`${parsed.message}.`);
}
