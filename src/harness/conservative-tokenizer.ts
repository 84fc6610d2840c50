import { Buffer } from 'node:buffer';
import type { TokenCount, Tokenizer } from './tokenizer.ts';

// Costs per run of one character class, set against o200k_base and cl100k_base (bench tokenizer-accuracy):
// the estimate stays at or above both on English, code, JSON, lockfiles, CJK and Cyrillic.
const LETTERS_PER_TOKEN = 5; // per run of one case (camelCase and base64 are cut where a capital follows a lower-case letter)
const DIGITS_PER_TOKEN = 2;
const PUNCTUATION_PER_TOKEN = 1;
const WIDE_TOKENS_PER_CHARACTER = 1.25; // Han, kana, hangul, fullwidth forms
const OTHER_BYTES_PER_TOKEN = 3; // other non-ASCII (accented Latin, Cyrillic, Greek, emoji …), by UTF-8 bytes

type CharacterClass = 'letter' | 'digit' | 'space' | 'newline' | 'punctuation' | 'wide' | 'other';

function classOf(code: number): CharacterClass {
  if (code < 0x80) {
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return 'letter';
    if (code >= 0x30 && code <= 0x39) return 'digit';
    if (code === 0x20 || code === 0x09) return 'space';
    if (code === 0x0a || code === 0x0d) return 'newline';
    return 'punctuation';
  }
  if (
    (code >= 0x1100 && code <= 0x11ff) || // hangul jamo
    (code >= 0x2e80 && code <= 0x9fff) || // CJK radicals, kana, CJK ideographs
    (code >= 0xac00 && code <= 0xd7af) || // hangul syllables
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility ideographs
    (code >= 0xff00 && code <= 0xffef) || // fullwidth forms
    (code >= 0x20000 && code <= 0x3ffff) // CJK extensions
  ) {
    return 'wide';
  }
  return 'other';
}

function utf8Bytes(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

function costOf(kind: CharacterClass, characters: number, bytes: number): number {
  switch (kind) {
    case 'letter':
      return Math.ceil(characters / LETTERS_PER_TOKEN);
    case 'digit':
      return Math.ceil(characters / DIGITS_PER_TOKEN);
    case 'punctuation':
      return Math.ceil(characters / PUNCTUATION_PER_TOKEN);
    case 'space':
      return characters > 1 ? 1 : 0; // one space joins the next word's token; indentation is a token
    case 'newline':
      return 1;
    case 'wide':
      return Math.ceil(characters * WIDE_TOKENS_PER_CHARACTER);
    case 'other':
      return Math.ceil(bytes / OTHER_BYTES_PER_TOKEN);
  }
}

/**
 * A conservative estimate for models whose tokenizer ships in no package: text is cut into runs of one
 * character class (ASCII letters, digits, punctuation, spaces, newlines, wide CJK characters, other
 * non-ASCII) and each run is charged what BPE vocabularies charge at worst for it: so a lockfile's
 * punctuation and hashes, or Chinese text, are not undercounted the way bytes/4 undercounts them. Never
 * below bytes/4. Flagged `estimated: true`. A longer text never counts fewer tokens than its prefix.
 */
export const conservativeTokenizer: Tokenizer = Object.freeze({
  name: 'conservative',
  count(text: string): TokenCount {
    let tokens = 0;
    let run: CharacterClass | null = null;
    let characters = 0;
    let bytes = 0;
    let previous = 0;
    for (let index = 0; index < text.length; index++) {
      let code = text.charCodeAt(index);
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
        const low = text.charCodeAt(index + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          index++;
        }
      }
      const kind = classOf(code);
      const capitalAfterLowerCase =
        kind === 'letter' && code <= 0x5a && run === 'letter' && previous >= 0x61;
      previous = code;
      if (kind !== run || capitalAfterLowerCase) {
        if (run !== null) tokens += costOf(run, characters, bytes);
        run = kind;
        characters = 0;
        bytes = 0;
      }
      characters++;
      bytes += code >= 0xd800 && code <= 0xdfff ? 3 : utf8Bytes(code);
    }
    if (run !== null) tokens += costOf(run, characters, bytes);
    return {
      tokens: Math.max(tokens, Math.ceil(Buffer.byteLength(text, 'utf8') / 4)),
      estimated: true,
    };
  },
});
