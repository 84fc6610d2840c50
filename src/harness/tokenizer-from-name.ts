import { createBpeTokenizer } from './bpe-tokenizer.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import type { Tokenizer } from './tokenizer.ts';
import { UnknownTokenizerError } from './unknown-tokenizer-error.ts';

/** Names accepted by configuration: `estimate` (default, bytes/4) and `bpe` (o200k_base). */
export const TOKENIZER_NAMES = ['estimate', 'bpe'] as const;

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
  if (name === 'bpe') return createBpeTokenizer('o200k_base');
  throw new UnknownTokenizerError(name, TOKENIZER_NAMES);
}
