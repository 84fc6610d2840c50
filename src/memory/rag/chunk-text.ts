/** Most characters of one chunk: about 200 tokens, small enough that a hit is one idea. */
export const DEFAULT_CHUNK_CHARACTERS = 800;

/**
 * Cuts a text into chunks of at most `maxCharacters` code points: words are packed greedily, whitespace runs
 * become one space, and a paragraph break starts a new chunk once the current one is half full. A word
 * longer than a chunk is cut hard. Pure; no word is lost or reordered.
 */
export function chunkText(text: string, maxCharacters = DEFAULT_CHUNK_CHARACTERS): string[] {
  if (!Number.isInteger(maxCharacters) || maxCharacters < 1)
    throw new RangeError(`maxCharacters must be a positive integer, got ${maxCharacters}`);
  const chunks: string[] = [];
  let current: string[] = [];
  let currentLength = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(current.join(' '));
    current = [];
    currentLength = 0;
  };
  for (const paragraph of text.split(/\n[^\S\n]*\n/)) {
    const words = paragraph
      .split(/\s+/)
      .filter((word) => word !== '')
      .flatMap((word) => cutLongWord(word, maxCharacters));
    if (words.length === 0) continue;
    if (currentLength >= maxCharacters / 2) flush();
    for (const word of words) {
      const wordLength = Array.from(word).length;
      const added = current.length === 0 ? wordLength : currentLength + 1 + wordLength;
      if (added > maxCharacters) {
        flush();
        current = [word];
        currentLength = wordLength;
      } else {
        current.push(word);
        currentLength = added;
      }
    }
  }
  flush();
  return chunks;
}

function cutLongWord(word: string, maxCharacters: number): string[] {
  const codePoints = Array.from(word);
  if (codePoints.length <= maxCharacters) return [word];
  const parts: string[] = [];
  for (let at = 0; at < codePoints.length; at += maxCharacters)
    parts.push(codePoints.slice(at, at + maxCharacters).join(''));
  return parts;
}
