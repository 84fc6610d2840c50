import type { TokenCount, Tokenizer } from './tokenizer.ts';

/**
 * Test double: one token per whitespace-separated word, exact. Monotone in prefixes but not additive (two
 * parts can join into one word) and without `countJoined`, so it drives the assembler's generic path.
 */
export const wordTokenizer: Tokenizer = Object.freeze({
  name: 'words',
  count(text: string): TokenCount {
    return { tokens: text.match(/\S+/g)?.length ?? 0, estimated: false };
  },
});
