import { Buffer } from 'node:buffer';
import type { TokenCount, Tokenizer } from './tokenizer.ts';

/** The record's heuristic: one token per four UTF-8 bytes, rounded up. */
export const ESTIMATE_BYTES_PER_TOKEN = 4;

function estimateFromBytes(byteCount: number): TokenCount {
  return { tokens: Math.ceil(byteCount / ESTIMATE_BYTES_PER_TOKEN), estimated: true };
}

function isHighSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xd800 && codeUnit <= 0xdbff;
}

function isLowSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xdc00 && codeUnit <= 0xdfff;
}

/**
 * The default tokenizer: `ceil(utf8_bytes / 4)`, always `estimated: true`. No model vocabulary is needed,
 * so it works offline and costs one native byte-length pass. Lone surrogates count as 3 bytes, as U+FFFD,
 * which is what they become when encoded.
 */
export const estimateTokenizer: Tokenizer = Object.freeze({
  name: 'estimate',
  count(text: string): TokenCount {
    return estimateFromBytes(Buffer.byteLength(text, 'utf8'));
  },
  countJoined(parts: readonly string[]): TokenCount {
    // Bytes add up across a concatenation and only the rounding does not, so sum the bytes and round once.
    // The one exception: two lone surrogates (3 bytes each) that meet at a join become one 4-byte character.
    let byteCount = 0;
    let previous = '';
    for (const part of parts) {
      if (part.length === 0) continue;
      byteCount += Buffer.byteLength(part, 'utf8');
      if (
        isHighSurrogate(previous.charCodeAt(previous.length - 1)) &&
        isLowSurrogate(part.charCodeAt(0))
      ) {
        byteCount -= 2;
      }
      previous = part;
    }
    return estimateFromBytes(byteCount);
  },
});
