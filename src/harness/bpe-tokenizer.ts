import type { TokenCount, Tokenizer } from './tokenizer.ts';

/** BPE vocabularies offered by the adapter: o200k_base (GPT-4o, GPT-5, o-series) and cl100k_base (GPT-4). */
export type BpeEncodingName = 'o200k_base' | 'cl100k_base';

// Text that merely mentions `<|endoftext|>` is still text to count; by default the library throws on it.
const COUNT_SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Text is counted in chunks of about this many UTF-16 units, cut where the count stays exact. */
export const BPE_CHUNK_UNITS = 4096;

/**
 * A run of one kind (whitespace or not) longer than this is cut, inexactly: BPE merges cost grows with the
 * square of a piece's length (1 MB without a space took > 300 s), and a piece never spans such a run's end.
 */
export const BPE_MAX_RUN_UNITS = 512;

async function loadCountFunction(encoding: BpeEncodingName): Promise<(text: string) => number> {
  // Loaded on demand: the vocabulary is a few MB of JavaScript (~0.3 s to load) that the default path never needs.
  const module =
    encoding === 'o200k_base'
      ? await import('gpt-tokenizer/encoding/o200k_base')
      : await import('gpt-tokenizer/encoding/cl100k_base');
  return (text) => module.countTokens(text, COUNT_SPECIAL_TOKENS_AS_TEXT);
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Where to cut `text` for counting: before a space that follows a non-whitespace character, which is where
 * the o200k and cl100k pre-tokenizers end a piece anyway (so the sum of the chunks is the count of the
 * whole), every BPE_CHUNK_UNITS or so; and, inexactly, inside any run longer than BPE_MAX_RUN_UNITS.
 */
export function bpeChunks(text: string): { readonly chunks: string[]; readonly exact: boolean } {
  if (text.length <= BPE_MAX_RUN_UNITS) return { chunks: [text], exact: true };
  const chunks: string[] = [];
  let exact = true;
  let start = 0;
  let runStart = 0;
  let previousWhitespace = isWhitespace(text.charCodeAt(0));
  for (let index = 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const whitespace = isWhitespace(code);
    if (whitespace !== previousWhitespace) runStart = index;
    const clean = code === 0x20 && !previousWhitespace;
    const lowSurrogate = code >= 0xdc00 && code <= 0xdfff;
    if (clean && index - start >= BPE_CHUNK_UNITS) {
      chunks.push(text.slice(start, index));
      start = index;
    } else if (index - Math.max(runStart, start) >= BPE_MAX_RUN_UNITS && !lowSurrogate) {
      chunks.push(text.slice(start, index));
      start = index;
      runStart = index;
      exact = false;
    }
    previousWhitespace = whitespace;
  }
  chunks.push(text.slice(start));
  return { chunks, exact };
}

/**
 * A real BPE tokenizer over `gpt-tokenizer`; counts are exact for that vocabulary (`estimated: false`),
 * except for text with a run of more than BPE_MAX_RUN_UNITS characters without a space (or of spaces),
 * counted in cut pieces and flagged `estimated: true`: linear time, 1 MB in well under 2 s.
 */
export async function createBpeTokenizer(
  encoding: BpeEncodingName = 'o200k_base',
): Promise<Tokenizer> {
  const countTokens = await loadCountFunction(encoding);
  return Object.freeze({
    name: `bpe:${encoding}`,
    count(text: string): TokenCount {
      if (text.length === 0) return { tokens: 0, estimated: false };
      const { chunks, exact } = bpeChunks(text);
      let tokens = 0;
      for (const chunk of chunks) tokens += countTokens(chunk);
      return { tokens, estimated: !exact };
    },
  });
}
