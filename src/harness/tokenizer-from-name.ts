import { createBpeTokenizer } from './bpe-tokenizer.ts';
import { conservativeTokenizer } from './conservative-tokenizer.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import type { Tokenizer } from './tokenizer.ts';
import { UnknownTokenizerError } from './unknown-tokenizer-error.ts';

/**
 * Names accepted by configuration: `estimate` (bytes/4, the record's), `conservative` (by character class,
 * never under BPE on JSON or CJK), `bpe` (= `bpe:o200k_base`) and `bpe:cl100k_base`.
 */
export const TOKENIZER_NAMES = [
  'estimate',
  'conservative',
  'bpe',
  'bpe:o200k_base',
  'bpe:cl100k_base',
] as const;

export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

/** True when `value` names a configurable tokenizer. */
export function isTokenizerName(value: string): value is TokenizerName {
  return (TOKENIZER_NAMES as readonly string[]).includes(value);
}

/**
 * The tokenizer that configuration names. Asynchronous because the BPE vocabulary is loaded on demand.
 * @throws UnknownTokenizerError for any other name.
 */
export async function tokenizerFromName(name: string): Promise<Tokenizer> {
  if (name === 'estimate') return estimateTokenizer;
  if (name === 'conservative') return conservativeTokenizer;
  if (name === 'bpe' || name === 'bpe:o200k_base') return createBpeTokenizer('o200k_base');
  if (name === 'bpe:cl100k_base') return createBpeTokenizer('cl100k_base');
  throw new UnknownTokenizerError(name, TOKENIZER_NAMES);
}

// OpenAI model families and the vocabulary gpt-tokenizer ships for them.
const O200K_MODELS = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o\d)/;
const CL100K_MODELS = /^(gpt-4|gpt-3\.5)/;

/**
 * The tokenizer for a model `FORJA_MODEL` names (`provider:model`) when FORJA_TOKENIZER does not say:
 * the BPE of its family where gpt-tokenizer ships one (OpenAI's o200k_base and cl100k_base models), the
 * conservative estimate for every other model (Anthropic's tokenizer ships in no package).
 */
export function defaultTokenizerNameForModel(modelSetting: string | undefined): TokenizerName {
  const [provider, ...rest] = (modelSetting ?? '').trim().split(':');
  const model = rest.join(':').toLowerCase();
  if (provider === 'openai' && O200K_MODELS.test(model)) return 'bpe:o200k_base';
  if (provider === 'openai' && CL100K_MODELS.test(model)) return 'bpe:cl100k_base';
  return 'conservative';
}

/** Thrown when FORJA_TOKENIZER names no tokenizer. */
export class InvalidTokenizerSettingError extends Error {
  override readonly name = 'InvalidTokenizerSettingError';
  constructor(value: string) {
    super(
      `FORJA_TOKENIZER="${value}": unknown tokenizer (expected one of: ${TOKENIZER_NAMES.join(', ')}; unset for the model's default)`,
    );
  }
}

/**
 * The tokenizer name the server uses: FORJA_TOKENIZER when set, else the default of the model FORJA_MODEL names.
 * @throws InvalidTokenizerSettingError when FORJA_TOKENIZER names no tokenizer.
 */
export function tokenizerNameFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): TokenizerName {
  const configured = env['FORJA_TOKENIZER']?.trim();
  if (configured === undefined || configured === '')
    return defaultTokenizerNameForModel(env['FORJA_MODEL']);
  if (!isTokenizerName(configured)) throw new InvalidTokenizerSettingError(configured);
  return configured;
}
