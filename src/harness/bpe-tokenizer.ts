import type { TokenCount, Tokenizer } from './tokenizer.ts';

/** BPE vocabularies offered by the adapter: o200k_base (GPT-4o, GPT-5, o-series) and cl100k_base (GPT-4). */
export type BpeEncodingName = 'o200k_base' | 'cl100k_base';

// Text that merely mentions `<|endoftext|>` is still text to count; by default the library throws on it.
const COUNT_SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

async function loadCountFunction(encoding: BpeEncodingName): Promise<(text: string) => number> {
  // Loaded on demand: the vocabulary is a few MB of JavaScript (~0.3 s to load) that the default path never needs.
  const module =
    encoding === 'o200k_base'
      ? await import('gpt-tokenizer/encoding/o200k_base')
      : await import('gpt-tokenizer/encoding/cl100k_base');
  return (text) => module.countTokens(text, COUNT_SPECIAL_TOKENS_AS_TEXT);
}

/**
 * A real BPE tokenizer over `gpt-tokenizer`; counts are exact for that vocabulary (`estimated: false`).
 * Note BPE cost grows faster than linearly on very long runs without whitespace; the estimate does not.
 */
export async function createBpeTokenizer(encoding: BpeEncodingName = 'o200k_base'): Promise<Tokenizer> {
  const countTokens = await loadCountFunction(encoding);
  return Object.freeze({
    name: `bpe:${encoding}`,
    count(text: string): TokenCount {
      return { tokens: text.length === 0 ? 0 : countTokens(text), estimated: false };
    },
  });
}
