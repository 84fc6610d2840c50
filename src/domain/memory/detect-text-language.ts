/** The text-search configurations Forja indexes fragments in (PostgreSQL's names). */
export type TextLanguage = 'portuguese' | 'english' | 'simple';

// Short function words that are frequent in one language and rare in the other. Accents are folded before
// matching, so "não" and "nao" count the same.
const PORTUGUESE = new Set(
  'a o as os um uma de do da dos das em no na nos nas para por com sem que e ou nao se ao aos pelo pela mais como ser esta este essa esse antes depois quando cada todo toda entre sobre ate tambem ja sao tem deve pode'.split(
    ' ',
  ),
);
const ENGLISH = new Set(
  'the a an of to in on for by with without that and or not is are be this these those before after when each every all between about until also already has have must can should will from at as it'.split(
    ' ',
  ),
);

/**
 * The language a fragment is written in, for full-text search: Portuguese or English when its function words
 * say so clearly (at least two, and twice as many as the other's), `simple` otherwise (no stemming, no stop
 * words: safe for code, names and mixed text). Pure and deterministic, so rebuilding the index gives the same.
 */
export function detectTextLanguage(text: string): TextLanguage {
  const words = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u);
  let portuguese = 0;
  let english = 0;
  for (const word of words) {
    // "a" is a function word in both; it decides nothing.
    if (word === 'a' || word === '') continue;
    if (PORTUGUESE.has(word)) portuguese += 1;
    if (ENGLISH.has(word)) english += 1;
  }
  if (portuguese >= 2 && portuguese >= 2 * english) return 'portuguese';
  if (english >= 2 && english >= 2 * portuguese) return 'english';
  if (portuguese === 1 && english === 0) return 'portuguese';
  if (english === 1 && portuguese === 0) return 'english';
  return 'simple';
}
